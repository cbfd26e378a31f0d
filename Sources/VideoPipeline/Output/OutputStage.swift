import CFFmpeg
import MediaCore

/// The per-frame output loop, written once: the caller draws frame `n`; the stage takes its samples
/// `[A(n), A(n+1))`, hashes the picture, encodes the video, then the audio; for `render`, `transcode` and `testsrc`.
///
/// Why one type: the pairing of output frame `n` with its audio samples `[⌊n·rate/F⌋, ⌊(n+1)·rate/F⌋)` is what
/// keeps every output drift-free, and the all-or-nothing commit of an output with its frame hashes (and the
/// caller's other files) is what keeps the user's files safe. Three loops that each did this were three chances to
/// get one of them subtly wrong. The stage takes the frame number from the caller and refuses any other than the
/// next one, so a skipped or repeated frame is a programming error caught at once, not a shifted file.
///
/// **Pipelined** (`EncodingSettings.pipelined`, the default): the stage copies the picture and the samples and hands
/// them to its `EncodeThread`, which hashes and encodes them in the same order the caller gave them, while the caller
/// goes on to draw the next frame. Encoded audio (AAC, PCM) is encoded on a second thread, and its packets go back
/// (`PacketChannel`) to the first, which writes each frame's after the frame's video, where encoding them itself
/// would have. At most `pipelineDepth` frames wait; an output error surfaces at a later `write` or at
/// `finishWriting`. The encoders see the same frames in the same order and the muxer the same packets in the same
/// order, so the bytes are the same.
public final class OutputStage {
    /// Frames the encoder thread may have waiting: enough to ride out a slow frame on either side, few enough
    /// that memory stays a handful of pictures.
    static let pipelineDepth = 4

    public let format: OutputFormat
    /// The audio samples one output frame owns, where they start on the output's sample clock.
    public struct SampleSpan: Hashable, Sendable {
        /// `A(n)`: the first sample of the frame, counted from the output's start.
        public var start: Int64
        /// `A(n+1) − A(n)`.
        public var count: Int
    }

    private let writer: MediaWriter?
    private let hashes: FrameHashLog?
    private let clock: SampleClock
    private let audio: AudioBuffer
    private var nextFrame: Int64 = 0
    /// The encoder thread when pipelined, and the copies it has given back for reuse.
    private let encoder: EncodeThread?
    /// When pipelined and the output's audio is encoded (not spliced from copied packets): the thread that encodes
    /// it, and the channel its packets reach the encoder thread through, which writes them where it would have.
    private let audioEncoder: (thread: EncodeThread, packets: PacketChannel)?
    private let spares = LockedState<(pictures: [Frame], sounds: [AudioBuffer])>(([], []))
    /// Unpipelined, the frame drawn into by `write(frame:keyframe:draw:sound:)`.
    private var drawn: Frame?

    /// Sees every frame `write` takes, its picture and its samples, before they are encoded (`play --show`).
    public var frameObserver: ((OutputFrameView) -> Void)?

    /// Frames written so far (the number the next `write` must carry).
    public var frameCount: Int64 { nextFrame }
    /// Audio samples written so far: `A(frameCount)`.
    public var sampleCount: Int64 { clock.sample(atFrame: nextFrame) }

