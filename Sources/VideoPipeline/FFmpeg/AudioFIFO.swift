import CFFmpeg

/// Owns an `AVAudioFifo` of planar samples; freed only in `deinit`. Every read and write is checked.
final class AudioFIFO {
    let pointer: OpaquePointer
    private let path: String?

    init(format: AVSampleFormat, channels: Int, capacity: Int, path: String?) throws(MediaError) {
        self.path = path
        pointer = try allocated(av_audio_fifo_alloc(format, Int32(channels), Int32(capacity)), "av_audio_fifo_alloc")
    }

    deinit { av_audio_fifo_free(pointer) }

    /// Samples held.
    var count: Int { Int(av_audio_fifo_size(pointer)) }

    @discardableResult
    func write(_ planes: UnsafeMutablePointer<UnsafeMutableRawPointer?>, count: Int) throws(MediaError) -> Int {
        Int(try check(av_audio_fifo_write(pointer, planes, Int32(count)), "av_audio_fifo_write", path: path))
    }

    @discardableResult
    func read(_ planes: UnsafeMutablePointer<UnsafeMutableRawPointer?>, count: Int) throws(MediaError) -> Int {
        Int(try check(av_audio_fifo_read(pointer, planes, Int32(count)), "av_audio_fifo_read", path: path))
    }

    /// Reads `count` samples straight into an audio frame's planes; returns how many there were (callers read
    /// no more than `count` holds, so it is `count`).
    @discardableResult
    func read(into frame: Frame, count: Int) throws(MediaError) -> Int {
        let got = withUnsafeMutablePointer(to: &frame.pointer.pointee.data) {
            $0.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { av_audio_fifo_read(pointer, $0, Int32(count)) }
        }
        return Int(try check(got, "av_audio_fifo_read", path: path))
    }

    /// Copies `count` samples from `offset` samples past the start into `planes`, leaving them in.
    func peek(_ planes: UnsafeMutablePointer<UnsafeMutableRawPointer?>, count: Int, offset: Int) throws(MediaError) {
        let got = av_audio_fifo_peek_at(pointer, planes, Int32(count), Int32(offset))
        guard try check(got, "av_audio_fifo_peek_at", path: path) == Int32(count) else {
            throw .ffmpeg(function: "av_audio_fifo_peek_at", code: got, message: "\(got) of \(count) samples", path: path)
        }
    }

    /// Copies `count` samples from `offset` samples past the start into an audio frame's planes, leaving them in.
    func peek(into frame: Frame, count: Int, offset: Int) throws(MediaError) {
        try withUnsafeMutablePointer(to: &frame.pointer.pointee.data) { data throws(MediaError) in
            try data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { planes throws(MediaError) in
                try peek(planes, count: count, offset: offset)
            }
        }
    }

    func drain(_ count: Int) throws(MediaError) {
        try check(av_audio_fifo_drain(pointer, Int32(count)), "av_audio_fifo_drain", path: path)
    }

    func reset() { av_audio_fifo_reset(pointer) }
}
