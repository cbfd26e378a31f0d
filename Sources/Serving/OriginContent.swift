import AdPlayback
import Foundation
import MediaCore

/// One piece of content under the origin, read and checked once: an HLS VOD (a multivariant playlist with its
/// renditions, or one media playlist), every segment a file inside the origin.
public struct OriginContent: Sendable {
    /// The content's path under the origin, as its URLs name it.
    public var path: [String]
    public var renditions: [Rendition]

    public struct Rendition: Sendable {
        /// `BANDWIDTH` (bits per second): the multivariant playlist's, or the largest segment's rate for a media
        /// playlist alone.
        public var bandwidth: Int
        public var averageBandwidth: Int?
        public var resolution: PixelSize?
        public var codecs: String?
        public var frameRate: String?
        /// The media playlist as read, its markers located.
        public var playlist: HLSPlaylistReading
        /// Each segment's file, in the playlist's order, and the fMP4 initialization section's.
        public var segmentFiles: [String]
        public var mapFile: String?
        /// Where a player fetches each segment and the initialization section on this server: `/v1/origin/…` for
        /// the origin's files, `/v1/cache/packaged/…` for an MP4's segments packaged by the server.
        public var segmentURLs: [String]
        public var mapURL: String?
        /// The local file whose pictures and sound the segments carry, for a reader that takes one file: the
        /// rendition's media playlist under the origin, or the MP4 the server packaged (a session's timeline names it).
        public var source: String
    }

    /// The content's length (the first rendition's; renditions of one VOD agree).
    public var duration: Rational { renditions.first?.playlist.playlist.duration ?? .zero }

    /// Where the origin marks breaks (the first rendition's markers), in seconds of content, in order: each
    /// `EXT-X-CUE-OUT` at the start of the segment it precedes, and each `EXT-X-DATERANGE` with `SCTE35-OUT` at its
    /// `START-DATE` (exact to the frame, inside a segment too), one cue for markers less than 1 ms apart.
    public var cues: [Rational] {
        guard let reading = renditions.first?.playlist else { return [] }
        var times = reading.cueOuts.map { reading.start(ofSegment: $0.segment) }
        if let origin = reading.playlist.programDateTime {
            for range in reading.dateRanges where range.scte35Out != nil {
                let millis = Int64((range.startDate.timeIntervalSince(origin) * 1000).rounded())
                times.append(Rational(millis, 1000))
            }
        }
        var cues: [Rational] = []
        for time in times.sorted() where time >= .zero && time < duration {
            if let last = cues.last, time - last < Rational(1, 1000) { continue }
            cues.append(time)
        }
        return cues
    }
}

/// Why a content path cannot be served: it is not there (404) or not usable (422), in one line naming the file.
public enum OriginContentError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(String)
    case unusable(String)

    public var description: String {
        switch self {
        case .notFound(let m), .unusable(let m): m
        }
    }
}

/// Reads content under the origin, bounded: playlists of at most `maximumPlaylistBytes`, at most
/// `maximumRenditions` renditions and `maximumSegments` segments each (docs/SERVE.md, "Limits").
public struct OriginReader: Sendable {
    public static let maximumPlaylistBytes = 2 * 1024 * 1024
    public static let maximumRenditions = 16
    public static let maximumSegments = 20_000

    public let origin: OriginDirectory

    public init(origin: OriginDirectory) {
        self.origin = origin
    }

    public func read(_ path: [String]) throws(OriginContentError) -> OriginContent {
        let shown = path.joined(separator: "/")
        guard let file = origin.file(path) else { throw .notFound("no content \"\(shown.excerpt)\" under the origin") }
        guard file.hasSuffix(".m3u8") else {
            throw .unusable("\(shown.excerpt): not an HLS playlist (.m3u8) or an MP4 (.mp4, .m4v, .mov)")
        }
        let text = try playlistText(file, shown: shown)
        guard text.contains("#EXT-X-STREAM-INF") else {
            return OriginContent(path: path, renditions: [try rendition(file, shown: shown, text: text, variant: nil)])
        }
        var renditions: [OriginContent.Rendition] = []
        for variant in try variants(text, shown: shown) {
            guard let media = origin.file(uri: variant.uri, relativeTo: file) else {
                throw .unusable("\(shown.excerpt): variant \"\(variant.uri.excerpt)\" is not a file inside the origin")
            }
            let mediaShown = origin.relative(media)?.joined(separator: "/") ?? variant.uri
            renditions.append(try rendition(media, shown: mediaShown, text: try playlistText(media, shown: mediaShown), variant: variant))
        }
        return OriginContent(path: path, renditions: renditions)
    }