    /// Opens the output (when `destination` is given: `play` without `--record` writes nothing) and the frame-hash
    /// log (when `frameHashPath` is), both under temporary names until `finishWriting`.
    ///
    /// With `passthrough` (an H.264 file at the output's size and rate; no frame-hash log) the output's video can
    /// copy that file's pictures (`copyVideo`) where a frame's picture was deferred (`write` with no picture), and,
    /// with `copySound`, its audio that file's AAC packets (`contentSound`).
    public init(destination: String?, format: OutputFormat, encoding: EncodingSettings,
                frameHashPath: String? = nil, passthrough: String? = nil, copySound: Bool = true) throws(MediaError) {
        try format.validate()
        precondition(passthrough == nil || (destination != nil && frameHashPath == nil))
        self.format = format
        clock = format.sampleClock
        writer = try destination.map { d throws(MediaError) in
            try MediaWriter(destination: d, format: format, encoding: encoding, passthrough: passthrough, copySound: copySound)
        }
        hashes = try frameHashPath.map { p throws(MediaError) in try FrameHashLog(destination: p, format: format) }
        audio = try AudioBuffer(channels: format.channels, sampleRate: format.sampleRate,
                                capacity: Int(clock.samples(fromFrame: 0, toFrame: 1)) + 2)
        encoder = encoding.pipelined && (writer != nil || hashes != nil)
            ? EncodeThread(capacity: OutputStage.pipelineDepth, name: "pipctl encode") : nil
        audioEncoder = encoder != nil && writer?.encodesAudio == true
            ? (EncodeThread(capacity: OutputStage.pipelineDepth, name: "pipctl audio", lowered: true), PacketChannel()) : nil
    }

    deinit {
        // The audio thread first: a video job still waiting for its packets then gets the channel's error.
        audioEncoder?.thread.cancel()
        audioEncoder?.packets.fail(.interrupted)
        encoder?.cancel()
    }

    /// The samples output frame `n` owns.
    public func span(ofFrame n: Int64) -> SampleSpan {
        SampleSpan(start: clock.sample(atFrame: n), count: Int(clock.samples(fromFrame: n, toFrame: n + 1)))
    }

    /// Writes output frame `n`: has `sound` fill exactly the frame's samples into the buffer it is given, then
    /// hashes and encodes `picture` (yuv420p at the output size) and encodes the samples. A `keyframe` is encoded
    /// as one (where an HLS render cuts a segment).
    ///
    /// `n` must be the next frame (`frameCount`). The sound is taken before anything is written, so when `sound`
    /// throws nothing of frame `n` is in the output and the caller may write frame `n` again (a render replaces an
    /// ad whose audio failed by its fallback at the same frame); its error reaches the caller unchanged. A failure
    /// of the output itself is passed through `outputFailure`, and the stage must not be used after it.
    ///
    /// In passthrough, `picture` may be `nil`: the frame's sound is written and its picture deferred, to be given
    /// later, in order, by `copyVideo` or `writeDeferredVideo`.
    public func write<Failure: Error>(frame n: Int64, picture: VideoPicture?, keyframe: Bool = false,
                                      outputFailure: (MediaError) -> Failure,
                                      sound: (SampleSpan, AudioBuffer) throws(Failure) -> Void) throws(Failure) {
        try takeSound(ofFrame: n, sound)
        frameObserver?(OutputFrameView(frame: n, picture: picture, sound: audio))
        do {
            precondition(picture != nil || writer?.copyable != nil, "a picture deferred without passthrough")
            if let encoder {
                try handOff(try picture.map { p throws(MediaError) in try spareCopy(of: p) }, keyframe: keyframe, to: encoder)
            } else {
                try encode(picture, keyframe: keyframe)
            }
        } catch { throw outputFailure(error) }
        nextFrame = n + 1
    }

    /// Takes frame `n`'s samples into `audio` before anything of it is written, so that when `sound` throws nothing of
    /// the frame is in the output and it may be written again. `n` must be the next frame.
    private func takeSound<Failure: Error>(ofFrame n: Int64, _ sound: (SampleSpan, AudioBuffer) throws(Failure) -> Void) throws(Failure) {
        precondition(n == nextFrame, "output frame \(n) written after frame \(nextFrame - 1)")
        let span = span(ofFrame: n)
        audio.count = 0
        audio.copyableSound = nil
        try sound(span, audio)
        precondition(audio.count == span.count, "frame \(n) got \(audio.count) audio samples for \(span.count)")
    }

