import MediaCore

/// One output frame as the stage writes it, lent to an observer (`OutputStage.frameObserver`) for the duration of
/// its call: the composed picture's planes (yuv420p, BT.601 limited range) and the frame's samples, exactly what
/// the encoder gets. `play --show` draws and plays it. Nothing here may be kept past the call: the next frame is
/// drawn into the same memory.
public struct OutputFrameView {
    /// One plane of the picture: `rows` rows of `stride` bytes (the last row's padding included).
    public struct Plane {
        public let bytes: UnsafeRawBufferPointer
        public let stride: Int
    }

    /// The output frame's number.
    public let frame: Int64
    /// The picture's size.
    public let size: PixelSize
    /// Y, U and V, each `stride × rows`; `nil` when the frame's picture is copied later, undecoded (passthrough).
    public let planes: (y: Plane, u: Plane, v: Plane)?
    /// The frame's samples, one buffer per channel (planar float), `[A(n), A(n+1))` of the output's sound.
    public let samples: [UnsafeBufferPointer<Float>]

    init(frame: Int64, picture: VideoPicture?, sound: AudioBuffer) {
        self.frame = frame
        size = picture?.size ?? PixelSize(width: 0, height: 0)
        planes = picture.flatMap { picture in
            let frame = picture.frame
            func plane(_ index: Int, rows: Int) -> Plane? {
                guard let data = frame.dataPointer(index) else { return nil }
                let stride = frame.lineSize(index)
                return Plane(bytes: UnsafeRawBufferPointer(start: data, count: stride * rows), stride: stride)
            }
            let chromaRows = (picture.size.height + 1) / 2
            guard let y = plane(0, rows: picture.size.height), let u = plane(1, rows: chromaRows), let v = plane(2, rows: chromaRows) else {
                return nil
            }
            return (y, u, v)
        }
        samples = (0..<sound.channels).map { UnsafeBufferPointer(start: sound.plane($0), count: sound.count) }
    }
}
