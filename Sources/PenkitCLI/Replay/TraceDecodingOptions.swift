import ArgumentParser
import PenInput

/// How `penkit replay` and `penkit compare` decode a trace: by default as libinput would.
struct TraceDecodingOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: "libinput's 4-sample smoothing of x, y and tilt.")
    var smoothing = true

    @Option(help: "Resolution in units/mm to assume for a trace that records none.")
    var resolution: Int32?

    /// Smoothing nil, not true: libinput decides per device (it leaves some tablets unsmoothed).
    var decoderOptions: DecoderOptions {
        DecoderOptions(smoothing: smoothing ? nil : false, fallbackResolution: resolution)
    }
}