    /// Writes output frame `n` like `write(frame:picture:keyframe:sound:)`, its picture drawn by `draw` straight
    /// into the frame the encoder takes (a writable yuv420p frame of the output size, whose pixels `draw` must all
    /// set): no canvas, and no copy of it when pipelined. The samples are taken first; when `draw` throws, its error
    /// reaches the caller unchanged, nothing of frame `n` is written and it may be written again.
    func write(frame n: Int64, keyframe: Bool = false, draw: (Frame) throws(MediaError) -> Void,
               sound: (SampleSpan, AudioBuffer) throws(MediaError) -> Void) throws(MediaError) {
        try takeSound(ofFrame: n, sound)
        let target = try encoder == nil ? ownPicture() : spare()
        do { try draw(target) } catch {
            if encoder != nil { spares.withLock { $0.pictures.append(target) } }
            throw error
        }
        let picture = VideoPicture(frame: target)
        frameObserver?(OutputFrameView(frame: n, picture: picture, sound: audio))
        if let encoder {
            try handOff(target, keyframe: keyframe, to: encoder)
        } else {
            try encode(picture, keyframe: keyframe)
        }
        nextFrame = n + 1
    }

    /// Unpipelined: hashes and encodes `picture` (when there is one) and the frame's samples now.
    private func encode(_ picture: VideoPicture?, keyframe: Bool) throws(MediaError) {
        if let picture {
            try hashes?.append(picture)
            try writer?.writeVideo(picture, keyframe: keyframe)
        }
        try writer?.writeAudio(audio)
    }

    /// Queues the hashing and encoding of `copy` (a spare frame, when the frame has a picture) and of the frame's
    /// samples, copied into a spare buffer; the job gives both back when done.
    private func handOff(_ copy: Frame?, keyframe: Bool, to encoder: EncodeThread) throws(MediaError) {
        let spare = spares.withLock { $0.sounds.popLast() }
        let sound = if let spare { spare } else {
            try AudioBuffer(channels: audio.channels, sampleRate: audio.sampleRate, capacity: audio.capacity)
        }
        sound.copy(from: audio)
        let (hashes, writer, spares) = (hashes, writer, spares)
        let channel = audioEncoder?.packets
        if let audioEncoder, let writer {
            // AAC costs about a sixth of a 720p transcode's CPU: on its own thread, a little below x264's, it runs
            // while x264's threads wait, instead of after each frame's video on the encoder thread.
            let channel = audioEncoder.packets
            try audioEncoder.thread.submit { () throws(MediaError) in
                defer { spares.withLock { $0.sounds.append(sound) } }
                do throws(MediaError) { channel.send(try writer.encodeAudio(sound)) } catch {
                    channel.fail(error)
                    throw error
                }
            }
        }
        try encoder.submit { () throws(MediaError) in
            if let copy {
                let frame = VideoPicture(frame: copy)
                try hashes?.append(frame)
                try writer?.writeVideo(frame, keyframe: keyframe)
                spares.withLock { $0.pictures.append(copy) }
            }
            if let channel {
                try writer?.writeAudio(packets: channel.receive())
            } else {
                try writer?.writeAudio(sound)
                spares.withLock { $0.sounds.append(sound) }
            }
        }
    }

    /// `picture` copied into a spare frame (given back by the job that encodes it).
    private func spareCopy(of picture: VideoPicture) throws(MediaError) -> Frame {
        let copy = try spare(picture.size)
        try copy.copyPixels(from: picture.frame)
        return copy
    }

    /// A writable picture of `size` (the output's by default) that no queued job holds: one given back, or a new one.
    private func spare(_ size: PixelSize? = nil) throws(MediaError) -> Frame {
        let size = size ?? format.size
        let spare = spares.withLock { $0.pictures.popLast() }
        let frame = if let spare, spare.size == size { spare } else { try Frame.picture(size) }
        try frame.makeWritable()
        return frame
    }

