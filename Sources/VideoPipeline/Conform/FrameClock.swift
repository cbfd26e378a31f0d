import MediaCore

/// When a decoded video frame starts on the source's clock (zero = the file's start): the one reading of frame
/// times that the renderer (`VideoTrack`) and the verifiers (`SourceFrames`, `FingerprintScanner`) share.
///
/// A frame's time is its presentation timestamp less the file's start time; a frame without one starts where the
/// previous one ends (its packet's duration, else one nominal frame), the first at zero. Keeping this in one place
/// is what lets `pipctl verify` predict exactly the frames a render shows.
struct FrameClock {
    private let decoder: StreamDecoder
    /// The source clock's zero on the stream's own timeline.
    let origin: MediaTime
    /// The length of one source frame when a frame carries no timestamp and no duration.
    let nominalFrame: MediaDuration

    /// - Parameters:
    ///   - origin: the source clock's zero; the file's start time when `nil`.
    ///   - fallbackRate: the nominal rate of a stream that declares none (the output's, as the renderer takes it).
    init(decoder: StreamDecoder, origin: MediaTime? = nil, fallbackRate: FrameRate) {
        self.decoder = decoder
        self.origin = origin ?? decoder.input.startTime ?? .zero
        nominalFrame = (decoder.nominalFrameRate.map(FrameRate.init) ?? fallbackRate).frameDuration
    }

    /// The start of `frame`, just decoded, whose predecessor (if any) started at `previous`.
    func start(of frame: Frame, after previous: MediaTime?) -> MediaTime {
        if let pts = decoder.presentationTime(of: frame) {
            return .zero + (pts - origin)
        }
        let duration = frame.packetDuration.map { MediaDuration(value: $0, timeBase: decoder.timeBase) } ?? nominalFrame
        return previous.map { $0 + duration } ?? .zero
    }
}
