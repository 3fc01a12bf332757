import Foundation
import Testing

/// The settings page's endpoints under the page's access rules, on a real `penkit view --replay`
/// process (its settings need penkitd: Chromium drives them against a real one in
/// scripts/view-settings-browser-test.py).
@Suite(.serialized) struct SettingsEndpointTests {
    static let change = Array(#"{"type":"settings","version":1,"set":[{"section":"tool pen","key":"pressure-curve","value":"0, 0.6, 0.4, 1"}]}"#.utf8)

    @Test func aReplayHasNoSettingsAndTheRulesHoldBeforeAnyPenkitd() throws {
        let view = try ViewProcess()
        let page = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/settings?token=\(view.token)", host: view.host))
        #expect(page.status == 200 && page.body.contains("settings.js?token=\(view.token)"))
        let script = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/settings.js?token=\(view.token)", host: view.host))
        #expect(script.status == 200 && script.body.contains("/settings/change"))
        // A replay has no penkitd to ask: said plainly, not a hang or a crash.
        let state = try post(view, "/settings/state", Array("{}".utf8))
        #expect(state.status == 503 && state.body.contains("penkitd"), "\(state.body)")
        // Another site's page, a request without Origin or without the token: refused before anything else.
        #expect(try post(view, "/settings/change", Self.change, origin: "http://attacker.example").status == 403)
        let noOrigin = try RawHTTP.request(port: view.port, bytes: RawHTTP.post(
            path: "/settings/change?token=\(view.token)", host: view.host, origin: nil, body: Self.change))
        #expect(noOrigin.status == 403)
        let noToken = try RawHTTP.request(port: view.port, bytes: RawHTTP.post(
            path: "/settings/change", host: view.host, origin: "http://\(view.host)", body: Self.change))
        #expect(noToken.status == 403)
        // A GET of an endpoint says it takes POST.
        let get = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/settings/state?token=\(view.token)", host: view.host))
        #expect(get.status == 405)
    }

    private func post(_ view: ViewProcess, _ path: String, _ body: [UInt8], origin: String? = nil) throws -> RawHTTP.Response {
        try RawHTTP.request(port: view.port, bytes: RawHTTP.post(path: "\(path)?token=\(view.token)", host: view.host,
                                                                 origin: origin ?? "http://\(view.host)", body: body))
    }
}
