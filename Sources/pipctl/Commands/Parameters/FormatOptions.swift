import MediaCore
import VideoPipeline

/// `--size`, `--fps`, `--sample-rate`, `--channels`: the picture and sound of what a command writes. For
/// `testsrc` they default to `OutputFormat.standard`; for `render`, `play` and `transcode` to the input's (the one
/// rule, `OutputFormat.resolve`).
struct FormatOptions: Hashable, Sendable {
    /// Nil: the content's (render, play).
    var size: PixelSize?
    var frameRate: FrameRate?
    var sampleRate: Int?
    var channels: Int?

    static let sizeHelp = "Output frame size in pixels (the screen); both sides even. Pictures of another shape "
        + "are letterboxed or pillarboxed, never stretched."
    static let fpsHelp = "Output frame rate, exact: an integer, a decimal or a fraction such as 30000/1001. "
        + "Frames are repeated or dropped by the nearest-frame rule, never blended."

    /// With fixed defaults, for media made from nothing.
    enum Fixed {
        static let size = Parameter.option("size", .evenSize, default: OutputFormat.standard.size, help: sizeHelp)
        static let fps = Parameter.option("fps", .frameRate, default: OutputFormat.standard.frameRate, help: fpsHelp)
        static let sampleRate = Parameter.option(
            "sample-rate", .integer("HZ", in: 8000...192_000), default: OutputFormat.standard.sampleRate,
            help: "Audio sample rate in Hz.")
        static let channels = Parameter.option(
            "channels", .integer("N", in: 1...8), default: OutputFormat.standard.channels, help: "Number of audio channels.")
        static let parameters: [any ParameterDeclaration] = [size, fps, sampleRate, channels]
    }

    /// Defaulting to the content's, for renders.
    enum FromContent {
        static let size = Parameter.optional("size", .evenSize, absent: "the content's", help: sizeHelp)
        static let fps = Parameter.optional("fps", .frameRate, absent: "the content's", help: fpsHelp)
        static let sampleRate = Parameter.optional(
            "sample-rate", .integer("HZ", in: 8000...192_000), absent: "the content's", help: "Audio sample rate in Hz.")
        static let channels = Parameter.optional(
            "channels", .integer("N", in: 1...8), absent: "the content's", help: "Number of audio channels.")
        static let parameters: [any ParameterDeclaration] = [size, fps, sampleRate, channels]
    }

    init(fixed arguments: ParsedArguments) {
        size = arguments[Fixed.size]
        frameRate = arguments[Fixed.fps]
        sampleRate = arguments[Fixed.sampleRate]
        channels = arguments[Fixed.channels]
    }

    init(fromContent arguments: ParsedArguments) {
        size = arguments[FromContent.size]
        frameRate = arguments[FromContent.fps]
        sampleRate = arguments[FromContent.sampleRate]
        channels = arguments[FromContent.channels]
    }
}
