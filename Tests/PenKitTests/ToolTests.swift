import Testing
@testable import PenKit

@Test func toolTypeNamesMatchLibinput() {
    #expect(ToolType.allCases.map(\.rawValue) == ["pen", "eraser", "brush", "pencil", "airbrush", "mouse", "lens"])
}
