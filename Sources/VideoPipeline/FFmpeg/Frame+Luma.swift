import CFFmpeg
import MediaCore

extension Frame {
    /// How the picture's luma is stored, from its pixel format's descriptor.
    enum LumaLayout: Equatable {
        /// One byte per pixel in plane 0 (yuv420p, yuv422p, yuv444p, nv12, gray, their full-range forms).
        case bytes
        /// One native-endian 16-bit word per pixel in plane 0, holding `bits` significant bits shifted left by
        /// `shift` (yuv420p10le, yuv422p10le, yuv444p12le; p010le has a shift of 6).
        case words(bits: Int, shift: Int)
        /// Anything else (RGB, packed YUV, big-endian words, palettes): converted by libswscale.
        case other
    }

    var lumaLayout: LumaLayout {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat) else { return .other }
        let unusable = UInt64(AV_PIX_FMT_FLAG_RGB) | UInt64(AV_PIX_FMT_FLAG_PAL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM)
            | UInt64(AV_PIX_FMT_FLAG_HWACCEL) | UInt64(AV_PIX_FMT_FLAG_BE)
        guard descriptor.pointee.flags & unusable == 0 else { return .other }
        let luma = descriptor.pointee.comp.0
        guard luma.plane == 0, luma.offset == 0 else { return .other }
        if luma.depth == 8, luma.step == 1, luma.shift == 0 { return .bytes }
        if (9...16).contains(luma.depth), luma.step == 2 { return .words(bits: Int(luma.depth), shift: Int(luma.shift)) }
        return .other
    }

    /// Calls `body` with the picture's luma as 8-bit samples, or returns `nil` when it cannot be converted.
    ///
    /// Stamps are read from 8-bit luma (`StampReader`), while sources come as 10- and 12-bit, 4:2:2 and 4:4:4:
    /// 8-bit planar luma is lent as it is; deeper luma keeps its top 8 bits (an exact shift, the same level on
    /// the 8-bit scale: 940 of 1023 is 235); any other layout goes through libswscale to gray first.
    func withLuma8<Result>(_ body: (PlaneView) -> Result) -> Result? {
        guard width > 0, height > 0, let data = dataPointer(0) else { return nil }
        switch lumaLayout {
        case .bytes:
            return body(planeView(0))
        case .words(let bits, let shift):
            var bytes = [UInt8](repeating: 0, count: width * height)
            let stride = lineSize(0), w = width
            let drop = UInt16(shift + bits - 8)
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt16.self)
                for x in 0..<w { bytes[y * w + x] = UInt8(truncatingIfNeeded: min(255, row[x] >> drop)) }
            }
            return bytes.withUnsafeMutableBufferPointer { buffer in
                body(PlaneView(base: buffer.baseAddress!, stride: w, width: w, height: height))
            }
        case .other:
            // libswscale straight to gray, as the fingerprints read luma (`LumaScaler`).
            var bytes = [UInt8](repeating: 0, count: width * height)
            let w = width
            return bytes.withUnsafeMutableBufferPointer { buffer -> Result? in
                guard (try? LumaScaler.converting(self).scale(self, into: buffer.baseAddress!, stride: w)) != nil else { return nil }
                return body(PlaneView(base: buffer.baseAddress!, stride: w, width: w, height: height))
            }
        }
    }
}
