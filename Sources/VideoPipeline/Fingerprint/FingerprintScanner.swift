import MediaCore

/// Decodes a file's video once, in presentation order, and computes the `FrameSignature` of each frame (or of
/// chosen rectangles of it): what `pipctl verify --sources` compares.
///
/// Streaming: one decoded frame at a time, multithreaded decoding, and only the 32x32 signatures are kept (4 KiB a
/// frame and rectangle), so a long file costs little memory.
public final class FingerprintScanner {
    private let decoder: StreamDecoder
    private let frame: Frame
    /// Shrinking scalers by source size (a render has few picture rectangles).
    private var shrinkers: [PixelSize: LumaScaler] = [:]
    /// The full-size gray conversion for frames whose luma is not plain 8-bit, with its buffer.
    private var converter: LumaScaler?
    private var gray: [UInt8] = []
    private var thumbnail = [UInt8](repeating: 0, count: FrameSignature.side * FrameSignature.side)
    private var turnedThumbnail = [UInt8](repeating: 0, count: FrameSignature.side * FrameSignature.side)
    /// How the stream's display matrix turns its pictures: a whole picture's signature is taken upright, as the
    /// renderer draws it, so a phone clip stored sideways matches its upright render.
    private let orientation: DisplayOrientation

    /// - Parameter threads: decoding threads (0: FFmpeg's choice).
    public init(path: String, threads: Int = 0) throws(MediaError) {
        decoder = try StreamDecoder(path: path, kind: .video, threads: threads)
        frame = try Frame()
        orientation = decoder.input.displayOrientation(ofStream: decoder.streamIndex)
    }

    /// Signatures of every frame below `limit` (all when `nil`), one per rectangle `regions(n)` names for frame
    /// `n` (`nil`: the whole picture, upright; a rectangle, in the decoded picture's pixels, is clipped to it).
    public func scan(limit: Int64? = nil, regions: (Int64) -> [PixelRect?] = { _ in [nil] }) throws(MediaError) -> [[FrameSignature]] {
        var result: [[FrameSignature]] = []
        var n: Int64 = 0
        while limit.map({ n < $0 }) ?? true {
            guard case .frame(let f) = try decoder.decode(into: frame) else { break }
            var row: [FrameSignature] = []
            for region in regions(n) { row.append(try signature(of: f, in: region)) }
            result.append(row)
            n += 1
        }
        return result
    }

    /// The whole-picture signature of each frame of a source, with when each starts (`SourceFrames`, read as the
    /// renderer reads it), decoding only as far as the ticks up to `time` (on the source's clock) reach, and
    /// `extra` frames beyond (every frame when `time` is `nil`).
    ///
    /// One decode gives both, so `verify --sources` predicts which frame a tick shows from real timestamps (VFR,
    /// late starts, Opus pre-roll) without reading the source twice.
    /// - Parameter outputRate: the render's rate, the nominal rate of a stream that declares none.
    public func scanSource(outputRate: FrameRate, through time: MediaTime?, extra: Int) throws(MediaError)
        -> (signatures: [FrameSignature], frames: SourceFrames) {
        let clock = FrameClock(decoder: decoder, fallbackRate: outputRate)
        var signatures: [FrameSignature] = []
        var frames = SourceFrames(firstStamp: nil)
        var remaining: Int?
        while remaining.map({ $0 > 0 }) ?? true {
            guard case .frame(let f) = try decoder.decode(into: frame) else { break }
            signatures.append(try signature(of: f, in: nil))
            frames.append(clock.start(of: f, after: frames.starts.last))
            if let r = remaining {
                remaining = r - 1
            } else if let time, frames.decides(through: time) {
                remaining = extra
            }
        }
        guard !signatures.isEmpty else { throw .noFrames(path: decoder.path) }
        return (signatures, frames)
    }

    /// The signature of `rect` of the frame (clipped to it); a rectangle with nothing inside is flat. The whole
    /// picture (`rect` `nil`) is turned upright by the stream's orientation: the 32x32 thumbnail is turned, which
    /// is the same as shrinking the turned picture, and cheap.
    func signature(of frame: Frame, in rect: PixelRect?) throws(MediaError) -> FrameSignature {
        let whole = PixelRect(size: frame.size)
        let r = rect.map { clip($0, to: whole) } ?? whole
        guard r.width > 0, r.height > 0 else {
            return FrameSignature(thumbnail: [UInt8](repeating: 0, count: thumbnail.count))
        }
        let side = FrameSignature.side
        let shrinker: LumaScaler
        if let known = shrinkers[r.size] { shrinker = known } else {
            shrinker = try LumaScaler.shrinking(r.size, to: PixelSize(width: side, height: side))
            shrinkers[r.size] = shrinker
        }
        if frame.hasPlainLuma, let plane = frame.dataPointer(0) {
            let stride = frame.lineSize(0)
            try thumbnail.withUnsafeMutableBufferPointer { out throws(MediaError) in
                try shrinker.scale(gray: UnsafePointer(plane) + r.y * stride + r.x, stride: stride,
                                   into: out.baseAddress!, outputStride: side)
            }
        } else {
            // 10/12-bit, RGB and other layouts: to 8-bit gray at full size first, then the same shrinking.
            if converter?.converts(frame) != true {
                converter = try LumaScaler.converting(frame)
                gray = [UInt8](repeating: 0, count: frame.width * frame.height)
            }
            let c = converter!, width = frame.width
            try gray.withUnsafeMutableBufferPointer { buffer throws(MediaError) in
                try c.scale(frame, into: buffer.baseAddress!, stride: width)
                try thumbnail.withUnsafeMutableBufferPointer { out throws(MediaError) in
                    try shrinker.scale(gray: UnsafePointer(buffer.baseAddress!) + r.y * width + r.x, stride: width,
                                       into: out.baseAddress!, outputStride: side)
                }
            }
        }
        guard rect == nil, orientation != .upright else { return FrameSignature(thumbnail: thumbnail) }
        let square = PixelSize(width: side, height: side)
        for y in 0..<side {
            for x in 0..<side {
                let s = orientation.source(x: x, y: y, shown: square)
                turnedThumbnail[y * side + x] = thumbnail[s.y * side + s.x]
            }
        }
        return FrameSignature(thumbnail: turnedThumbnail)
    }

    private func clip(_ r: PixelRect, to bounds: PixelRect) -> PixelRect {
        let x0 = max(r.x, bounds.x), y0 = max(r.y, bounds.y)
        let x1 = min(r.maxX, bounds.maxX), y1 = min(r.maxY, bounds.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
