import Testing
@testable import PenEngine
