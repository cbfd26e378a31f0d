import MediaCore

extension Compositor {
    /// The canvas as the bytes of a PNG file (RGB, converted by libswscale, encoded by FFmpeg's `png` encoder).
    /// - Throws: FFmpeg errors naming the C function that failed.
    public func pngData() throws(MediaError) -> [UInt8] {
        try ImageEncoder(kind: .png, size: size).encode(canvas)
    }
}
