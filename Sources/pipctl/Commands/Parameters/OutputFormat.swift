import MediaCore

/// `--size`, `--fps`, `--sample-rate`, `--channels`: the picture and sound of media a command makes from
/// nothing or from several sources (testsrc, render, play), with fixed defaults.
struct OutputFormat: Hashable, Sendable {
    var size: PixelSize
    var frameRate: FrameRate
    var sampleRate: Int
    var channels: Int

    static let size = Parameter.option(
        "size", .evenSize, default: PixelSize(width: 640, height: 360),
        help: "Output frame size in pixels; both sides even. Sources of another shape are letterboxed or "
            + "pillarboxed, never stretched.")
    static let fps = Parameter.option(
        "fps", .frameRate, default: FrameRate(30),
        help: "Output frame rate, exact: an integer, a decimal or a fraction such as 30000/1001.")
    static let sampleRate = Parameter.option(
        "sample-rate", .integer("HZ", in: 8000...192_000), default: 48000, help: "Audio sample rate in Hz.")
    static let channels = Parameter.option(
        "channels", .integer("N", in: 1...8), default: 2, help: "Number of audio channels.")

    static let parameters: [any ParameterDeclaration] = [size, fps, sampleRate, channels]

    init(_ arguments: ParsedArguments) {
        size = arguments[Self.size]
        frameRate = arguments[Self.fps]
        sampleRate = arguments[Self.sampleRate]
        channels = arguments[Self.channels]
    }
}
