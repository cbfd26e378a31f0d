import MediaCore

/// Why a file's packets cannot be copied into a passthrough output (`MediaError.cannotCopy`), read from the file
/// itself: its pictures must be H.264 coded as the output's track can carry them, its sound AAC-LC on the output's
/// packet grid. The description is the clause the render's summary prints after the file's path.
public enum CopyRefusal: Hashable, Sendable, CustomStringConvertible {
    /// Its video is another codec (FFmpeg's name for it).
    case videoCodec(String)
    /// Its pictures are not 8-bit 4:2:0.
    case pixelFormat
    /// Its pictures are another size than the output's.
    case pictureSize(width: Int, height: Int, output: PixelSize)
    /// Its H.264 carries its parameter sets only in the stream, not in an `avcC`.
    case noAVCC
    /// A video packet has no timestamp.
    case unstampedPicture
    /// Its pictures fall between the output's frames.
    case offFrameGrid
    /// Its first picture is not an IDR (an HLS segment that cannot be decoded on its own).
    case noIDRAtStart
    /// Its pictures are not one per output frame (a variable or other frame rate).
    case notOnePerFrame
    /// Its parameter set ids leave none free for the encoder's.
    case parameterSetIDsExhausted
    /// The encoder's sequence parameter set ids clash with the content's.
    case parameterSetIDsClash([Int])
    /// An ad coded with parameter sets other than the content's (the track's `avcC` is fixed before it).
    case otherParameterSets
    /// It reorders more pictures than the track allows.
    case reorderDepth(Int, limit: Int)
    /// At this frame rate, half an AAC packet is more than a frame.
    case packetShift(FrameRate)
    /// The output's sound is not AAC with a one-packet delay.
    case outputSound
    /// It has no sound.
    case noSound
    /// Its sound is another codec.
    case soundCodec(String)
    /// Its sound has another rate or channel count than the output's.
    case soundFormat(sampleRate: Int, channels: Int, outputSampleRate: Int, outputChannels: Int)
    /// Its AAC configuration is not a plain AAC-LC one.
    case notAACLC
    /// Its AAC configuration (object type, rate, channel configuration) is not the encoder's.
    case otherAACConfiguration
    /// Its sound has no packets.
    case noSoundPackets
    /// Its sound's packets are not stamped on its sample clock.
    case unstampedSound
    /// The user asked for the sound to be encoded (`--passthrough-sound encode`).
    case soundEncodedByRequest

    public var description: String {
        switch self {
        case .videoCodec(let codec): "its video is \(codec), not H.264"
        case .pixelFormat: "its pictures are not 8-bit 4:2:0"
        case .pictureSize(let width, let height, let output): "its pictures are \(width)x\(height), the output's \(output)"
        case .noAVCC: "its H.264 has no avcC (parameter sets in the stream only)"
        case .unstampedPicture: "a video packet has no timestamp"
        case .offFrameGrid: "its pictures are not on the output's frame grid"
        case .noIDRAtStart: "its first picture is not an IDR"
        case .notOnePerFrame: "its pictures are not one per frame of the output (a variable or other frame rate)"
        case .parameterSetIDsExhausted: "its parameter set ids leave none free for the re-encoded pictures"
        case .parameterSetIDsClash(let ids): "x264's parameter set ids \(ids) clash with the content's"
        case .otherParameterSets: "its parameter sets (SPS/PPS) are not the content's"
        case .reorderDepth(let depth, let limit): "it reorders \(depth) pictures, more than the content's \(limit)"
        case .packetShift(let rate): "at \(rate) fps a shift of half an AAC packet would move the sound more than a frame"
        case .outputSound: "the output's sound is not AAC with a one-packet delay"
        case .noSound: "it has no sound"
        case .soundCodec(let codec): "its sound is \(codec), not AAC"
        case .soundFormat(let rate, let channels, let outputRate, let outputChannels):
            "its sound is \(rate) Hz with \(channels) channels, the output's \(outputRate) Hz with \(outputChannels)"
        case .notAACLC: "its AAC configuration is not a plain AAC-LC one"
        case .otherAACConfiguration: "its AAC configuration (object type, rate, channel configuration) is not the encoder's"
        case .noSoundPackets: "its sound has no packets"
        case .unstampedSound: "its sound's packets are not stamped on its sample clock"
        case .soundEncodedByRequest: "--passthrough-sound encode"
        }
    }
}
