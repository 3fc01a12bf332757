import Testing
@testable import PenInput
