import CFFmpeg
import MediaCore

/// Owns an `AVFrame` (reference-counted buffers); freed in `deinit`.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MediaError) {
        pointer = try allocated(av_frame_alloc(), "av_frame_alloc")
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }

    /// Allocates a writable picture of `size`, yuv420p unless `format` says otherwise.
    static func picture(_ size: PixelSize, format: AVPixelFormat = AV_PIX_FMT_YUV420P) throws(MediaError) -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.width = Int32(size.width)
        frame.pointer.pointee.height = Int32(size.height)
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        return frame
    }

    /// Allocates writable audio of `samples` per channel in `format`, with the default layout of `channels`.
    static func audio(format: AVSampleFormat, channels: Int, sampleRate: Int, samples: Int) throws(MediaError) -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.sample_rate = Int32(sampleRate)
        frame.pointer.pointee.nb_samples = Int32(samples)
        av_channel_layout_default(&frame.pointer.pointee.ch_layout, Int32(channels))
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        return frame
    }

    var width: Int { Int(pointer.pointee.width) }
    var height: Int { Int(pointer.pointee.height) }
    var size: PixelSize { PixelSize(width: width, height: height) }
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }

    func unref() { av_frame_unref(pointer) }

    /// Its presentation timestamp, in the time base of the encoder it is sent to.
    var presentationTime: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }

    /// Asks the encoder for a keyframe here (`AV_PICTURE_TYPE_I`; with x264's `forced-idr` an IDR) or leaves the
    /// choice to it.
    func forceKeyframe(_ forced: Bool) {
        pointer.pointee.pict_type = forced ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
    }

    /// Copies the pixels of `source` (same format and size) into this frame's buffers (`av_frame_copy`).
    func copyPixels(from source: Frame) throws(MediaError) {
        try check(av_frame_copy(pointer, source.pointer), "av_frame_copy")
    }

    /// Audio samples per channel.
    var sampleCount: Int { Int(pointer.pointee.nb_samples) }

    /// The audio planes as libswresample reads them (`const uint8_t **`).
    var audioPlanes: UnsafeMutablePointer<UnsafePointer<UInt8>?>? {
        pointer.pointee.extended_data.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: UnsafePointer<UInt8>?.self) }
    }

    /// Makes the buffers writable (copying them if another reference shares them).
    func makeWritable() throws(MediaError) {
        try check(av_frame_make_writable(pointer), "av_frame_make_writable")
    }

    /// A new reference to the same buffers.
    func reference() throws(MediaError) -> Frame {
        let copy = try Frame()
        try check(av_frame_ref(copy.pointer, pointer), "av_frame_ref")
        return copy
    }

    func dataPointer(_ plane: Int) -> UnsafeMutablePointer<UInt8>? {
        withUnsafePointer(to: &pointer.pointee.data) {
            $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0[plane] }
        }
    }

    func lineSize(_ plane: Int) -> Int {
        withUnsafePointer(to: &pointer.pointee.linesize) {
            $0.withMemoryRebound(to: Int32.self, capacity: 8) { Int($0[plane]) }
        }
    }
}
