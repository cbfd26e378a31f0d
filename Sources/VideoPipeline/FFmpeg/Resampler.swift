import CFFmpeg

/// Owns a libswresample context (`SwrContext`), initialised for one conversion; freed only in `deinit`.
final class Resampler {
    let pointer: OpaquePointer

    /// - Throws: FFmpeg errors naming `swr_alloc_set_opts2` or `swr_init` (an input format it cannot convert).
    init(from input: (layout: AVChannelLayout, format: AVSampleFormat, sampleRate: Int32), toChannels channels: Int,
         format: AVSampleFormat, sampleRate: Int, path: String) throws(MediaError) {
        var swr: OpaquePointer? = nil
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        var inLayout = input.layout
        // On failure swr_alloc_set_opts2 frees what it allocated and leaves `swr` NULL.
        try check(swr_alloc_set_opts2(&swr, &outLayout, format, Int32(sampleRate), &inLayout, input.format,
                                      input.sampleRate, 0, nil), "swr_alloc_set_opts2", path: path)
        pointer = try allocated(swr, "swr_alloc_set_opts2")
        try check(swr_init(pointer), "swr_init", path: path)
    }

    deinit {
        var s: OpaquePointer? = pointer
        swr_free(&s)
    }

    /// Starts again from an empty state (after a seek).
    func restart(path: String) throws(MediaError) {
        swr_close(pointer)
        try check(swr_init(pointer), "swr_init", path: path)
    }

    /// Room needed for the output of `count` input samples (plus what is buffered).
    func outputRoom(forInput count: Int) -> Int { Int(swr_get_out_samples(pointer, Int32(count))) }

    /// Converts `count` input samples (`nil` input flushes) into at most `room` samples of `output`.
    func convert(_ input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int,
                 into output: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, room: Int, path: String) throws(MediaError) -> Int {
        Int(try check(swr_convert(pointer, output, Int32(room), input, Int32(count)), "swr_convert", path: path))
    }
}
