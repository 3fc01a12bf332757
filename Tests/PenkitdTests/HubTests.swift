import Foundation
import Glibc
import Logging
import PenKit
@testable import penkitd
import Testing

/// The hub on its own: real sockets (socketpairs, whose peer credentials the kernel records as
/// for a connect), a real epoll set, no socket loop: each test calls what the loop would.
@Suite struct HubTests {
    private func hub(_ config: DaemonConfig = DaemonConfig(), settings: [String: String] = ["input": "replay"],
                     policy: PeerPolicy? = nil) throws -> Hub {
        Hub(epoll: try Epoll(), config: config, settings: settings, policies: HubPolicies(peers: try policy ?? PeerPolicy(config: config)),
            links: Hub.Links(inputControl: try ControlQueue()), logger: Logger(label: "hub-test"))
    }

    private func connect(_ hub: Hub) throws -> SocketPairClient {
        let client = try SocketPairClient()
        hub.accept(client.serverEnd)
        return client
    }

    private func request(_ hub: Hub, _ client: SocketPairClient, _ line: String) {
        client.send(line + "\n")
        hub.socketEvent(client.serverEnd, events: Epoll.input)
    }

    private func strokeBatch(seq: UInt64) -> OutboundBatch {
        var batch = OutboundBatch()
        batch.append(.frames, EngineMessage.ended(StrokeEnded(stroke: seq, time: seq * 1_000, cancelled: false, pendingUpdates: 0)))
        batch.append(.strokes, EngineMessage.ended(StrokeEnded(stroke: seq, time: seq * 1_000, cancelled: false, pendingUpdates: 0)), seq: seq)
        return batch
    }

    @Test func aNewClientIsGreetedWithTheDevicesAndSettings() throws {
        let hub = try hub()
        hub.deviceAdded(DeviceInfo(id: 3, name: "Test Tablet", vendor: 0x056a, product: 0x00bc, source: "replay"))
        let client = try connect(hub)
        let lines = try #require(client.lines())
        #expect(lines.count == 1)
        let hello = jsonObject(lines[0])
        #expect(hello["type"] as? String == "hello")
        #expect((hello["devices"] as? [[String: Any]])?.first?["name"] as? String == "Test Tablet")
        #expect((hello["settings"] as? [String: String])?["input"] == "replay")
    }

