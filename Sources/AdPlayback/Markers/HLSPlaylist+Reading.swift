import Foundation
import MediaCore

/// A media playlist as read back, with its ad markers located: what `verify` checks an HLS render against.
public struct HLSPlaylistReading: Hashable, Sendable {
    public var playlist: HLSMediaPlaylist
    public var targetDuration: Int
    /// Each `EXT-X-DATERANGE` by ID, its attributes merged across the tags that carry the ID (RFC 8216 §4.3.2.7.1).
    public var dateRanges: [DateRange]
    /// The index of the segment each `EXT-X-CUE-OUT` precedes, with its duration.
    public var cueOuts: [(segment: Int, duration: Rational)]
    /// The index of the segment each `EXT-X-CUE-IN` precedes.
    public var cueIns: [Int]

    public struct DateRange: Hashable, Sendable {
        public var id: String
        public var startDate: Date
        /// The segment the first tag with this ID precedes.
        public var segment: Int
        public var duration: Rational?
        public var plannedDuration: Rational?
        public var scte35Out: SpliceInfoSection?
        public var scte35In: SpliceInfoSection?
        /// The segment the tag with `SCTE35-IN` precedes.
        public var inSegment: Int?
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.playlist == b.playlist && a.dateRanges == b.dateRanges && a.cueIns == b.cueIns
            && a.cueOuts.map(\.segment) == b.cueOuts.map(\.segment) && a.cueOuts.map(\.duration) == b.cueOuts.map(\.duration)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(playlist) }

    /// Where segment `index` starts, in seconds from the first.
    public func start(ofSegment index: Int) -> Rational {
        playlist.segments[..<index].reduce(.zero) { $0 + $1.duration }
    }
}

/// Why a playlist could not be read: its file, the line, and what is wrong there.
public struct HLSPlaylistError: Error, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let message: String

    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file): line \(line): \(message)" }
}

extension HLSPlaylistReading {
    /// Longest playlist read (a ten-hour render in one-second segments is under 200,000 lines).
    public static let maximumLines = 1_000_000

