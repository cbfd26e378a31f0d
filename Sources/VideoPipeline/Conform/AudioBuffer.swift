import CFFmpeg

/// A reusable block of planar 32-bit float audio in the output format: what sources fill and writers consume.
public final class AudioBuffer {
    let frame: Frame
    public let channels: Int
    public let sampleRate: Int
    /// How many samples it can hold.
    public let capacity: Int
    /// How many samples it holds now.
    public internal(set) var count: Int = 0
    /// The file whose sound these samples are, read unchanged, and the source position they start at, when a
    /// passthrough render may copy that file's packets (`SplicedAudioTrack`). Set by whoever fills the buffer;
    /// `nil` for any other sound.
    public var copyableSound: CopyableSound?

    /// The most channels a buffer holds: the planes of `AVFrame.data` (the output's range too, 1 to 8).
    public static let maximumChannels = 8

    /// `channels` must be from 1 to `maximumChannels`: more would have planes only in `extended_data`.
    public init(channels: Int, sampleRate: Int, capacity: Int) throws(MediaError) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.capacity = capacity
        frame = try Frame.audio(format: AV_SAMPLE_FMT_FLTP, channels: channels, sampleRate: sampleRate, samples: capacity)
    }

    func plane(_ channel: Int) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer(frame.dataPointer(channel)!).assumingMemoryBound(to: Float.self)
    }

    /// The data pointers FFmpeg's audio functions take (`void **`), one per channel.
    func withPlanes<R, E: Error>(offset: Int = 0, _ body: (UnsafeMutablePointer<UnsafeMutableRawPointer?>) throws(E) -> R) throws(E) -> R {
        var pointers = (0..<channels).map { UnsafeMutableRawPointer(plane($0) + offset) as UnsafeMutableRawPointer? }
        return try pointers.withUnsafeMutableBufferPointer { buffer throws(E) in try body(buffer.baseAddress!) }
    }

    /// Replaces the contents with `other`'s samples (same channels and rate, no more than the capacity).
    func copy(from other: AudioBuffer) {
        precondition(other.channels == channels && other.sampleRate == sampleRate && other.count <= capacity)
        for c in 0..<channels { plane(c).update(from: other.plane(c), count: other.count) }
        count = other.count
        copyableSound = other.copyableSound
    }

    /// Writes silence into `[from, to)`.
    func silence(from: Int, to: Int) {
        guard to > from else { return }
        for c in 0..<channels { (plane(c) + from).update(repeating: 0, count: to - from) }
    }

    /// The samples of one channel, for analysis and tests.
    public func samples(channel: Int) -> [Float] {
        Array(UnsafeBufferPointer(start: plane(channel), count: count))
    }

    /// Replaces the content with `count` samples produced by `body(channel, index)`.
    public func fill(count: Int, _ body: (_ channel: Int, _ index: Int) -> Float) {
        precondition(count <= capacity)
        for c in 0..<channels {
            let p = plane(c)
            for i in 0..<count { p[i] = body(c, i) }
        }
        self.count = count
    }

    /// Gives direct access to each channel's storage (capacity samples), then sets the count.
    func write(count: Int, _ body: (_ channel: Int, _ samples: UnsafeMutableBufferPointer<Float>) -> Void) {
        precondition(count <= capacity)
        for c in 0..<channels { body(c, UnsafeMutableBufferPointer(start: plane(c), count: capacity)) }
        self.count = count
    }
}

/// Samples that are a file's sound read unchanged from `position` on, whose AAC packets can be copied.
public struct CopyableSound: Sendable {
    public let source: AudioPacketSource
    public let position: Int64

    public init(source: AudioPacketSource, position: Int64) {
        self.source = source
        self.position = position
    }
}
