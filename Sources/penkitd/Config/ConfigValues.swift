/// Value forms shared by the config file's keys.
enum ConfigValues {
    static func boolean(_ key: String, _ value: String) throws(ConfigValueError) -> Bool {
        switch value {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ConfigValueError("\(key) must be true or false")
        }
    }

    /// Finite numbers separated by commas or spaces.
    static func numbers(_ key: String, _ value: String) throws(ConfigValueError) -> [Double] {
        let parts = value.split { $0 == "," || $0 == " " || $0 == "\t" }
        var numbers: [Double] = []
        for part in parts {
            guard let n = Double(part), n.isFinite else { throw ConfigValueError("\(key): \"\(part)\" is not a number") }
            numbers.append(n)
        }
        return numbers
    }

    static func fraction(_ key: String, _ value: String) throws(ConfigValueError) -> Double {
        let numbers = try numbers(key, value)
        guard numbers.count == 1, (0...1).contains(numbers[0]) else { throw ConfigValueError("\(key) must be a number from 0 to 1") }
        return numbers[0]
    }
}
