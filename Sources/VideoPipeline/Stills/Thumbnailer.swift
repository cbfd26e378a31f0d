import MediaCore

/// Decodes a file's video and keeps small JPEG thumbnails of the frames asked for.
///
/// Frames are counted in presentation order as `FrameReader` counts them, so index `n` of a render is its output
/// frame `n`. Given the file's frame rate, a frame far ahead (more than `seekDistance` frames) is reached by seeking
/// to the keyframe before it rather than decoding everything between: the index of each frame is then its
/// presentation time from the first frame's, times the rate (a render's frames are stamped exactly `n / F`).
/// Only the frames asked for are scaled and encoded.
public enum Thumbnailer {
    /// Frames ahead past which a seek is cheaper than decoding on (a few of x264's default 250-frame GOPs apart).
    public static let seekDistance: Int64 = 300

    /// Thumbnails of `frames` (indexes from 0; those past the file's end are left out), each `width` pixels wide
    /// (even) at the picture's shape, in frame order.
    /// - Parameter frameRate: the file's constant frame rate, which allows seeking; without it every frame up to
    ///   the last one asked for is decoded.
    /// - Parameter crops: the part of a frame to show (a device render's display, without its bezel), by frame;
    ///   a rectangle not inside the picture, or smaller than 2x2, is ignored and the whole frame shown.
    /// - Throws: `MediaError` when the file cannot be decoded or the encoder fails (naming the C function);
    ///   `.interrupted` when `control` says so.
    public static func thumbnails(of path: String, frames: Set<Int64>, width: Int, frameRate: FrameRate? = nil, quality: Int = 6,
                                  crops: [Int64: PixelRect] = [:], control: JobControl = .none) throws(MediaError) -> [Thumbnail] {
        let wanted = frames.filter { $0 >= 0 }.sorted()
        guard let last = wanted.last else { return [] }
        let decoder = try StreamDecoder(path: path, kind: .video)
        let decoded = try Frame()
        var encoder: ImageEncoder?
        var scaler: (key: ScalerKey, scaler: Scaler)?
        var result: [Thumbnail] = []
        var next = 0
        var index: Int64 = -1
        var origin: MediaTime?
        // Each wanted frame is sought at most once: a GOP longer than the distance then decodes on from its keyframe.
        var soughtFor: Int64?
        while next < wanted.count {
            if control.isCancelled() { throw .interrupted }
            if let frameRate, let origin, wanted[next] - index > seekDistance, soughtFor != wanted[next] {
                soughtFor = wanted[next]
                // A little before the frame, so that a keyframe stamped a hair late still lies at or before it.
                try decoder.seek(to: origin + (frameRate.time(ofFrame: wanted[next]) - .zero) - MediaDuration(seconds: Rational(1, 1000)))
                index = -1
            }
            guard case .frame(let frame) = try decoder.decode(into: decoded) else { break }
            let time = decoder.presentationTime(of: frame)
            if index < 0, origin == nil { origin = time }
            if let frameRate, let origin, let time {
                index = ((time - origin).seconds * frameRate.perSecond + Rational(1, 2)).floor
            } else {
                index += 1
            }
            while next < wanted.count, wanted[next] < index { next += 1 }
            guard next < wanted.count, wanted[next] == index, index <= last else { continue }
            next += 1
            var picture = frame
            if let crop = crops[index], crop.width >= 2, crop.height >= 2, crop.x >= 0, crop.y >= 0,
               crop.maxX <= frame.width, crop.maxY <= frame.height, crop.size != frame.size {
                picture = try frame.cropped(to: crop)
            }
            let (format, fullRange) = picture.scalingFormat
            let height = max(2, (picture.height * width / max(1, picture.width) + 1) / 2 * 2)
            let size = PixelSize(width: max(2, width / 2 * 2), height: height)
            let key = ScalerKey(source: picture.size, format: format, fullRange: fullRange, destination: size)
            if scaler?.key != key {
                scaler = (key, try Scaler(source: picture.size, format: format, fullRange: fullRange, destination: size))
            }
            if encoder?.size != size { encoder = try ImageEncoder(kind: .jpeg(quality: quality), size: size) }
            let small = try Frame.picture(size)
            try scaler!.scaler.scale(picture, into: small)
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