    /// Unpipelined: the one frame `write(frame:keyframe:draw:sound:)` draws into, writable (an encoder that kept a
    /// reference to it keeps the old buffers).
    private func ownPicture() throws(MediaError) -> Frame {
        let frame = if let drawn { drawn } else { try Frame.picture(format.size) }
        drawn = frame
        try frame.makeWritable()
        return frame
    }

    /// In passthrough: what the output's video can copy, the passthrough file's IDR pictures and picture count.
    public var copyable: CopySource? { writer?.copyable }

    /// In passthrough: the content's sound, whose AAC packets are copied where the caller reads it on its `grid` and
    /// marks the samples (`AudioBuffer.copyableSound`); `nil` when it is encoded (`audioCopyRefusal` says why).
    public var contentSound: AudioPacketSource? { writer?.contentSound }

    /// In passthrough with the content's sound copied: `path` (an ad) opened for its packets to be copied too.
    /// - Throws: `.cannotCopy` with the reason when its sound is not AAC-LC in the output's format.
    public func soundSource(_ path: String) throws(MediaError) -> AudioPacketSource? {
        try writer?.soundSource(path)
    }
    public var audioCopyRefusal: CopyRefusal? { writer?.audioCopyRefusal }
    /// In passthrough, after `finishWriting`: the AAC packets copied from the content and encoded.
    public var audioPackets: (copied: Int, encoded: Int)? { writer?.audioPackets }

    /// In passthrough: `path` (an ad) opened to be copied like the passthrough file, when its pictures can be.
    /// - Throws: `.cannotCopy` with the reason when they cannot.
    public func copySource(_ path: String) throws(MediaError) -> CopySource? {
        try writer?.copySource(path)
    }

    /// In passthrough: the pictures of deferred frames, copied from the pictures `range` of `source` (the
    /// passthrough file when `nil`; `range` starts at an IDR and ends at one or at the file's end).
    public func copyVideo(_ range: Range<Int64>, from source: CopySource? = nil) throws(MediaError) {
        guard let writer else { return }
        guard let encoder else { return try writer.copyVideo(range, from: source) }
        try encoder.submit { () throws(MediaError) in try writer.copyVideo(range, from: source) }
    }

    /// In passthrough: the picture of the next deferred frame, encoded (as an IDR when `keyframe`).
    public func writeDeferredVideo(_ picture: VideoPicture, keyframe: Bool = false) throws(MediaError) {
        guard let writer else { return }
        guard let encoder else { return try writer.writeVideo(picture, keyframe: keyframe) }
        let copy = try spareCopy(of: picture)
        let spares = spares
        try encoder.submit { () throws(MediaError) in
            try writer.writeVideo(VideoPicture(frame: copy), keyframe: keyframe)
            spares.withLock { $0.pictures.append(copy) }
        }
    }

    /// `write(frame:picture:outputFailure:sound:)` for callers whose errors are all `MediaError`.
    public func write(frame n: Int64, picture: VideoPicture, keyframe: Bool = false,
                      sound: (SampleSpan, AudioBuffer) throws(MediaError) -> Void) throws(MediaError) {
        try write(frame: n, picture: picture, keyframe: keyframe, outputFailure: { $0 }, sound: sound)
    }

    /// Flushes the encoders and writes the trailer, leaving every file of the stage under its temporary name: the
    /// caller puts them in place with its own (`AtomicFile.commitAll`), so that all appear or none does.
    public func finishWriting() throws(MediaError) -> [AtomicFile] {
        try audioEncoder?.thread.finish()
        try encoder?.finish()
        var files: [AtomicFile] = []
        if let writer { files.append(try writer.finishWriting()) }
        if let hashes { files.append(hashes.finishWriting()) }
        return files
    }

    /// Finishes and puts the output and its frame hashes in place together.
    public func commit() throws(MediaError) {
        let files = try finishWriting()
        do { try AtomicFile.commitAll(files) } catch { throw MediaError(error) }
    }
}
