import MediaCore

/// Decodes a file's video once, start to end, and keeps small JPEG thumbnails of the frames asked for.
///
/// Frames are counted in presentation order as `FrameReader` counts them, so index `n` of a render is its output
/// frame `n`. Only the frames asked for are scaled and encoded; the rest are decoded and dropped.
public enum Thumbnailer {
    /// Thumbnails of `frames` (indexes from 0; those past the file's end are left out), each `width` pixels wide
    /// (even) at the picture's shape, in frame order.
    /// - Throws: `MediaError` when the file cannot be decoded or the encoder fails (naming the C function);
    ///   `.interrupted` when `control` says so.
    public static func thumbnails(of path: String, frames: Set<Int64>, width: Int, quality: Int = 6,
                                  control: JobControl = .none) throws(MediaError) -> [Thumbnail] {
        guard !frames.isEmpty else { return [] }
        let last = frames.max()!
        let decoder = try StreamDecoder(path: path, kind: .video)
        let decoded = try Frame()
        var encoder: ImageEncoder?
        var scaler: (key: ScalerKey, scaler: Scaler)?
        var result: [Thumbnail] = []
        var index: Int64 = 0
        while index <= last {
            if control.isCancelled() { throw .interrupted }
            guard case .frame(let frame) = try decoder.decode(into: decoded) else { break }
            defer { index += 1 }
            guard frames.contains(index) else { continue }
            let (format, fullRange) = frame.scalingFormat
            let height = max(2, (frame.height * width / max(1, frame.width) + 1) / 2 * 2)
            let size = PixelSize(width: max(2, width / 2 * 2), height: height)
            let key = ScalerKey(source: frame.size, format: format, fullRange: fullRange, destination: size)
            if scaler?.key != key {
                scaler = (key, try Scaler(source: frame.size, format: format, fullRange: fullRange, destination: size))
            }
            if encoder?.size != size { encoder = try ImageEncoder(kind: .jpeg(quality: quality), size: size) }
            let small = try Frame.picture(size)
            try scaler!.scaler.scale(frame, into: small)
            result.append(Thumbnail(frame: index, jpeg: try encoder!.encode(small), picture: small))
        }
        return result
    }

    private struct ScalerKey: Equatable {
        var source: PixelSize
        var format: Int32
        var fullRange: Bool
        var destination: PixelSize
    }
}
