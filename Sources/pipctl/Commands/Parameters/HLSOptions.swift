import AdPlayback
import Foundation
import MediaCore
import Rendering
import VideoPipeline

/// `--hls`, `--hls-time`, `--hls-segment-type`, `--hls-program-date-time`: a render written as HLS.
struct HLSOptions: Sendable {
    var directory: String?
    var segmentDuration: MediaDuration
    var segmentType: HLSSegmentType
    var programDateTime: Date?

    static let directory = Parameter.optional(
        "hls", .text("DIR"), absent: "none (one MP4)",
        help: "Write HLS into DIR instead of an MP4: master.m3u8, media.m3u8 (a VOD playlist whose breaks carry "
            + "EXT-X-DATERANGE with SCTE-35 splice_insert cues and EXT-X-CUE-OUT/IN), the segments, timeline.json "
            + "and events.jsonl. DIR must not exist or be empty; it appears only when the render succeeds. Every "
            + "break starts a segment. Needs the delivery profile.")
    static let segmentDuration = Parameter.option(
        "hls-time", .seconds(), default: MediaDuration(seconds: 6),
        help: "With --hls: the target segment length; a segment ends at the first keyframe this long after its "
            + "start (the render forces one there) or where a break starts or ends.")
    static let segmentType = Parameter.option(
        "hls-segment-type", .choice(HLSSegmentType.self), default: .fmp4,
        help: "With --hls: fmp4 (CMAF: init.mp4 and seg00000.m4s, ...) or mpegts (seg00000.ts, ...).")
    static let programDateTime = Parameter.optional(
        "hls-program-date-time", .date, absent: "the render's clock origin, 2000-01-01T00:00:00Z",
        help: "With --hls: the EXT-X-PROGRAM-DATE-TIME of the first segment; the breaks' START-DATEs count from it.")

    static let parameters: [any ParameterDeclaration] = [directory, segmentDuration, segmentType, programDateTime]

    init(_ arguments: ParsedArguments) {
        directory = arguments[Self.directory]
        segmentDuration = arguments[Self.segmentDuration]
        segmentType = arguments[Self.segmentType]
        programDateTime = arguments[Self.programDateTime]
    }

    /// The library's settings, when `--hls` is given; an HLS option without it, or HLS of the lossless profile,
    /// is a usage error.
    func settings(encoding: EncodingOptions, command: String) throws(UsageError) -> HLSOutputSettings? {
        guard let directory else {
            if segmentDuration != MediaDuration(seconds: 6) || segmentType != .fmp4 || programDateTime != nil {
                throw UsageError(command: command, message: "--hls-time, --hls-segment-type and --hls-program-date-time need --hls DIR")
            }
            return nil
        }
        guard encoding.profile == .delivery else {
            throw UsageError(command: command, message: "--hls: HLS carries H.264 and AAC, the delivery profile, not --profile lossless")
        }
        return HLSOutputSettings(directory: directory, segmentDuration: segmentDuration.seconds, segmentType: segmentType,
                                 programDateTime: programDateTime)
    }
}

extension ArgumentValue where Value == Date {
    /// An ISO 8601 date and time with its zone: `2026-12-01T08:00:00Z`, `2026-12-01T09:00:00.500+01:00`.
    static var date: ArgumentValue {
        ArgumentValue(placeholder: "DATE", parse: { text throws(InvalidValue) in
            guard let date = HLSPlaylistReading.date(text) else { throw .not(text, "an ISO 8601 date (e.g. 2026-12-01T08:00:00Z)") }
            return date
        }, describe: { ISO8601DateFormatter().string(from: $0) })
    }
}
