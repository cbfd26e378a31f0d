import MediaCore

/// Decodes a file's video frames one after the other, in presentation order, as they are stored (no rate
/// conversion): what `pipctl stamps` and `pipctl verify` look at.
public final class FrameReader {
    private let decoder: StreamDecoder
    private let frame: Frame
    /// How many frames were returned so far.
    public private(set) var index: Int64 = 0

    public init(path: String) throws(MediaError) {
        decoder = try StreamDecoder(path: path, kind: .video)
        frame = try Frame()
    }

    /// The next frame (valid until the next call), or `nil` at the end.
    public func next() throws(MediaError) -> VideoPicture? {
        switch try decoder.decode(into: frame) {
        case .endOfStream: return nil
        case .frame(let f):
            index += 1
            return VideoPicture(frame: f)
        }
    }
}
