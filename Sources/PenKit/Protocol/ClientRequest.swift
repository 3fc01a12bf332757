/// One line a client sent, parsed once into the request it makes: its `type` picks the request,
/// whose fields are then decoded strictly by type (a bool, a fraction or an out-of-range number
/// is an error, not a coerced value). penkitd routes each case to one handler.
public enum ClientRequest: Sendable, Hashable {
    case subscribe(SubscribeRequest)
    /// A declaration that the client feeds a device's pressure. Its parse error is kept, not
    /// answered here: whether penkitd takes sources at all, and from this peer, is said first.
    case pressureSource(Result<PressureSourceRequest, ErrorMessage>)
    case record(RecordRequest)
    case status(StatusRequest)
    /// Changes to penkitd's settings (or their reset), kept over its config file.
    case settings(SettingsRequest)
    /// Malformed, unknown or of an unsupported version: answered with this error, and the
    /// connection stays usable.
    case invalid(ErrorMessage)

    public static func parse(_ line: [UInt8]) -> ClientRequest {
        guard let object = JSONValue.object(line: line) else {
            return .invalid(ErrorMessage(code: .malformed, message: "expected one JSON object per line"))
        }
        switch object["type"]?.string {
        case "pressure-source":
            return .pressureSource(PressureSourceRequest.parse(line))
        case "record":
            return RecordRequest.parse(line).either(ClientRequest.record, else: ClientRequest.invalid)
        case "status":
            return StatusRequest.parse(line).either(ClientRequest.status, else: ClientRequest.invalid)
        case "settings":
            return SettingsRequest.parse(line).either(ClientRequest.settings, else: ClientRequest.invalid)
        default:
            // `subscribe`, and every other type: its parse says "missing type" or "unknown request type".
            return SubscribeRequest.parse(line, object: object).either(ClientRequest.subscribe, else: ClientRequest.invalid)
        }
    }
}

private extension Result {
    func either<T>(_ success: (Success) -> T, else failure: (Failure) -> T) -> T {
        switch self {
        case .success(let value): success(value)
        case .failure(let error): failure(error)
        }
    }
}
