import PenKit

/// Everything the hub's lock guards: the data plane, and what the control plane decides by.
struct HubState {
    var fanOut: FanOut
    var control: ControlState
}

/// What the control plane decides by: who may connect and do what, the limits new clients get,
/// the pressure sources attached, and the settings `hello` and `status` report. The config and
/// policies are replaced on reload (`Hub.apply`).
struct ControlState {
    var settings: [String: String]
    /// The config in force, for `status` and new clients' limits.
    var config: DaemonConfig
    var policies: HubPolicies
    /// Points per part of a long stroke (`stroke-part-points`), as `subscribed` tells a client
    /// that takes parts: the input thread's, fixed at start.
    let strokePartPoints: Int
    /// The connection feeding each device's pressure, by device id.
    var sources: [Int: Int32] = [:]
    var nextClientID = 1
    /// The horizons last sent to the input thread, so that it is told only of a change.
    var horizons: [PredictionRequest] = []
    var stopping = false
    /// Settings changes checked and waiting to be written out of the lock (`SettingsHandler`),
    /// and the clients whose later requests wait for them.
    var settingsJobs: [SettingsHandler.Job] = []
    var settingsPending: Set<Int> = []

    init(config: DaemonConfig, settings: [String: String], policies: HubPolicies) {
        self.config = config
        self.settings = settings
        self.policies = policies
        strokePartPoints = config.strokePartPoints
    }

    /// The buffers a client that connects now gets.
    var limits: ClientLimits { ClientLimits(queueBytes: config.clientBufferBytes, liveBytes: config.clientLiveBufferBytes) }
    var maxClients: Int { config.maxClients }
}

/// A client's buffers' bounds, from the config in force when it connected.
struct ClientLimits {
    /// Bytes of strokes and device changes queued before `overflow` (`client-buffer-bytes`).
    var queueBytes: Int
    /// Unsent bytes past which live messages are dropped (`client-live-buffer-bytes`).
    var liveBytes: Int
}

/// Who may connect, who may be a pressure source, who may read the flight recorder and who may
/// change settings.
struct HubPolicies: Sendable {
    var peers: PeerPolicy
    var pressureSources: PeerPolicy = .defaultPressureSources
    var recorders: PeerPolicy = .defaultPressureSources
    var settingsEditors: PeerPolicy = PeerPolicy.settingsEditors()

    /// The policies the config names.
    init(config: DaemonConfig) throws {
        peers = try PeerPolicy(config: config)
        pressureSources = try PeerPolicy.pressureSources(config: config)
        recorders = try PeerPolicy.recorders(config: config)
    }

    init(peers: PeerPolicy, pressureSources: PeerPolicy = .defaultPressureSources, recorders: PeerPolicy = .defaultPressureSources) {
        self.peers = peers
        self.pressureSources = pressureSources
        self.recorders = recorders
    }
}
