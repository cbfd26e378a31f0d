import AdPlayback
import Foundation
import MediaCore
import VideoPipeline

/// MP4 content under the origin (H.264 and AAC), served as HLS: packaged once into MPEG-TS segments of about
/// `segmentSeconds`, cut at its own keyframes by stream copy (`HLSSegmenter`, as `render --hls`), kept in the cache
/// as `packaged/KEY/` (KEY hashes the file's path, size and modification time) and shared by every viewer.
struct MP4Packager: Sendable {
    let cache: StitchCache
    let origin: OriginDirectory
    static let segmentSeconds = Rational(4)
    /// The largest MP4 packaged (it is read whole, by stream copy).
    static let maximumBytes: Int64 = 8 << 30

    struct Entry: StitchCacheEntry {
        struct Segment: Codable, Sendable {
            var file: StitchCache.CachedFile
            var frames: Int64
        }
        var segments: [Segment]
        var rateNumerator: Int64
        var rateDenominator: Int64
        var codecs: [String]
        var width: Int
        var height: Int
        var files: [StitchCache.CachedFile] { segments.map(\.file) }
    }

    /// Whether `name` is an MP4 the packager takes.
    static func takes(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".mp4") || lower.hasSuffix(".m4v") || lower.hasSuffix(".mov")
    }

    func content(_ path: [String], file: String) async -> Result<OriginContent, OriginContentError> {
        let shown = path.joined(separator: "/")
        guard let stamp = FileStamp(file) else { return .failure(.notFound("no content \"\(shown.excerpt)\" under the origin")) }
        guard stamp.size <= Self.maximumBytes else { return .failure(.unusable("\(shown.excerpt): over \(Self.maximumBytes) bytes")) }
        let key = SHA256.hex("packaged-v1|\(shown)|\(stamp.size)|\(stamp.modified.tv_sec).\(stamp.modified.tv_nsec)")
        let built = await cache.entry("packaged", key: key, as: Entry.self) { directory throws(StitchBuildError) in
            let info: MediaInfo
            do throws(MediaError) { info = try MediaProbe.probe(file) } catch {
                throw StitchBuildError("\(shown.excerpt): cannot be packaged as HLS: \(error)")
            }
            guard let video = info.bestVideo, let size = video.size, let rate = video.frameRate else {
                throw StitchBuildError("\(shown.excerpt): no video of a known size and frame rate")
            }
            do throws(MediaError) {
                let made = try HLSSegmenter.segment(file, into: directory, type: .mpegts, rate: rate,
                                                    target: HLSSegmenter.frames(perSegment: Self.segmentSeconds, rate: rate), cuts: [])
                return Entry(segments: made.segments.map { .init(file: .init(name: $0.uri, bytes: $0.bytes), frames: $0.frameCount) },
                             rateNumerator: rate.perSecond.numerator, rateDenominator: rate.perSecond.denominator,
                             codecs: made.codecs, width: size.width, height: size.height)
            } catch {
                throw StitchBuildError("\(shown.excerpt): cannot be packaged as HLS: \(error)")
            }
        }
        let entry: Entry
        switch built {
        case .success(let found): entry = found
        case .failure(let error): return .failure(.unusable(error.description))
        }
        let rate = Rational(entry.rateNumerator, entry.rateDenominator)
        let directory = cache.path("packaged", key)
        let segments = entry.segments.map { HLSMediaPlaylist.Segment(uri: $0.file.name, duration: Rational($0.frames) / rate) }
        let playlist: HLSPlaylistReading
        do {
            playlist = try HLSPlaylistReading(text: HLSMediaPlaylist(map: nil, segments: segments).text, file: shown)
        } catch {
            return .failure(.unusable(error.description))
        }
        var largest = Rational.zero
        for (segment, written) in zip(segments, entry.segments) where segment.duration > .zero {
            largest = .max(largest, Rational(written.file.bytes * 8) / segment.duration)
        }
        let rendition = OriginContent.Rendition(
            bandwidth: max(1, Int(largest.ceiling)), averageBandwidth: nil,
            resolution: PixelSize(width: entry.width, height: entry.height), codecs: entry.codecs.joined(separator: ","),
            frameRate: String(format: "%.3f", rate.doubleValue), playlist: playlist,
            segmentFiles: entry.segments.map { directory + "/" + $0.file.name }, mapFile: nil,
            segmentURLs: entry.segments.map { "/v1/cache/packaged/\(key)/\($0.file.name)" }, mapURL: nil)
        return .success(OriginContent(path: path, renditions: [rendition]))
    }
}