    struct Variant {
        var uri: String
        var attributes: [String: String]
    }

    private func variants(_ text: String, shown: String) throws(OriginContentError) -> [Variant] {
        var result: [Variant] = []
        var pending: [String: String]?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            func fail(_ message: String) -> HLSPlaylistError { HLSPlaylistError(file: shown, line: number + 1, message: message) }
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                do { pending = try HLSPlaylistReading.attributes(String(line.dropFirst(18)), fail) } catch { throw .unusable(error.description) }
            } else if !line.isEmpty, !line.hasPrefix("#"), let attributes = pending {
                result.append(Variant(uri: line, attributes: attributes))
                pending = nil
                guard result.count <= Self.maximumRenditions else {
                    throw .unusable("\(shown.excerpt): more than \(Self.maximumRenditions) variants")
                }
            } else if line.hasPrefix("#EXT-X-MEDIA:") && line.contains("URI=") {
                throw .unusable("\(shown.excerpt): line \(number + 1): renditions in EXT-X-MEDIA groups are not served yet")
            }
        }
        guard !result.isEmpty else { throw .unusable("\(shown.excerpt): no variant after its EXT-X-STREAM-INF") }
        return result
    }

    private func rendition(_ file: String, shown: String, text: String, variant: Variant?) throws(OriginContentError) -> OriginContent.Rendition {
        let playlist: HLSPlaylistReading
        do { playlist = try HLSPlaylistReading(text: text, file: shown) } catch { throw .unusable(error.description) }
        let segments = playlist.playlist.segments
        guard !segments.isEmpty else { throw .unusable("\(shown.excerpt): no segment") }
        guard segments.count <= Self.maximumSegments else { throw .unusable("\(shown.excerpt): more than \(Self.maximumSegments) segments") }
        var files: [String] = []
        var largestRate = Rational.zero
        for (index, segment) in segments.enumerated() {
            guard let path = origin.file(uri: segment.uri, relativeTo: file) else {
                throw .unusable("\(shown.excerpt): segment \(index) \"\(segment.uri.excerpt)\" is not a file inside the origin")
            }
            files.append(path)
            if variant == nil, segment.duration > .zero, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int {
                largestRate = .max(largestRate, Rational(Int64(size) * 8) / segment.duration)
            }
        }
        var mapFile: String?
        if let map = playlist.playlist.map {
            guard let path = origin.file(uri: map, relativeTo: file) else {
                throw .unusable("\(shown.excerpt): EXT-X-MAP \"\(map.excerpt)\" is not a file inside the origin")
            }
            mapFile = path
        }
        let a = variant?.attributes ?? [:]
        let bandwidth = a["BANDWIDTH"].flatMap { Int($0) } ?? max(1, Int(largestRate.ceiling))
        guard bandwidth > 0 else { throw .unusable("\(shown.excerpt): BANDWIDTH \"\(a["BANDWIDTH"] ?? "")\" is not a positive number") }
        let resolution = a["RESOLUTION"].flatMap(PixelSize.init(parsing:))
        return OriginContent.Rendition(bandwidth: bandwidth, averageBandwidth: a["AVERAGE-BANDWIDTH"].flatMap { Int($0) },
                                       resolution: resolution, codecs: a["CODECS"], frameRate: a["FRAME-RATE"],
                                       playlist: playlist, segmentFiles: files, mapFile: mapFile,
                                       segmentURLs: files.map(originURL), mapURL: mapFile.map(originURL), source: file)
    }

    /// `/v1/origin/` and the file's path under the origin, each name percent-encoded.
    func originURL(_ file: String) -> String {
        "/v1/origin/" + (origin.relative(file) ?? []).map(AdRequestTemplate.encoded).joined(separator: "/")
    }

    private func playlistText(_ file: String, shown: String) throws(OriginContentError) -> String {
        guard let handle = FileHandle(forReadingAtPath: file) else { throw .notFound("\(shown.excerpt): cannot be read") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Self.maximumPlaylistBytes + 1)) ?? Data()
        guard data.count <= Self.maximumPlaylistBytes else {
            throw .unusable("\(shown.excerpt): over \(Self.maximumPlaylistBytes) bytes")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .unusable("\(shown.excerpt): not UTF-8 text") }
        return text
    }
}
