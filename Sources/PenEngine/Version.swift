public enum PenEngineVersion { public static let value = 1 }
