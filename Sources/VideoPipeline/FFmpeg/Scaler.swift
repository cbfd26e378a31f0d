import CFFmpeg
import MediaCore

/// Owns a libswscale context (`SwsContext`) converting pictures of one size and format to yuv420p of another;
/// freed only in `deinit`.
final class Scaler {
    let pointer: OpaquePointer

    /// - Throws: FFmpeg errors naming `sws_getContext` (a conversion libswscale cannot do) or
    ///   `sws_setColorspaceDetails`.
    init(source: PixelSize, format: Int32, fullRange: Bool, destination: PixelSize) throws(MediaError) {
        guard let context = sws_getContext(Int32(source.width), Int32(source.height), AVPixelFormat(rawValue: format),
                                           Int32(destination.width), Int32(destination.height), AV_PIX_FMT_YUV420P,
                                           SWS_BICUBIC, nil, nil, nil) else {
            throw .ffmpeg(function: "sws_getContext", code: cffmpeg_averror(EINVAL),
                          message: "cannot convert \(source) to \(destination)", path: nil)
        }
        pointer = context
        if fullRange {
            // Full-range input to limited-range output: tell swscale, or blacks and whites come out wrong.
            let coefficients = sws_getCoefficients(SWS_CS_DEFAULT)
            try check(sws_setColorspaceDetails(pointer, coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16),
                      "sws_setColorspaceDetails")
        }
    }

    deinit { sws_freeContext(pointer) }

    /// Scales all of `frame` into `rect` of `canvas` (a yuv420p frame; `rect` has even coordinates).
    func scale(_ frame: Frame, into canvas: Frame, at rect: PixelRect) throws(MediaError) {
        var destination: [UnsafeMutablePointer<UInt8>?] = [
            canvas.dataPointer(0).map { $0 + rect.y * canvas.lineSize(0) + rect.x },
            canvas.dataPointer(1).map { $0 + rect.y / 2 * canvas.lineSize(1) + rect.x / 2 },
            canvas.dataPointer(2).map { $0 + rect.y / 2 * canvas.lineSize(2) + rect.x / 2 },
            nil,
        ]
        var strides: [Int32] = [Int32(canvas.lineSize(0)), Int32(canvas.lineSize(1)), Int32(canvas.lineSize(2)), 0]
        let height = withUnsafePointer(to: &frame.pointer.pointee.data) { data in
            withUnsafePointer(to: &frame.pointer.pointee.linesize) { lines in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                        sws_scale(pointer, src, srcStride, 0, Int32(frame.height), &destination, &strides)
                    }
                }
            }
        }
        try check(height, "sws_scale")
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
