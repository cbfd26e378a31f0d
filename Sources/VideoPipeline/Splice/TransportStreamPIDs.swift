import MediaCore

/// The MPEG-TS PIDs of a rendition's pictures and sound, as its own segments carry them. What the server writes
/// into that rendition's stream (the pieces of a cut, the ads conditioned for it) carries them too: a player reads a
/// stream's PIDs on from segment to segment, and the muxer's own numbering (0x0100, 0x0101) would be streams it has
/// not seen where a packager numbered them otherwise (AWS Elemental's 0x01E1 and 0x01E2, say).
public struct TransportStreamPIDs: Sendable, Hashable, Codable, CustomStringConvertible {
    public var video: Int32
    public var audio: Int32?

    public init(video: Int32, audio: Int32?) {
        self.video = video
        self.audio = audio
    }

    /// The PIDs of `input`'s `video` and `audio` streams; nil unless it is MPEG-TS with PIDs a muxer can be given,
    /// distinct from each other.
    init?(_ input: InputFile, video: Int, audio: Int?) {
        guard let v = input.transportStreamPID(ofStream: video) else { return nil }
        let a = audio.flatMap { input.transportStreamPID(ofStream: $0) }
        guard audio == nil || (a != nil && a != v) else { return nil }
        self.init(video: v, audio: a)
    }

    /// The PIDs of the first video stream and first sound stream of the MPEG-TS file at `path`; nil for another
    /// container.
    public static func of(_ path: String) throws(MediaError) -> TransportStreamPIDs? {
        let input = try InputFile(path: path)
        guard let video = input.bestStream(.video) else { return nil }
        return TransportStreamPIDs(input, video: video, audio: input.bestStream(.audio))
    }

    public var description: String { "\(video),\(audio.map(String.init) ?? "-")" }
}
