import PenKit

/// The tablets a `[device MATCH]` section applies to: every one (`[device]` or `[device *]`),
/// one model by USB ids (`[device 056a:0357]`, hex), or one by its exact name (`[device Wacom Intuos Pro M Pen]`,
/// quotes optional).
enum DeviceMatch: Hashable {
    case any
    case ids(vendor: UInt16, product: UInt16)
    case name(String)

    init(_ text: String) throws(ConfigValueError) {
        var text = text
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        if text.isEmpty || text == "*" {
            self = .any
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ $0.count == 4 }),
           let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16) {
            self = .ids(vendor: vendor, product: product)
            return
        }
        self = .name(text)
    }

    func matches(_ device: DeviceInfo) -> Bool {
        switch self {
        case .any: true
        case .ids(let vendor, let product): device.vendor == vendor && device.product == product
        case .name(let name): device.name == name
        }
    }
}
