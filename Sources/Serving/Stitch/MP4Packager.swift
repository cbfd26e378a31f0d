import AdPlayback
import Foundation
import MediaCore
import VideoPipeline

/// MP4 content under the origin (H.264 and AAC), served as HLS: packaged once into MPEG-TS segments of about
/// `segmentSeconds`, cut at its own keyframes by stream copy (`HLSSegmenter`, as `render --hls`), kept in the cache
/// as `packaged/KEY/` (KEY hashes the file's path, size and modification time) and shared by every viewer. An fMP4
/// rendition is served as MPEG-TS the same way (`transmuxed`), cut where its own segments start: the cut pieces and
/// the conditioned ads are TS, and a media playlist cannot mix TS with fMP4. A variant whose sound is an audio
/// rendition of its own (`EXT-X-MEDIA`) is served with that sound muxed into its segments the same way.
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
        /// A variant muxed with its audio rendition: the playlists it was read from (`DemuxedInput`), kept as
        /// the rendition's source.
        var playlists: [StitchCache.CachedFile]? = nil
        var files: [StitchCache.CachedFile] { segments.map(\.file) + (playlists ?? []) }
    }

    /// What the cache keeps of a segment as sound only: its one file.
    struct SoundOnlyEntry: StitchCacheEntry {
        var file: StitchCache.CachedFile
        var files: [StitchCache.CachedFile] { [file] }
    }

    /// Cached segment `KIND/KEY/NAME` (`StitchCache.segmentFile`) as sound only (`HLSSegmenter.soundOnly`): made once
    /// into the cache (`audio/`), the same for every viewer. A language's segments are those of the rendition that
    /// stitched its breaks with the lowest variant's pictures (`Role.soundOf`); nil when there is no such segment.
    func soundOnly(kind: String, key: String, name: String) async -> Result<String, StitchBuildError>? {
        guard let file = cache.segmentFile(kind: kind, key: key, name: name) else { return nil }
        let soundKey = SHA256.hex("sound-only-v1|\(kind)/\(key)/\(name)")
        let built = await cache.entry("audio", key: soundKey, as: SoundOnlyEntry.self) { directory throws(StitchBuildError) in
            do throws(MediaError) {
                try HLSSegmenter.soundOnly(file, to: directory + "/" + name)
            } catch {
                throw StitchBuildError("\(kind)/\(key.prefix(12))…/\(name): \(error)")
            }
            guard let bytes = StitchCache.regularFileSize(directory + "/" + name) else { throw StitchBuildError("\(name): not written") }
            return SoundOnlyEntry(file: .init(name: name, bytes: bytes))
        }
        return built.map { cache.path("audio", soundKey) + "/" + $0.file.name }
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
        let key = SHA256.hex("packaged-v4|\(shown)|\(stamp.size)|\(stamp.modified.tv_sec).\(stamp.modified.tv_nsec)")
        let built = await cache.entry("packaged", key: key, as: Entry.self) { directory throws(StitchBuildError) in
            try Self.segment(file, shown: shown, directory: directory, durations: nil)
        }
        switch built {
        case .success(let entry):
            return rendition(entry, key: key, shown: shown, keeping: nil, source: file).map { OriginContent(path: path, renditions: [$0]) }
        case .failure(let error):
            return .failure(.unusable(error.description))
        }
    }

    /// An fMP4 rendition as MPEG-TS segments, cut where its own segments start (stream copy, once, in the cache), so
    /// that its breaks can be cut like any TS rendition's; its playlist's attributes are kept.
    func transmuxed(_ content: OriginContent) async -> Result<OriginContent, OriginContentError> {
        var result = content
        let shownContent = content.path.joined(separator: "/")
        for (r, original) in content.renditions.enumerated() {
            if let audio = original.separateAudio {
                switch await muxed(original, audio: audio, shown: "\(shownContent) rendition \(r)") {
                case .success(let made): result.renditions[r] = made
                case .failure(let error): return .failure(error)
                }
                continue
            }
            guard let map = original.mapFile else { continue }
            let files = [map] + original.segmentFiles
            let identity: String
            switch identify(files, shown: "\(shownContent) rendition \(r)") {
            case .success(let found): identity = found
            case .failure(let error): return .failure(error)
            }
            let key = SHA256.hex("fmp4-ts-v4|" + identity)
            let durations = original.playlist.playlist.segments.map(\.duration)
            let shown = "\(shownContent) rendition \(r)"
            let built = await cache.entry("packaged", key: key, as: Entry.self) { directory throws(StitchBuildError) in
                let joined = directory + "/joined.mp4"
                defer { try? FileManager.default.removeItem(atPath: joined) }
                guard FileManager.default.createFile(atPath: joined, contents: nil), let out = FileHandle(forWritingAtPath: joined) else {
                    throw StitchBuildError("\(joined): cannot be written")
                }
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { throw StitchBuildError("\(file): cannot be read") }
                    out.write(data)
                }
                try? out.close()
                return try Self.segment(joined, shown: shown, directory: directory, durations: durations)
            }
            switch built {
            case .success(let entry):
                switch rendition(entry, key: key, shown: shown, keeping: original, source: original.source) {
                case .success(let made): result.renditions[r] = made
                case .failure(let error): return .failure(error)
                }
            case .failure(let error):
                return .failure(.unusable(error.description))
            }
        }
        return .success(result)
    }

    /// What a rendition packaged from `files` is known by (each file's path under the origin, size and times), once
    /// they are all readable and within `maximumBytes` together.
    private func identify(_ files: [String], shown: String) -> Result<String, OriginContentError> {
        var total: Int64 = 0
        var identity: [String] = []
        for file in files {
            guard let stamp = FileStamp(file) else { return .failure(.notFound("\(shown.excerpt): a segment cannot be read")) }
            total += stamp.size
            identity.append("\(origin.relative(file)?.joined(separator: "/") ?? file):\(stamp.text)")
        }
        guard total <= Self.maximumBytes else { return .failure(.unusable("\(shown.excerpt): over \(Self.maximumBytes) bytes")) }
        return .success(identity.joined(separator: "|"))
    }

    /// A variant and its audio rendition (TS or fMP4 each) as MPEG-TS segments carrying both, cut where the
    /// variant's own segments start (stream copy, once, in the cache). They are read through playlists the server
    /// writes into the entry, naming only the files the origin's playlists were checked to name (`DemuxedInput`),
    /// which stay as the rendition's source.
    private func muxed(_ original: OriginContent.Rendition, audio: OriginContent.SeparateAudio,
                       shown: String) async -> Result<OriginContent.Rendition, OriginContentError> {
        let files = [original.mapFile, audio.mapFile].compactMap { $0 } + original.segmentFiles + audio.segmentFiles
        let identity: String
        switch identify(files, shown: shown) {
        case .success(let found): identity = found
        case .failure(let error): return .failure(error)
        }
        let video = DemuxedInput.Track(playlist: original.playlist.playlist, segmentFiles: original.segmentFiles, mapFile: original.mapFile)
        let sound = DemuxedInput.Track(playlist: audio.playlist.playlist, segmentFiles: audio.segmentFiles, mapFile: audio.mapFile)
        let key = SHA256.hex("demuxed-ts-v2|" + identity + "|" + (original.mapFile == nil ? "ts" : "fmp4"))
        let durations = original.playlist.playlist.segments.map(\.duration)
        let built = await cache.entry("packaged", key: key, as: Entry.self) { directory throws(StitchBuildError) in
            let playlists = try DemuxedInput.write(video: video, audio: sound, into: directory)
            var entry = try Self.segment(directory + "/" + DemuxedInput.multivariant, shown: shown, directory: directory, durations: durations)
            entry.playlists = playlists
            return entry
        }
        switch built {
        case .success(let entry):
            return rendition(entry, key: key, shown: shown, keeping: original, source: cache.path("packaged", key) + "/" + DemuxedInput.multivariant)
        case .failure(let error):
            return .failure(.unusable(error.description))
        }
    }

    /// Cuts `file` (an MP4, fragmented or not) into MPEG-TS segments in `directory`: at its keyframes about every
    /// `segmentSeconds`, or where `durations` (seconds, in order) say its segments start.
    private static func segment(_ file: String, shown: String, directory: String, durations: [Rational]?) throws(StitchBuildError) -> Entry {
        let info: MediaInfo
        do throws(MediaError) { info = try MediaProbe.probe(file) } catch {
            throw StitchBuildError("\(shown.excerpt): cannot be packaged as HLS: \(error)")
        }
        guard let video = info.bestVideo, let size = video.size, let rate = video.frameRate else {
            throw StitchBuildError("\(shown.excerpt): no video of a known size and frame rate")
        }
        var cuts: Set<Int64> = []
        if let durations {
            // The segmenter counts frames from time 0; the first picture may come later (a packager's decode delay).
            let first: Int64
            do throws(MediaError) { first = try HLSSegmenter.firstVideoPTS(file) } catch {
                throw StitchBuildError("\(shown.excerpt): cannot be packaged as HLS: \(error)")
            }
            var start = Rational(first, 90_000)
            for duration in durations.dropLast() {
                start = start + duration
                cuts.insert((start * rate.perSecond).rounded)
            }
        }
        do throws(MediaError) {
            let target = durations == nil ? HLSSegmenter.frames(perSegment: Self.segmentSeconds, rate: rate) : Int64.max
            let made = try HLSSegmenter.segment(file, into: directory, type: .mpegts, rate: rate, target: target, cuts: cuts,
                                                soundWithPictures: true)
            return Entry(segments: made.segments.map { .init(file: .init(name: $0.uri, bytes: $0.bytes), frames: $0.frameCount) },
                         rateNumerator: rate.perSecond.numerator, rateDenominator: rate.perSecond.denominator,
                         codecs: made.codecs, width: size.width, height: size.height)
        } catch {
            throw StitchBuildError("\(shown.excerpt): cannot be packaged as HLS: \(error)")
        }
    }

    /// The rendition the packaged `entry` makes; `keeping` gives the attributes of the rendition it stands for.
    private func rendition(_ entry: Entry, key: String, shown: String, keeping original: OriginContent.Rendition?,
                           source: String) -> Result<OriginContent.Rendition, OriginContentError> {
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
        return .success(OriginContent.Rendition(
            bandwidth: original?.bandwidth ?? max(1, Int(largest.ceiling)), averageBandwidth: original?.averageBandwidth,
            resolution: original?.resolution ?? PixelSize(width: entry.width, height: entry.height),
            codecs: original?.codecs ?? entry.codecs.joined(separator: ","),
            frameRate: original?.frameRate ?? String(format: "%.3f", rate.doubleValue), playlist: playlist,
            segmentFiles: entry.segments.map { directory + "/" + $0.file.name }, mapFile: nil,
            segmentURLs: entry.segments.map { "/v1/cache/packaged/\(key)/\($0.file.name)" }, mapURL: nil, source: source,
            subtitleGroup: original?.subtitleGroup, role: original?.role ?? .variant))
    }
}

