/// One problem `pipctl verify` found, as typed facts (`detail`: one case per kind of problem, with the frames, names
/// and values it is about). From them follow what kind of problem it is (`code`, stable and documented in
/// docs/VERIFY.md), what it is about (`subject`), and its sentence (`text`, the report's line), which is written only
/// at the edge (`VerifyFinding+Text.swift`), never where the problem is found. `verify --json` writes each with
/// its code, subject, sentence and detail; the text report writes only the sentence.
public struct VerifyFinding: Hashable, Sendable, CustomStringConvertible {
    /// One kind of problem, by a stable name: scripts key on these, never on the sentence.
    public enum Code: String, Codable, Hashable, Sendable, CaseIterable {
        /// The output's frame count is not the timeline's (or the golden's).
        case outputFrameCount = "output.frameCount"
        /// The output's size or rate is not the golden's.
        case outputFormat = "output.format"
        /// A segment's source appears on screen earlier or later than its first frame, or starts at another frame.
        case framesBoundary = "frames.boundary"
        /// Inside a segment, frames of its source are lost, repeated or shifted.
        case framesOffset = "frames.offset"
        /// Frames show another source (or none) than the segment's.
        case framesSource = "frames.source"
        /// The content resumes at another tick than where it paused, with no seek logged.
        case contentDiscontinuity = "content.discontinuity"
        /// A screen layer breaks a layout rule (outside its scene, its viewport, the safe area…).
        case layoutRule = "layout.rule"
        /// A screen layer is not where, or not what, the timeline says, in the pixels.
        case layerMismatch = "layer.mismatch"
        /// Another scene's player does not show the frame its layer gives.
        case playerMismatch = "player.mismatch"
        /// The picture-in-picture windows differ from the golden's.
        case goldenPictureInPicture = "golden.pip"
        /// The screen layers differ from the golden's.
        case goldenLayers = "golden.layers"
        /// The event log differs from the golden's.
        case goldenEvents = "golden.events"
        /// The events could not be compared with the golden's (`--expect-only events` asked for them).
        case goldenEventsUnavailable = "golden.eventsUnavailable"
        /// The output has no sound.
        case audioMissing = "audio.missing"
        /// A change of sound (or the sound of a segment) is off its video boundary by more than a frame.
        case audioOffset = "audio.offset"
        /// A segment sounds like another source than its own.
        case audioSource = "audio.source"
        /// An ad's integrated loudness is off its target by more than 1 LU.
        case loudnessLevel = "loudness.level"
        /// An ad's true peak is over the ceiling.
        case loudnessTruePeak = "loudness.truePeak"
        /// An HLS segment does not last a whole number of frames.
        case hlsSegmentDuration = "hls.segmentDuration"
        /// The HLS playlist does not last as many frames as the render.
        case hlsLength = "hls.length"
        /// No HLS segment starts where a break starts or ends.
        case hlsBreakBoundary = "hls.breakBoundary"
        /// A break's `EXT-X-CUE-OUT` is missing or wrong.
        case hlsCueOut = "hls.cueOut"
        /// A break's `EXT-X-CUE-IN` is missing.
        case hlsCueIn = "hls.cueIn"
        /// A break's `EXT-X-DATERANGE` is missing, misplaced, or has a wrong `START-DATE` or `DURATION`.
        case hlsDateRange = "hls.dateRange"
        /// A break's `SCTE35-OUT` or `SCTE35-IN` is missing or not the splice it should be.
        case hlsSCTE35 = "hls.scte35"
        /// The playlist marks another number of breaks than the render has.
        case hlsMarkerCount = "hls.markerCount"
    }

    /// What a finding is about.
    public enum Subject: Hashable, Sendable {
        /// The render as a whole (its frame count, size, sound, playlist).
        case render
        /// Output frames `first` to `last`, both included (one frame: `first == last`).
        case frames(first: Int64, last: Int64)
        /// A screen layer, by the name the report gives it, at output frame `frame`.
        case layer(frame: Int64, name: String)
        /// An ad (loudness), by the name the report gives it.
        case ad(String)
        /// A break (`index`, the timeline's) of an HLS render.
        case adBreak(Int)
        /// An HLS media segment, by its index in the playlist.
        case playlistSegment(Int)
        /// A golden comparison's first difference, on `aspect`.
        case golden(GoldenAspect)

        /// Output frame `n`.
        public static func frame(_ n: Int64) -> Subject { .frames(first: n, last: n) }
    }

    /// What was found, as typed facts.
    public var detail: Detail

    public init(_ detail: Detail) {
        self.detail = detail
    }

    /// The kind of problem: the detail's.
    public var code: Code { detail.code }
    /// What the problem is about: the detail's.
    public var subject: Subject { detail.subject }
    /// The sentence, as the text report writes it.
    public var text: String { detail.text }

    public var description: String { text }
}

/// `{"code", "subject", "text", "detail"}`: the code, subject and sentence as `verify --json` always wrote them, and the
/// typed facts they come from. Read back from its detail (a code that is not the detail's is refused).
extension VerifyFinding: Codable {
    enum CodingKeys: String, CodingKey { case code, subject, text, detail }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        detail = try c.decode(Detail.self, forKey: .detail)
        if let code = try c.decodeIfPresent(Code.self, forKey: .code), code != detail.code {
            throw DecodingError.dataCorruptedError(forKey: .code, in: c,
                                                   debugDescription: "\(code.rawValue) is not the code of a \(detail.kind.rawValue) finding")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(subject, forKey: .subject)
        try c.encode(text, forKey: .text)
        try c.encode(detail, forKey: .detail)
    }
}

extension VerifyFinding.Subject: Codable {
    enum CodingKeys: String, CodingKey { case kind, first, last, frame, name, index, aspect }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "render": self = .render
        case "frames": self = .frames(first: try c.decode(Int64.self, forKey: .first), last: try c.decode(Int64.self, forKey: .last))
        case "layer": self = .layer(frame: try c.decode(Int64.self, forKey: .frame), name: try c.decode(String.self, forKey: .name))
        case "ad": self = .ad(try c.decode(String.self, forKey: .name))
        case "break": self = .adBreak(try c.decode(Int.self, forKey: .index))
        case "segment": self = .playlistSegment(try c.decode(Int.self, forKey: .index))
        case "golden": self = .golden(try c.decode(GoldenAspect.self, forKey: .aspect))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "not a kind of subject: \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .render:
            try c.encode("render", forKey: .kind)
        case .frames(let first, let last):
            try c.encode("frames", forKey: .kind)
            try c.encode(first, forKey: .first)
            try c.encode(last, forKey: .last)
        case .layer(let frame, let name):
            try c.encode("layer", forKey: .kind)
            try c.encode(frame, forKey: .frame)
            try c.encode(name, forKey: .name)
        case .ad(let name):
            try c.encode("ad", forKey: .kind)
            try c.encode(name, forKey: .name)
        case .adBreak(let index):
            try c.encode("break", forKey: .kind)
            try c.encode(index, forKey: .index)
        case .playlistSegment(let index):
            try c.encode("segment", forKey: .kind)
            try c.encode(index, forKey: .index)
        case .golden(let aspect):
            try c.encode("golden", forKey: .kind)
            try c.encode(aspect, forKey: .aspect)
        }
    }
}