    /// Reads a media playlist: `EXTM3U` first; `EXTINF` and each segment's URI; `EXT-X-MAP`,
    /// `EXT-X-PROGRAM-DATE-TIME`, `EXT-X-DISCONTINUITY`, `EXT-X-DATERANGE`, `EXT-X-CUE-OUT`, `EXT-X-CUE-IN`; unknown
    /// tags are skipped, as the RFC asks of clients. Checks what the RFC makes a playlist invalid for here: a
    /// segment longer than the target duration, a date range without a program date-time, a VOD list without
    /// `EXT-X-ENDLIST`.
    public init(text: String, file: String) throws(HLSPlaylistError) {
        var lineNumber = 0
        func fail(_ message: String) -> HLSPlaylistError { HLSPlaylistError(file: file, line: lineNumber, message: message) }
        var map: String?, programDateTime: Date?, target: Int?, ended = false
        var segments: [HLSMediaPlaylist.Segment] = []
        var pending = HLSMediaPlaylist.Segment(uri: "", duration: .zero), pendingDuration: Rational?
        var ranges: [DateRange] = [], cueOuts: [(Int, Rational)] = [], cueIns: [Int] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count <= Self.maximumLines else { throw fail("more than \(Self.maximumLines) lines") }
        for raw in lines {
            lineNumber += 1
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            if lineNumber == 1 {
                guard line == "#EXTM3U" else { throw fail("a playlist starts with #EXTM3U") }
                continue
            }
            guard !line.isEmpty else { continue }
            guard line.hasPrefix("#") else {
                guard let duration = pendingDuration else { throw fail("segment \"\(line)\" has no #EXTINF before it") }
                pending.uri = line
                pending.duration = duration
                segments.append(pending)
                pending = HLSMediaPlaylist.Segment(uri: "", duration: .zero)
                pendingDuration = nil
                continue
            }
            guard line.hasPrefix("#EXT") else { continue }  // a comment
            let (tag, value) = line.firstIndex(of: ":").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) } ?? (line, "")
            let here = segments.count
            switch tag {
            case "#EXT-X-TARGETDURATION":
                guard let t = Int(value), t > 0 else { throw fail("EXT-X-TARGETDURATION \"\(value)\" is not a positive whole number") }
                target = t
            case "#EXT-X-MAP":
                map = try Self.attributes(value, fail)["URI"]
                guard map != nil else { throw fail("EXT-X-MAP has no URI") }
            case "#EXT-X-PROGRAM-DATE-TIME":
                guard let date = Self.date(value) else { throw fail("EXT-X-PROGRAM-DATE-TIME \"\(value)\" is not an ISO 8601 date") }
                if programDateTime == nil && here == 0 { programDateTime = date }
            case "#EXTINF":
                let number = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                guard let duration = Self.decimal(number) else { throw fail("EXTINF \"\(number)\" is not a duration") }
                pendingDuration = duration
            case "#EXT-X-DISCONTINUITY":
                pending.discontinuity = true
            case "#EXT-X-CUE-OUT":
                let number = value.hasPrefix("DURATION=") ? String(value.dropFirst(9)) : value
                guard let duration = Self.decimal(number) else { throw fail("EXT-X-CUE-OUT \"\(value)\" is not a duration") }
                cueOuts.append((here, duration))
                pending.tags.append(line)
            case "#EXT-X-CUE-IN":
                cueIns.append(here)
                pending.tags.append(line)
            case "#EXT-X-DATERANGE":
                try Self.dateRange(value, segment: here, into: &ranges, fail)
                pending.tags.append(line)
            case "#EXT-X-ENDLIST":
                ended = true
            default:
                break
            }
        }
        lineNumber = lines.count
        guard pendingDuration == nil else { throw fail("the last #EXTINF has no segment after it") }
        guard ended else { throw fail("a VOD playlist ends with #EXT-X-ENDLIST") }
        guard let target else { throw fail("no #EXT-X-TARGETDURATION") }
        guard !ranges.isEmpty ? programDateTime != nil : true else { throw fail("EXT-X-DATERANGE needs an EXT-X-PROGRAM-DATE-TIME") }
        let playlist = HLSMediaPlaylist(map: map, segments: segments, programDateTime: programDateTime)
        if let long = segments.firstIndex(where: { Int(($0.duration + Rational(1, 2)).floor) > target }) {
            throw fail("segment \(long) (\(segments[long].uri)) lasts \(HLSAttributes.decimal(segments[long].duration)) s, over the target duration \(target)")
        }
        self.init(playlist: playlist, targetDuration: target, dateRanges: ranges, cueOuts: cueOuts, cueIns: cueIns)
    }

    /// Merges one `EXT-X-DATERANGE` into `ranges` (a later tag with the same ID adds attributes).
    private static func dateRange(_ value: String, segment: Int, into ranges: inout [DateRange],
                                  _ fail: (String) -> HLSPlaylistError) throws(HLSPlaylistError) {
        let a = try attributes(value, fail)
        guard let id = a["ID"] else { throw fail("EXT-X-DATERANGE has no ID") }
        guard let start = a["START-DATE"].flatMap(date) else { throw fail("EXT-X-DATERANGE \"\(id)\" has no START-DATE, or not an ISO 8601 one") }
        func number(_ key: String) throws(HLSPlaylistError) -> Rational? {
            guard let text = a[key] else { return nil }
            guard let value = decimal(text) else { throw fail("EXT-X-DATERANGE \"\(id)\": \(key) \"\(text)\" is not a duration") }
            return value
        }
        func cue(_ key: String) throws(HLSPlaylistError) -> SpliceInfoSection? {
            guard let text = a[key] else { return nil }
            do { return try SpliceInfoSection(encoded: text) } catch { throw fail("EXT-X-DATERANGE \"\(id)\": \(key): \(error)") }
        }
        var range = ranges.first { $0.id == id } ?? DateRange(id: id, startDate: start, segment: segment)
        guard range.startDate == start else { throw fail("EXT-X-DATERANGE \"\(id)\" again with another START-DATE") }
        range.duration = try number("DURATION") ?? range.duration
        range.plannedDuration = try number("PLANNED-DURATION") ?? range.plannedDuration
        range.scte35Out = try cue("SCTE35-OUT") ?? range.scte35Out
        if let cueIn = try cue("SCTE35-IN") {
            range.scte35In = cueIn
            range.inSegment = segment
        }
        if let at = ranges.firstIndex(where: { $0.id == id }) { ranges[at] = range } else { ranges.append(range) }
    }

    /// An attribute list (RFC 8216 §4.2): `NAME=value` pairs separated by commas, quoted strings unquoted.
    package static func attributes(_ text: String, _ fail: (String) -> HLSPlaylistError) throws(HLSPlaylistError) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { throw fail("attribute \"\(rest.prefix(40))\" has no value") }
            let name = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.hasPrefix("\"") {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { throw fail("attribute \(name)'s quoted string is not closed") }
                value = body[..<close]
                rest = body[body.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            result[name] = String(value)
            if rest.hasPrefix(",") { rest = rest.dropFirst() } else if !rest.isEmpty { throw fail("attribute \(name): \"\(rest.prefix(40))\" after its value") }
        }
        return result
    }

    /// A decimal-floating-point as an exact value (`6`, `6.006`, `0.033367`).
    package static func decimal(_ text: String) -> Rational? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !parts[0].isEmpty, parts[0].count <= 12, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let whole = Int64(parts[0]) else { return nil }
        guard parts.count == 2 else { return Rational(whole) }
        let digits = parts[1]
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let fraction = Int64(digits) else { return nil }
        var scale: Int64 = 1
        for _ in 0..<digits.count { scale *= 10 }
        return Rational(whole) + Rational(fraction, scale)
    }

    /// An ISO 8601 date with its zone, with or without fractional seconds.
    public static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
