// swift-tools-version:6.0
// libFuzzer targets for penkit's trace readers and client protocol, kept out of the main package so that its
// normal build never sees -sanitize=fuzzer. Build and run them with `make fuzz` (Fuzz/run.sh).
import PackageDescription

let package = Package(
    name: "penkit-fuzz",
    dependencies: [
        .package(name: "penkit", path: ".."),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzEvemuReader", dependencies: [
            "FuzzDriver", .product(name: "PenInput", package: "penkit"),
        ]),
        .executableTarget(name: "FuzzLibinputRecordReader", dependencies: [
            "FuzzDriver", .product(name: "PenInput", package: "penkit"), .product(name: "PenInputRecord", package: "penkit"),
        ]),
        // penkitd's replay: its schedule's time computations, looping, into the engine.
        .executableTarget(name: "FuzzReplayLoop", dependencies: [
            "FuzzDriver", .product(name: "PenInput", package: "penkit"), .product(name: "PenEngine", package: "penkit"),
            .product(name: "PenKit", package: "penkit"),
        ]),
        // The client protocol: request lines as penkitd parses them, server lines as clients decode them.
        .executableTarget(name: "FuzzClientProtocol", dependencies: [
            "FuzzDriver", .product(name: "PenKit", package: "penkit"),
        ]),
    ]
)
