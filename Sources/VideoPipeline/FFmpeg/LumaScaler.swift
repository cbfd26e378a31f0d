import CFFmpeg
import MediaCore

/// Owns a libswscale context that turns a picture into 8-bit gray (`AV_PIX_FMT_GRAY8`) of another size; freed
/// only in `deinit`.
///
/// Fingerprints read luma only: one context brings any pixel format (10-bit, RGB, 4:4:4) to full-size gray, and
/// another shrinks a gray rectangle to a thumbnail with the area filter (an exact box average, the most robust
/// choice for heavy shrinking).
final class LumaScaler {
    let pointer: OpaquePointer
    let source: PixelSize
    let sourceFormat: Int32
    let destination: PixelSize

    /// - Throws: FFmpeg errors naming `sws_getContext` (a conversion libswscale cannot do).
    init(source: PixelSize, format: Int32, destination: PixelSize, area: Bool) throws(MediaError) {
        guard let context = sws_getContext(Int32(source.width), Int32(source.height), AVPixelFormat(rawValue: format),
                                           Int32(destination.width), Int32(destination.height), AV_PIX_FMT_GRAY8,
                                           area ? SWS_AREA : SWS_POINT, nil, nil, nil) else {
            throw .ffmpeg(function: "sws_getContext", code: cffmpeg_averror(EINVAL),
                          message: "cannot convert \(source) to gray \(destination)", path: nil)
        }
        pointer = context
        self.source = source
        sourceFormat = format
        self.destination = destination
    }

    /// A scaler that converts whole frames like `frame` (its size and pixel format) to gray of the same size.
    static func converting(_ frame: Frame) throws(MediaError) -> LumaScaler {
        try LumaScaler(source: frame.size, format: frame.pointer.pointee.format, destination: frame.size, area: false)
    }

    /// Whether this scaler converts whole frames like `frame`.
    func converts(_ frame: Frame) -> Bool {
        source == frame.size && sourceFormat == frame.pointer.pointee.format
    }

    /// A scaler that shrinks gray pictures of `size` to `thumbnail` with the area filter.
    static func shrinking(_ size: PixelSize, to thumbnail: PixelSize) throws(MediaError) -> LumaScaler {
        try LumaScaler(source: size, format: AV_PIX_FMT_GRAY8.rawValue, destination: thumbnail, area: true)
    }

    deinit { sws_freeContext(pointer) }

    /// Converts the whole of `frame` (in the format this scaler was made for) into `output` (gray, `stride` bytes
    /// a row).
    func scale(_ frame: Frame, into output: UnsafeMutablePointer<UInt8>, stride: Int) throws(MediaError) {
        var destination: [UnsafeMutablePointer<UInt8>?] = [output, nil, nil, nil]
        var strides: [Int32] = [Int32(stride), 0, 0, 0]
        try frame.scale(with: pointer, into: &destination, strides: &strides)
    }

    /// Shrinks the gray picture at `gray` (`stride` bytes a row, this scaler's source size) into `output`.
    func scale(gray: UnsafePointer<UInt8>, stride: Int, into output: UnsafeMutablePointer<UInt8>, outputStride: Int) throws(MediaError) {
        var source: [UnsafePointer<UInt8>?] = [gray, nil, nil, nil]
        var sourceStrides: [Int32] = [Int32(stride), 0, 0, 0]
        var destination: [UnsafeMutablePointer<UInt8>?] = [output, nil, nil, nil]
        var strides: [Int32] = [Int32(outputStride), 0, 0, 0]
        try check(sws_scale(pointer, &source, &sourceStrides, 0, Int32(self.source.height), &destination, &strides), "sws_scale")
    }
}

extension Frame {
    /// Whether plane 0 is 8-bit luma, one byte a pixel (yuv*p, yuvj*p, nv12/nv21, gray): then it can be read as a
    /// gray picture as it is, without a conversion.
    var hasPlainLuma: Bool {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat) else { return false }
        let d = descriptor.pointee
        let isRGB = d.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        let isPalette = d.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
        return !isRGB && !isPalette && d.comp.0.plane == 0 && d.comp.0.depth == 8 && d.comp.0.step == 1
            && d.comp.0.offset == 0 && d.comp.0.shift == 0 && d.log2_chroma_w <= 2
    }
}