    /// The window a client used to fall into: a tablet plugged in after its `hello` and before its
    /// subscription was in neither `hello` nor a `device` message (pressure-feed waited forever
    /// for it in the VM). `subscribed` now lists what is there when the subscription takes effect,
    /// and `device` messages carry on from exactly that point.
    @Test func aDeviceAddedBetweenHelloAndSubscribeIsListedInSubscribed() throws {
        let hub = try hub()
        hub.deviceAdded(DeviceInfo(id: 1, name: "First Tablet", vendor: 0x056a, product: 0x00bc, source: "/dev/input/event5"))
        let client = try connect(hub)
        let hello = jsonObject(try #require(client.lines()).first ?? "")
        #expect((hello["devices"] as? [[String: Any]])?.compactMap { ($0["id"] as? NSNumber)?.intValue } == [1])
        hub.deviceAdded(DeviceInfo(id: 2, name: "Second Tablet", vendor: 0x056a, product: 0x0357, source: "/dev/input/event9"))
        request(hub, client, #"{"type":"subscribe","version":1,"channels":["devices"]}"#)
        hub.deviceRemoved(DeviceInfo(id: 1, name: "First Tablet", vendor: 0x056a, product: 0x00bc, source: "/dev/input/event5"))
        let lines = try #require(client.lines())
        #expect(lines.map(messageType) == ["subscribed", "device"], "no device message repeats what subscribed listed")
        let subscribed = jsonObject(lines[0])
        let listed = (subscribed["devices"] as? [[String: Any]]) ?? []
        #expect(listed.compactMap { ($0["id"] as? NSNumber)?.intValue } == [1, 2])
        #expect(listed.last?["name"] as? String == "Second Tablet")
        let removal = jsonObject(lines[1])
        #expect(removal["change"] as? String == "removed")
        #expect(((removal["device"] as? [String: Any])?["id"] as? NSNumber)?.intValue == 1)

        guard case .subscribed(let subscribed)? = PenMessage(line: lines[0]) else {
            Issue.record("subscribed did not decode")
            return
        }
        #expect(subscribed.devices?.map(\.name) == ["First Tablet", "Second Tablet"])

        let strokesOnly = try connect(hub)
        _ = strokesOnly.lines()
        request(hub, strokesOnly, #"{"type":"subscribe","version":1,"channels":["strokes"]}"#)
        let other = jsonObject(try #require(strokesOnly.lines()).first ?? "")
        #expect(other["type"] as? String == "subscribed")
        #expect(other["devices"] == nil, "only a devices subscriber is told the devices")
    }

    @Test func aSubscriberGetsOnlyItsChannelsInOrder() throws {
        let hub = try hub()
        let strokesOnly = try connect(hub)
        let both = try connect(hub)
        let silent = try connect(hub)
        request(hub, strokesOnly, #"{"type":"subscribe","version":1,"channels":["strokes"]}"#)
        request(hub, both, #"{"type":"subscribe","version":1,"channels":["frames","strokes"]}"#)
        for seq in 1...3 { hub.publish(strokeBatch(seq: UInt64(seq))) }
        let a = try #require(strokesOnly.lines()), b = try #require(both.lines()), c = try #require(silent.lines())
        #expect(a.map(messageType) == ["hello", "subscribed", "ended", "ended", "ended"])
        #expect(b.map(messageType) == ["hello", "subscribed"] + Array(repeating: "ended", count: 6))
        #expect(c.map(messageType) == ["hello"], "a client that has not subscribed gets nothing published")
        #expect(a.dropFirst(2).map { (jsonObject($0)["stroke"] as? NSNumber)?.intValue } == [1, 2, 3])
    }

    @Test func sinceReplaysTheHistoryAfterThatSequenceNumber() throws {
        let hub = try hub()
        for seq in 1...5 { hub.publish(strokeBatch(seq: UInt64(seq))) }
        let late = try connect(hub)
        let hello = jsonObject(try #require(late.lines()).first ?? "")
        #expect((hello["lastSeq"] as? NSNumber)?.intValue == 5)
        request(hub, late, #"{"type":"subscribe","version":1,"channels":["strokes"],"since":3}"#)
        let lines = try #require(late.lines())
        #expect((jsonObject(lines[0])["replaying"] as? NSNumber)?.intValue == 2)
        #expect(lines.dropFirst().map { (jsonObject($0)["stroke"] as? NSNumber)?.intValue } == [4, 5])
    }

    @Test func aBadRequestGetsAnErrorAndTheConnectionStaysUsable() throws {
        let hub = try hub()
        let client = try connect(hub)
        _ = client.lines()
        request(hub, client, #"{"type":"subscribe","version":99}"#)
        let error = jsonObject(try #require(client.lines()).first ?? "")
        #expect(error["type"] as? String == "error")
        #expect(error["fatal"] as? Bool != true)
        request(hub, client, #"{"type":"subscribe","version":1,"channels":["strokes"]}"#)
        #expect(try #require(client.lines()).map(messageType) == ["subscribed"])
    }

    @Test func aPeerThePolicyRefusesGetsOneFatalErrorAndIsClosed() throws {
        var policy = try PeerPolicy(config: DaemonConfig())
        policy.users = []
        let hub = try hub(policy: policy)
        let client = try connect(hub)
        let lines = try #require(client.lines())
        #expect(lines.map(messageType) == ["error"])
        #expect(jsonObject(lines[0])["fatal"] as? Bool == true)
        #expect(client.lines() == nil, "the connection is closed")
        #expect(hub.isEmpty)
    }

    @Test func aConnectionOverMaxClientsIsRefusedAndTheOthersServed() throws {
        var config = DaemonConfig()
        config.maxClients = 1
        let hub = try hub(config)
        let first = try connect(hub)
        let second = try connect(hub)
        #expect(second.lines()?.map { jsonObject($0)["code"] as? String } == ["too_many_clients"])
        #expect(second.lines() == nil)
        request(hub, first, #"{"type":"subscribe","version":1,"channels":["strokes"]}"#)
        hub.publish(strokeBatch(seq: 1))
        #expect(try #require(first.lines()).map(messageType) == ["hello", "subscribed", "ended"])
    }

    /// The horizons clients ask for reach the input thread as inputs on its control queue, once
    /// per change: when a client asks for its own, and when it leaves.
    @Test func horizonChangesArePostedToTheInputThread() throws {
        let control = try ControlQueue()
        let config = DaemonConfig()
        let hub = Hub(epoll: try Epoll(), config: config, settings: [:], policies: HubPolicies(peers: try PeerPolicy(config: config)),
                      links: Hub.Links(inputControl: control), logger: Logger(label: "hub-test"))
        var client: SocketPairClient? = try connect(hub)
        let fd = client!.serverEnd
        var inputs: [ControlInput] = []
        func horizons() -> [[PredictionRequest]] {
            control.take(into: &inputs)
            return inputs.compactMap { if case .horizons(let requests) = $0 { requests } else { nil } }
        }
        request(hub, client!, #"{"type":"subscribe","version":1,"channels":["frames"]}"#)
        #expect(horizons().isEmpty)
        request(hub, client!, #"{"type":"subscribe","version":1,"channels":["frames"],"predict":{"horizonMs":24}}"#)
        let asked = horizons()
        #expect(asked.count == 1 && asked.first?.count == 1)
        client = nil
        hub.socketEvent(fd, events: Epoll.hangup)
        #expect(horizons() == [[]])
    }

    @Test func aClientThatHangsUpIsForgotten() throws {
        let hub = try hub()
        var client: SocketPairClient? = try connect(hub)
        let fd = client!.serverEnd
        #expect(!hub.isEmpty)
        client = nil
        hub.socketEvent(fd, events: Epoll.hangup)
        #expect(hub.isEmpty)
    }

    /// Warming the write path before a report (`Hub.warmSockets`) sends nothing and wakes no
    /// reader; the next frame arrives as if it had not run, and a client that hung up is no trouble.
    @Test func warmingTheSocketsSendsNothing() throws {
        let hub = try hub()
        let client = try connect(hub)
        request(hub, client, #"{"type":"subscribe","version":1,"channels":["frames","strokes"]}"#)
        #expect(client.lines()?.map(messageType) == ["hello", "subscribed"])
        var gone: SocketPairClient? = try connect(hub)
        request(hub, gone!, #"{"type":"subscribe","version":1,"channels":["frames"]}"#)
        gone = nil  // hung up, and the hub has not heard yet: its sends fail with EPIPE, never SIGPIPE
        for _ in 0..<3 { hub.warmSockets() }
        var readable = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&readable, 1, 0) == 0, "a warm-up woke the client")
        #expect(client.lines() == [])
        hub.publish(strokeBatch(seq: 1))
        #expect(client.lines()?.map(messageType) == ["ended", "ended"])
    }

    @Test func shutdownTellsEverySubscriberWhy() throws {
        let hub = try hub()
        let client = try connect(hub)
        request(hub, client, #"{"type":"subscribe","version":1,"channels":["strokes"]}"#)
        _ = client.lines()
        hub.shutdown(reason: "test over")
        let lines = try #require(client.lines())
        #expect(lines.map(messageType) == ["shutdown"])
        #expect(jsonObject(lines[0])["reason"] as? String == "test over")
    }

    /// Found by `penkit bench soak` (issue #32): a client that fell behind on frames just before
    /// penkitd stopped got `shutdown` without the `dropped` report of its last drops, so some frames
    /// were neither received nor reported. Every frame is now one or the other.
    @Test func framesDroppedBeforeShutdownAreReportedBeforeIt() throws {
        let hub = try hub()
        let client = try connect(hub)
        request(hub, client, #"{"type":"subscribe","version":1,"channels":["frames"]}"#)
        _ = client.lines()
        // Far more than the socket and the live buffer hold while the client does not read.
        let published = 20_000
        for index in 0..<published {
            var batch = OutboundBatch()
            batch.append(.frames, ProximityMessage(device: 1, time: UInt64(index), entering: true,
                                                   tool: ToolIdentity(type: .pen, serial: 7, id: 0x802)))
            hub.publish(batch)
        }
        hub.shutdown(reason: "test over")
        var lines: [String] = []
        for _ in 0..<10_000 where lines.last.map(messageType) != "shutdown" {
            guard let more = client.lines() else { break }
            lines += more
            hub.socketEvent(client.serverEnd, events: Epoll.output)
        }
        #expect(lines.last.map(messageType) == "shutdown")
        let received = lines.filter { messageType($0) == "proximity" }.count
        let reported = lines.filter { messageType($0) == "dropped" }.reduce(0) { $0 + ((jsonObject($1)["frames"] as? NSNumber)?.intValue ?? 0) }
        #expect(reported > 0, "the client never fell behind: the test proves nothing")
        #expect(received + reported == published, "\(received) received + \(reported) reported dropped")
    }
}
