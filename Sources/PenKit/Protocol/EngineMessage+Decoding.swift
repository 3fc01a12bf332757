import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading engine messages back from their JSON lines, for clients and tests.
/// Unknown keys are ignored so that later protocol additions stay readable.
extension EngineMessage {
    public static func decode(jsonLine: String) throws -> EngineMessage {
        try JSONDecoder().decode(EngineMessage.self, from: Data(jsonLine.utf8))
    }
}

struct Keys: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(_ s: String) { stringValue = s }
}

extension KeyedDecodingContainer where Key == Keys {
    func get<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try decode(T.self, forKey: Keys(name))
    }
    func maybe<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T? {
        try decodeIfPresent(T.self, forKey: Keys(name))
    }
}

extension EngineMessage: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let type: String = try c.get("type")
        switch type {
        case "frame": self = .frame(try Frame(from: decoder))
        case "began": self = .began(try StrokeBegan(from: decoder))
        case "update": self = .update(try SampleUpdate(from: decoder))
        case "ended": self = .ended(try StrokeEnded(from: decoder))
        case "stroke": self = .stroke(try FinalizedStroke(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(forKey: Keys("type"), in: c,
                                                   debugDescription: "unknown message type \(type)")
        }
    }
}

extension SampleProperties: Decodable {
    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self = []
        while !c.isAtEnd {
            let name = try c.decode(String.self)
            guard let p = SampleProperties.named(name) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown property \(name)")
            }
            insert(p)
        }
    }
}

extension Sample: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(time: try c.get("t"), x: try c.get("x"), y: try c.get("y"),
                  force: try c.get("force"), azimuth: try c.get("azimuth"), altitude: try c.get("altitude"),
                  roll: try c.get("roll"), distance: try c.get("distance"),
                  estimated: try c.get("estimated"), expectingUpdates: try c.get("expecting"),
                  updateIndex: try c.maybe("updateIndex"), rawForce: try c.maybe("rawForce"),
                  outputX: try c.maybe("outputX"), outputY: try c.maybe("outputY"))
    }
}

extension Ink: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let typeName: String = try c.get("type")
        guard let type = InkType(rawValue: typeName) else {
            throw DecodingError.dataCorruptedError(forKey: Keys("type"), in: c, debugDescription: "unknown ink \(typeName)")
        }
        let hex: String = try c.get("color")
        guard let color = InkColor(hexString: hex) else {
            throw DecodingError.dataCorruptedError(forKey: Keys("color"), in: c, debugDescription: "bad color \(hex)")
        }
        self.init(type, color: color, width: try c.get("width"))
    }
}

extension StrokeSample: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(time: try c.get("t"), x: try c.get("x"), y: try c.get("y"), force: try c.get("force"),
                  azimuth: try c.get("azimuth"), altitude: try c.get("altitude"), roll: try c.get("roll"),
                  size: try c.get("size"), opacity: try c.get("opacity"), estimated: try c.get("estimated"))
    }
}

extension StrokePoint: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(x: try c.get("x"), y: try c.get("y"), timeOffset: try c.get("timeOffset"),
                  size: try c.get("size"), opacity: try c.get("opacity"), azimuth: try c.get("azimuth"),
                  force: try c.get("force"), altitude: try c.get("altitude"))
    }
}

extension StrokePath: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(controlPoints: try c.get("controlPoints"), creationTime: try c.get("creationTime"))
    }
}

extension Stroke: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(id: try c.get("id"), tool: try c.get("tool"), ink: try c.get("ink"),
                  cancelled: try c.get("cancelled"), points: try c.get("points"), path: try c.get("path"))
    }
}

extension Frame: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(tool: try c.get("tool"), stroke: try c.maybe("stroke"), sample: try c.get("sample"),
                  predicted: try c.maybe("predicted") ?? [], expectedError: try c.maybe("expectedError"),
                  liftProbability: try c.maybe("liftProbability"), device: try c.maybe("device") ?? 0,
                  delivered: try c.maybe("delivered"))
    }
}

extension StrokeBegan: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(stroke: try c.get("stroke"), tool: try c.get("tool"), ink: try c.get("ink"), time: try c.get("t"),
                  device: try c.maybe("device") ?? 0)
    }
}

extension SampleUpdate: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(stroke: try c.maybe("stroke"), updateIndex: try c.get("updateIndex"),
                  updated: try c.get("updated"), expired: try c.get("expired"), sample: try c.get("sample"),
                  device: try c.maybe("device") ?? 0)
    }
}

extension StrokeEnded: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(stroke: try c.get("stroke"), time: try c.get("t"), cancelled: try c.get("cancelled"),
                  pendingUpdates: try c.get("pendingUpdates"), device: try c.maybe("device") ?? 0)
    }
}

extension FinalizedStroke: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(seq: try c.get("seq"), stroke: try c.get("stroke"), device: try c.maybe("device") ?? 0)
    }
}
