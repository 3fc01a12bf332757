/// Each frame of the device whose event the virtual tablet wrote says where it put the pen
/// (`delivered`), so a client can tell what apps saw from what penkit predicted.
struct DeliveryStamp: PipelineStage {
    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        guard case .tool(_, let device) = input, let delivered = call.delivered else { return }
        for index in call.replies.indices {
            if case .frame(var frame) = call.replies[index], frame.device == UInt32(device) {
                frame.delivered = delivered
                call.replies[index] = .frame(frame)
            }
        }
    }
}
