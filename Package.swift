// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "penkit",
    products: [
        // The one library for clients. The other modules' API is `package`: the fuzz targets are
        // targets of this package (below), so nothing outside it needs them.
        .library(name: "PenKit", targets: ["PenKit"]),
        .executable(name: "penkitd", targets: ["penkitd"]),
        .executable(name: "penkit", targets: ["penkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(name: "CLibinput", pkgConfig: "libinput", providers: [.apt(["libinput-dev"])]),
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // zlib: penkitd keeps the strokes held for `since` deflated (StrokeHistory).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // The Linux calls Swift's Glibc module leaves out or cannot make (variadic, packed, GNU):
        // epoll, eventfd, accept4 and peer credentials for the socket loop; ppoll in µs, timer
        // slack and glibc's mmap threshold for the input thread; thread names (PenKit's threads).
        .target(name: "CLinuxCalls"),
        // CRC-32C with the CPU's crc32 instruction (the journal's record checksum).
        .target(name: "CChecksum"),
        // Swift's own shortest double formatting, into a caller's buffer (the protocol writer).
        .target(name: "CNumberText"),
        // Shared vocabulary: events, samples, strokes, the wire protocol, the client and the drawing model.
        .target(name: "PenKit", dependencies: ["CNumberText", "CLinuxCalls"]),
        // Estimation, prediction and stroke assembly; deterministic: it reads no clock, time enters only
        // through the events and the times it is advanced to.
        .target(name: "PenEngine", dependencies: [
            "PenKit",
            .product(name: "DequeModule", package: "swift-collections"),
        ]),
        // The evemu trace reader and the evdev tablet decoder: pure Swift, no C library, so Fuzz/
        // links it alone.
        .target(name: "PenInput", dependencies: ["PenKit"]),
        // The `libinput record` YAML reader, apart from PenInput because Yams brings all of
        // Foundation (its ICU data is most of a static binary): penkit and the tests link it,
        // penkitd does not.
        .target(name: "PenInputRecord", dependencies: [
            "PenInput",
            .product(name: "Yams", package: "Yams"),
        ]),
        // The Linux side of input: live libinput and udev, uinput devices for replay.
        .target(name: "PenInputLinux", dependencies: ["PenKit", "PenInput", "CLibinput", "CLibevdev", "CUdev"]),
        // The virtual tablet's pen (mapping, feel and jitter filter applied once), its uinput
        // description and its libinput quirk: what penkitd writes and `penkit bench virtual-tablet`
        // predicts. Pure Swift but for linux/input.h's constants (CLibevdev).
        .target(name: "PenVirtualTablet", dependencies: ["PenKit", "PenEngine", "PenInput", "CLibevdev"]),
        // Tool code, never linked by penkitd: the libinput oracle recorder (penkit oracle).
        .target(name: "PenOracle", dependencies: ["PenKit", "PenInput", "PenInputLinux", "CLibevdev"]),
        // Tool code, never linked by penkitd: traces replayed through the engine, stroke comparison,
        // prediction evaluation (penkit replay, compare, bench, and the tests).
        // The prediction lab lives here too: the baselines and the other ways of undoing libinput's
        // smoothing (LabPrediction), run in the product's PredictionStage.
        .target(name: "PenEvaluation", dependencies: [
            "PenKit", "PenEngine", "PenInput", "PenVirtualTablet",
            .product(name: "DequeModule", package: "swift-collections"),
        ]),
        .executableTarget(name: "penkitd", dependencies: [
            "CLinuxCalls", "CChecksum", "CZlib",
            "PenKit", "PenEngine", "PenInput", "PenInputLinux", "PenVirtualTablet",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "DequeModule", package: "swift-collections"),
        ], linkerSettings: [
            // Release (and the .deb) links with the toolchain's lld, for its packed relative
            // relocations (DT_RELR, glibc 2.36+): a static Swift runtime needs ~42,000 of them,
            // 1 MB as RELA, 8 KB as RELR. gold, the default, cannot pack them. Identical code
            // folding (as Apple's linker does by default) merges the generic specialisations that
            // compile to the same bytes: 283 KB of the stripped binary
            // (docs/measurements/2026-11-29-identical-code-folding.md).
            .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--icf=all"],
                         .when(configuration: .release)),
        ]),
        // `penkit view`: the page, its script and the loopback HTTP/WebSocket server that feeds it.
        .target(name: "PenView", dependencies: [
            "PenKit",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ], resources: [
            // SurfacePairing for the browser: a real .js file (node checks it against the shared
            // vectors), compiled into the binary as bytes, served as /penkit-surface.js.
            .embedInCode("Resources/penkit-surface.js"),
            // The canvas (`/`): real .js files too (node checks their syntax and the drawing model),
            // served as /canvas.js, /canvas-inks.js, /canvas-drawing.js and /canvas-picker.js.
            .embedInCode("Resources/canvas.js"),
            .embedInCode("Resources/canvas-inks.js"),
            .embedInCode("Resources/canvas-drawing.js"),
            .embedInCode("Resources/canvas-picker.js"),
            // The debug view's script (/debug), served as /view.js.
            .embedInCode("Resources/view.js"),
            // The settings page's script (/settings), served as /settings.js.
            .embedInCode("Resources/settings.js"),
        ]),
        .executableTarget(name: "penkit", dependencies: [
            "CLinuxCalls", "PenKit", "PenEngine", "PenInput", "PenInputRecord", "PenInputLinux", "PenOracle", "PenEvaluation",
            "PenView", "PenVirtualTablet",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/PenkitCLI"),

        // libFuzzer targets for the trace readers, the replay schedule and the client protocol.
        // A plain build compiles and links them without the fuzzer (they then refuse to run);
        // Fuzz/run.sh (`make fuzz`) builds them with -sanitize=fuzzer in its own scratch path,
        // so the normal build never sees the sanitizer.
        .target(name: "CFuzzEntry", path: "Fuzz/Sources/CFuzzEntry"),
        .target(name: "FuzzDriver", dependencies: ["CFuzzEntry"], path: "Fuzz/Sources/FuzzDriver"),
        .executableTarget(name: "FuzzEvemuReader", dependencies: ["FuzzDriver", "PenInput"],
                          path: "Fuzz/Sources/FuzzEvemuReader"),
        .executableTarget(name: "FuzzLibinputRecordReader", dependencies: ["FuzzDriver", "PenInput", "PenInputRecord"],
                          path: "Fuzz/Sources/FuzzLibinputRecordReader"),
        // penkitd's replay: its schedule's time computations, looping, into the engine.
        .executableTarget(name: "FuzzReplayLoop", dependencies: ["FuzzDriver", "PenInput", "PenEngine", "PenKit"],
                          path: "Fuzz/Sources/FuzzReplayLoop"),
        // The client protocol: request lines as penkitd parses them, server lines as clients decode them.
        .executableTarget(name: "FuzzClientProtocol", dependencies: ["FuzzDriver", "PenKit"],
                          path: "Fuzz/Sources/FuzzClientProtocol"),

        // Reference code the tests share, written apart from what it checks.
        .target(name: "PenTestSupport", dependencies: ["PenKit"], path: "Tests/PenTestSupport"),
        .testTarget(name: "PenKitTests", dependencies: ["PenKit", "PenTestSupport"]),
        .testTarget(name: "PenInputTests", dependencies: [
            "PenInput", "PenInputRecord", "PenInputLinux", "PenOracle", "PenKit", "CLibevdev",
        ]),
        .testTarget(name: "PenEngineTests", dependencies: ["PenEngine", "PenEvaluation", "PenInput", "PenKit", "PenTestSupport"]),
        .testTarget(name: "PenVirtualTabletTests", dependencies: ["PenVirtualTablet", "PenEngine", "PenEvaluation", "PenInput", "PenKit", "CLibevdev"]),
        // penkit's commands' own logic (penkit doctor's findings).
        .testTarget(name: "PenkitCommandTests", dependencies: ["penkit", "PenKit", "PenInput", "PenEngine", "PenEvaluation", "PenTestSupport"]),
        // SurfacePairing on the real traces through the engine, and the vectors shared with the JS and Python clients.
        .testTarget(name: "SurfacePairingTests", dependencies: ["PenKit", "PenEngine", "PenEvaluation", "PenInput"]),
        .testTarget(name: "PenViewTests", dependencies: ["PenView", "PenKit", "penkit"]),
        // penkitd's parts on their own (hub, config file) over real sockets and files.
        .testTarget(name: "PenkitdTests", dependencies: ["penkitd", "PenKit", "PenInput", "PenVirtualTablet", "PenEvaluation", "PenTestSupport", "CChecksum",
                                                        .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "IntegrationTests", dependencies: ["PenKit", "PenInput", "PenInputLinux", "PenInputRecord", "penkitd", "PenTestSupport"]),
    ]
)
