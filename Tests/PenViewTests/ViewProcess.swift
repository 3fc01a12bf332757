import Foundation

/// A real `penkit view --replay` process for a test: started on a free loopback port, with the
/// URL (and so the port and token) it printed. The server under test runs apart from the test
/// process, as a user runs it, so nothing the test runner does can stall it.
final class ViewProcess {
    let process = Process()
    let url: String
    let port: Int
    let token: String

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static let penkitPath: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("penkit").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return repositoryRoot + "/.build/debug/penkit"
    }()

    init(trace: String = "traces/wacom-intuos4-6x9-stylus-tap.evemu") throws {
        process.executableURL = URL(fileURLWithPath: Self.penkitPath)
        process.arguments = ["view", "--replay", Self.repositoryRoot + "/" + trace, "--listen", "127.0.0.1:0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is the URL; reading blocks until it is printed or the process ends.
        var line: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let b = byte.first else { break }
            if b == UInt8(ascii: "\n") { break }
            line.append(b)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("penkit view: http://127.0.0.1:"),
              let url = text.split(separator: " ").last,
              let portText = url.split(separator: ":").last?.split(separator: "/").first, let port = Int(portText),
              let token = url.split(separator: "=").last else {
            process.terminate()
            throw TestError("penkit view printed no URL: \(text)")
        }
        self.url = String(url)
        self.port = port
        self.token = String(token)
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    var host: String { "127.0.0.1:\(port)" }
}
