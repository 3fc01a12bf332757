import ArgumentParser
import Foundation
import PenInput
import PenInputLinux
import PenKit

/// `penkit libinput-events --device /dev/input/eventN`: real libinput's tablet-tool events
/// for the given nodes, one TabletEvent JSON line each, every getter at full precision
/// (`libinput debug-events` and `libinput record` round to 2 decimals).
struct LibinputEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "libinput-events",
        abstract: "Print real libinput's tablet-tool events for device nodes as JSON lines."
    )

    @Option(name: .customLong("device"), help: "A device node (/dev/input/eventN); repeat for more.")
    var devices: [String]

    @Flag(help: "Also print libinput's debug log on stderr.")
    var verbose = false

    func run() throws {
        guard !devices.isEmpty else { throw ValidationError("give at least one --device /dev/input/eventN") }
        let context = try LibinputContext(logPriority: verbose ? .debug : .info) { priority, message in
            FileHandle.standardError.write(Data("libinput \(priority): \(message)\n".utf8))
        }
        for path in devices where context.addDevice(path: path) == nil {
            throw RuntimeFailure("libinput did not accept \(path) (see its log above)")
        }
        var fds = [pollfd(fd: context.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            try context.dispatch()
            context.drainEvents { event in
                switch event {
                case .tabletTool(let e, _): FileHandle.standardOutput.write(Data((e.jsonLine() + "\n").utf8))
                case .deviceAdded(let d): FileHandle.standardError.write(Data("added \(d.sysname): \(d.name)\n".utf8))
                case .deviceRemoved(let d): FileHandle.standardError.write(Data("removed \(d.sysname): \(d.name)\n".utf8))
                case .tabletPad(let e, _): FileHandle.standardOutput.write(Data((PadMessage(device: 0, event: e).jsonLine() + "\n").utf8))
                case .other: break
                }
            }
            _ = poll(&fds, 1, -1)
        }
    }
}
