import PenKit

/// Where the input loop's results go, one way: the hub's clients (and whatever later taps the
/// published stream). Nothing here calls back into the input side.
protocol InputOutlet {
    func publish(_ batch: OutboundBatch)
    func deviceAdded(_ device: DeviceInfo)
    func deviceRemoved(_ device: DeviceInfo)
    /// After a warm-up: warms the path past the pipeline (the sockets' send path).
    func warmSockets()
}

extension Hub: InputOutlet {}
