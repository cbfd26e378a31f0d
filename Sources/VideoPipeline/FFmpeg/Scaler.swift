import CFFmpeg
import MediaCore

/// Owns a libswscale context (`SwsContext`) converting pictures of one size and format to yuv420p (or another
/// destination format: RGB for a PNG) of another; freed only in `deinit`.
///
/// With `threads` other than 1, libswscale cuts each picture into horizontal slices scaled on threads of its own
/// (FFmpeg 5's slice threads; 0 lets it choose one per CPU). Only `scaleFrame` uses them: `sws_scale` runs the
/// first slice context alone. Every output row is computed from the same source rows and coefficients either way,
/// so the pictures are the same to the bit (ScalerThreadsTests).
final class Scaler {
    let pointer: OpaquePointer
    let source: PixelSize
    let destination: PixelSize

    /// - Throws: FFmpeg errors naming `sws_alloc_context`, `av_opt_set_int` (with the option), `sws_init_context`
    ///   (a conversion libswscale cannot do) or `sws_setColorspaceDetails`.
    init(source: PixelSize, format: Int32, fullRange: Bool, destination: PixelSize,
         destinationFormat: AVPixelFormat = AV_PIX_FMT_YUV420P, threads: Int = 1) throws(MediaError) {
        pointer = try allocated(sws_alloc_context(), "sws_alloc_context")
        self.source = source
        self.destination = destination
        // What `sws_getContext` sets, plus the thread count, which only the options can carry.
        let options: [(String, Int64)] = [
            ("srcw", Int64(source.width)), ("srch", Int64(source.height)), ("src_format", Int64(format)),
            ("dstw", Int64(destination.width)), ("dsth", Int64(destination.height)),
            ("dst_format", Int64(destinationFormat.rawValue)), ("sws_flags", Int64(SWS_BICUBIC)), ("threads", Int64(threads)),
        ]
        for (name, value) in options {
            try check(av_opt_set_int(UnsafeMutableRawPointer(pointer), name, value, 0), "av_opt_set_int(\(name))")
        }
        let initialized = sws_init_context(pointer, nil, nil)
        guard initialized >= 0 else {
            throw .ffmpeg(function: "sws_init_context", code: initialized,
                          message: "cannot convert \(source) to \(destination): \(ffmpegMessage(initialized))", path: nil)
        }
        if fullRange {
            // Full-range input to limited-range output: tell swscale, or blacks and whites come out wrong (it passes
            // the details on to each slice context).
            let coefficients = sws_getCoefficients(SWS_CS_DEFAULT)
            try check(sws_setColorspaceDetails(pointer, coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16),
                      "sws_setColorspaceDetails")
        }
    }

    deinit { sws_freeContext(pointer) }

    /// Scales all of `frame` into all of `destination`, a yuv420p frame of this scaler's destination size.
    ///
    /// libswscale may write past a row's last pixel when the width is not a multiple of 16, which is why the
    /// destination is a frame of exactly the wanted size, with its own line padding to absorb that, and never a
    /// rectangle inside a larger picture: there the overrun lands on the pixels beside the rectangle.
    func scale(_ frame: Frame, into destination: Frame) throws(MediaError) {
        var planes: [UnsafeMutablePointer<UInt8>?] = [destination.dataPointer(0), destination.dataPointer(1), destination.dataPointer(2), nil]
        var strides: [Int32] = [Int32(destination.lineSize(0)), Int32(destination.lineSize(1)), Int32(destination.lineSize(2)), 0]
        try frame.scale(with: pointer, into: &planes, strides: &strides)
    }

    /// Scales all of `frame` into all of `destination` (a frame of this scaler's destination size and format, with
    /// its own buffers) with `sws_scale_frame`, on the slice threads when there are some.
    func scaleFrame(_ frame: Frame, into destination: Frame) throws(MediaError) {
        precondition(frame.size == source && destination.size == self.destination, "a \(frame.size) picture for a \(source) scaler")
        try check(sws_scale_frame(pointer, destination.pointer, frame.pointer), "sws_scale_frame")
    }
}

extension Frame {
    /// Runs libswscale's `sws_scale` with `context` on the whole of this frame, into `planes` (`strides` bytes a
    /// row): the one place a frame's own plane pointers are handed to libswscale.
    func scale(with context: OpaquePointer, into planes: inout [UnsafeMutablePointer<UInt8>?], strides: inout [Int32]) throws(MediaError) {
        let rows = withUnsafePointer(to: &pointer.pointee.data) { data in
            withUnsafePointer(to: &pointer.pointee.linesize) { lines in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { source in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                        sws_scale(context, source, sourceStrides, 0, Int32(height), &planes, &strides)
                    }
                }
            }
        }
        try check(rows, "sws_scale")
    }
}

extension Frame {
    /// The pixel format as libswscale should read it, and whether its range is full (JPEG) rather than limited:
    /// yuvj420p is yuv420p with full range, said explicitly instead of through the deprecated format.
    var scalingFormat: (format: Int32, fullRange: Bool) {
        let format = pointer.pointee.format
        let isJ = format == AV_PIX_FMT_YUVJ420P.rawValue
        return (isJ ? AV_PIX_FMT_YUV420P.rawValue : format, isJ || pointer.pointee.color_range == AVCOL_RANGE_JPEG)
    }

    /// The shape of one pixel, when the frame says.
    var sampleAspectRatio: Rational? { pointer.pointee.sample_aspect_ratio.rational }

    /// Whether the buffers may be written without disturbing another reference (an encoder holding the picture).
    var isWritable: Bool { av_frame_is_writable(pointer) != 0 }

    /// The duration of the packet the frame came from, in its stream's time base; `nil` when unknown.
    var packetDuration: Int64? { pointer.pointee.pkt_duration > 0 ? pointer.pointee.pkt_duration : nil }
}
