import FuzzDriver
import PenKit

@main
enum FuzzClientProtocolMain {
    static func main() { runFuzzer { data, size in data.map { fuzzClientProtocol($0, size) } ?? 0 } }
}

/// libFuzzer entry for the client protocol: each line is read as penkitd reads a client's
/// request (SubscribeRequest) and as a client reads a server line (PenMessage). A crash or a
/// broken promise is a bug: an accepted request writes a line that parses back to itself, and
/// a refused one gets an error line that a client decodes with the same code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientProtocol(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    where line.count <= PenProtocol.maxLineBytes {
        let request = Array(line)
        switch SubscribeRequest.parse(request) {
        case .success(let parsed):
            guard case .success(let again) = SubscribeRequest.parse(Array(parsed.jsonLine().utf8)), again == parsed else {
                fatalError("subscribe does not round-trip: \(parsed)")
            }
        case .failure(let error):
            guard case .error(let code, _, _)? = PenMessage(line: error.jsonLine()), code == error.code.rawValue else {
                fatalError("error line does not decode: \(error.jsonLine())")
            }
        }
        _ = PenMessage(line: String(decoding: request, as: UTF8.self))
    }
    return 0
}
