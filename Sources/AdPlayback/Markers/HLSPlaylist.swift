import Foundation
import MediaCore

/// A VOD media playlist (RFC 8216 §4.3.3) with ad markers: what `render --hls` writes and `verify` reads back.
///
/// Durations are exact (frames over the frame rate); they are written as `EXTINF` decimals with six places, and
/// read back to the nearest microsecond. Every marker is a tag written before the segment it applies to.
public struct HLSMediaPlaylist: Hashable, Sendable {
    public struct Segment: Hashable, Sendable {
        public var uri: String
        /// The segment's length in seconds.
        public var duration: Rational
        /// `EXT-X-DISCONTINUITY` before it: timestamps or encoding parameters change here.
        public var discontinuity = false
        /// Tags written just before it (after `EXT-X-DISCONTINUITY`, before `EXTINF`), each a whole line.
        public var tags: [String] = []

        public init(uri: String, duration: Rational, discontinuity: Bool = false, tags: [String] = []) {
            self.uri = uri
            self.duration = duration
            self.discontinuity = discontinuity
            self.tags = tags
        }
    }

    /// `EXT-X-MAP`'s URI: the fMP4 initialization section; `nil` for MPEG-TS segments.
    public var map: String?
    public var segments: [Segment]
    /// `EXT-X-PROGRAM-DATE-TIME` of the first segment, when written.
    public var programDateTime: Date?
    /// Whole tag lines written in the header, after `EXT-X-INDEPENDENT-SEGMENTS` (e.g. `EXT-X-DEFINE`).
    public var headerTags: [String] = []
    /// The least `EXT-X-VERSION` the tags need (11 for `EXT-X-DEFINE:QUERYPARAM`); the segments' own need counts too.
    public var minimumVersion = 3

    public init(map: String?, segments: [Segment], programDateTime: Date? = nil) {
        self.map = map
        self.segments = segments
        self.programDateTime = programDateTime
    }

    /// `EXT-X-TARGETDURATION`: every segment's duration rounded to the nearest whole second is at most this
    /// (RFC 8216 §4.3.3.1), and at least 1.
    public var targetDuration: Int {
        segments.map { Int(($0.duration + Rational(1, 2)).floor) }.max().map { max(1, $0) } ?? 1
    }

    /// The sum of the segments' durations.
    public var duration: Rational { segments.reduce(.zero) { $0 + $1.duration } }

    /// The playlist's text. Version 6 where fMP4 needs `EXT-X-MAP` in a media playlist, 3 otherwise (decimal
    /// `EXTINF`), or `minimumVersion` when higher.
    public var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(max(minimumVersion, map == nil ? 3 : 6))", "#EXT-X-TARGETDURATION:\(targetDuration)",
                     "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS"]
        lines += headerTags
        if let map { lines.append("#EXT-X-MAP:URI=\(HLSAttributes.quoted(map))") }
        if let programDateTime { lines.append("#EXT-X-PROGRAM-DATE-TIME:\(HLSAttributes.date(programDateTime))") }
        for segment in segments {
            if segment.discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            lines += segment.tags
            lines.append("#EXTINF:\(HLSAttributes.decimal(segment.duration)),")
            lines.append(segment.uri)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The master playlist of one variant (RFC 8216 §4.3.4.2).
public struct HLSMasterPlaylist: Hashable, Sendable {
    public var mediaURI: String
    /// Peak segment bit rate, bits per second.
    public var bandwidth: Int
    public var averageBandwidth: Int
    /// RFC 6381 codec strings, e.g. `avc1.64001F` and `mp4a.40.2`.
    public var codecs: [String]
    public var resolution: PixelSize
    public var frameRate: FrameRate

    public init(mediaURI: String, bandwidth: Int, averageBandwidth: Int, codecs: [String], resolution: PixelSize, frameRate: FrameRate) {
        self.mediaURI = mediaURI
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.resolution = resolution
        self.frameRate = frameRate
    }

    public var text: String {
        let rate = HLSAttributes.decimal(frameRate.perSecond, places: 3)
        return """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),AVERAGE-BANDWIDTH=\(averageBandwidth),CODECS=\(HLSAttributes.quoted(codecs.joined(separator: ","))),RESOLUTION=\(resolution.width)x\(resolution.height),FRAME-RATE=\(rate)
        \(mediaURI)

        """
    }
}

/// How attribute values are written (RFC 8216 §4.2).
package enum HLSAttributes {
    package static func quoted(_ text: String) -> String { "\"\(text)\"" }

    /// A decimal-floating-point with `places` digits after the point, rounded half up, from an exact value.
    package static func decimal(_ value: Rational, places: Int = 6) -> String {
        precondition(value >= .zero)
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * Rational(scale) + Rational(1, 2)).floor
        let whole = scaled / scale, fraction = scaled % scale
        guard places > 0 else { return "\(whole)" }
        let digits = String(fraction)
        return "\(whole)." + String(repeating: "0", count: places - digits.count) + digits
    }

    /// An ISO 8601 date with milliseconds in UTC, as `EXT-X-PROGRAM-DATE-TIME` and `START-DATE` take it.
    package static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