/// The playlists through which a variant and its audio rendition are read as one input (FFmpeg's HLS reader plays a
/// multivariant playlist's variant with its `AUDIO` group): written by the server, each naming by absolute path only
/// the segment files the origin's playlists were checked to name, so the reader opens nothing else.
enum DemuxedInput {
    static let multivariant = "muxed.m3u8"
    static let videoPlaylist = "muxed-video.m3u8"
    static let audioPlaylist = "muxed-audio.m3u8"

    struct Track: Sendable {
        var playlist: HLSMediaPlaylist
        var segmentFiles: [String]
        var mapFile: String?
    }

    /// Writes the three playlists into `directory`; what the cache entry lists of them.
    static func write(video: Track, audio: Track, into directory: String) throws(StitchBuildError) -> [StitchCache.CachedFile] {
        let master = "#EXTM3U\n#EXT-X-VERSION:7\n"
            + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"sound\",NAME=\"sound\",DEFAULT=YES,AUTOSELECT=YES,URI=\"\(audioPlaylist)\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"sound\"\n\(videoPlaylist)\n"
        var written: [StitchCache.CachedFile] = []
        for (name, text) in [(videoPlaylist, try media(video)), (audioPlaylist, try media(audio)), (multivariant, master)] {
            let data = Data(text.utf8)
            guard FileManager.default.createFile(atPath: directory + "/" + name, contents: data) else {
                throw StitchBuildError("\(directory)/\(name): cannot be written")
            }
            written.append(.init(name: name, bytes: Int64(data.count)))
        }
        return written
    }

    /// A media playlist of `track`'s files by absolute `file:` path, with its durations.
    static func media(_ track: Track) throws(StitchBuildError) -> String {
        func url(_ path: String) throws(StitchBuildError) -> String {
            guard path.hasPrefix("/"), !path.contains("\""), !path.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                throw StitchBuildError("\((path as NSString).lastPathComponent.excerpt): its path cannot be named in a playlist")
            }
            return "file:" + path
        }
        var segments: [HLSMediaPlaylist.Segment] = []
        for (segment, file) in zip(track.playlist.segments, track.segmentFiles) {
            segments.append(HLSMediaPlaylist.Segment(uri: try url(file), duration: segment.duration))
        }
        return HLSMediaPlaylist(map: try track.mapFile.map(url), segments: segments).text
    }
}
