import AdDecisioning
import AdPlayback
import Foundation
import MediaCore
import VideoPipeline

/// One session's ads as they are cut into the content, the same for every rendition's playlist: decided once, when
/// the session's first media playlist is asked for, so that a player switching renditions finds the same breaks.
public struct SessionStitch: Sendable {
    public var breaks: [StitchedBreak]
    /// Each rendition's frame rate (the pieces and ads are counted in its frames); empty when nothing is stitched.
    public var frameRates: [FrameRate] = []
    /// Each rendition's first presentation time in 90 kHz ticks (the SCTE-35 cues' PTS count from it).
    public var ptsOffsets: [Int64] = []
    /// Why a break, or an ad in one, is not in the stream (the viewer gets the content there).
    public var notes: [String]
}

/// A break cut into the content: where, and per rendition what replaces what.
public struct StitchedBreak: Sendable {
    /// Its index among the session's decided breaks (`SessionAds.breaks`).
    public var index: Int
    public var position: BreakPosition
    /// Per rendition, in the content's order.
    public var renditions: [RenditionSplice]
    /// The ads played, by their index in the decided break.
    public var ads: [Int]
    /// Each played ad's media file as it was conditioned (the cache's download, or a `--url-map` file), in the
    /// order of `ads`: what a session's timeline names as its source.
    public var adMedia: [String]
}

/// One break in one rendition.
public struct RenditionSplice: Sendable {
    /// The origin segments the pieces stand in for: empty for a post-roll (the ads go in front of segment
    /// `lowerBound`); for a pre-roll, the first segment, which `after` (a copy of it without the sound before its
    /// first picture: its encoder's priming, heard after the ads otherwise) stands in for, or empty when a mid-roll's
    /// cut stands in for it (or it cannot be cut).
    public var replaced: Range<Int>
    /// The content up to the cut and from it (a piece is absent when the cut falls on the window's edge).
    public var before: Piece?
    public var after: Piece?
    /// Each ad's segments. Its last is the conditioned ad's own, or its alternate ending when that keeps the sound
    /// of the session's ads in step with their pictures (`SoundBalance`).
    public var ads: [[Piece]]
    /// Each ad's last segment with its sound ending on the other side of its pictures' end (`AdConditioner`'s
    /// `alternateLast`); nil when it has none.
    public var alternateEnds: [Piece?] = []
    /// Where the break is in the content's presentation time (its splice PTS), on the clock of the segments around
    /// it (which an origin's `EXT-X-DISCONTINUITY` restarts): a mid-roll's cut (where the subtitle windows are cut
    /// too), a pre-roll's first picture, a post-roll's end; nil when it is not known.
    public var cut: Cut? = nil

    /// Where the content leaves for the break and where it comes back.
    public struct Cut: Sendable, Hashable {
        /// The time the content before the break ends at, on its clock.
        public var leaves: Rational
        /// The time the content after the break starts at, on its clock: `leaves`, unless the break is at an
        /// origin's `EXT-X-DISCONTINUITY`, where the clock restarts.
        public var returns: Rational

        public init(leaves: Rational, returns: Rational) {
            self.leaves = leaves
            self.returns = returns
        }

        /// The content leaves and comes back at `time`: it keeps its clock around the break.
        public init(at time: Rational) { self.init(leaves: time, returns: time) }
    }

    public struct Piece: Sendable, Hashable {
        /// Its URL on this server.
        public var url: String
        public var frames: Int64
        public var duration: Rational
    }
}

/// What the first segments of renditions say (`BreakStitcher.RenditionMedia`), probed once per change of the file:
/// a popular title's sessions cost no decoding.
final class RenditionProbes: Sendable {
    private let known = LockedState([String: (stamp: FileStamp, media: BreakStitcher.RenditionMedia)]())

    func media(of segment: String) -> Result<BreakStitcher.RenditionMedia, StitchBuildError> {
        guard let stamp = FileStamp(segment) else { return .failure(StitchBuildError("\(segment): cannot be read")) }
        if let found = known.withLock({ $0[segment] }), found.stamp == stamp { return .success(found.media) }
        let media: BreakStitcher.RenditionMedia
        do throws(MediaError) {
            let info = try MediaProbe.probe(segment)
            guard let video = info.bestVideo, let size = video.size, let rate = video.frameRate else {
                return .failure(StitchBuildError("its first segment has no video of a known size and rate"))
            }
            let timing = try SegmentCutter.pictureTiming(of: segment)
            media = BreakStitcher.RenditionMedia(size: size, rate: rate, sampleRate: info.bestAudio?.sampleRate ?? 48_000,
                                                 channels: info.bestAudio?.channels ?? 2, start: timing.start,
                                                 decodeDelay: timing.decodeDelay, pids: try TransportStreamPIDs.of(segment))
        } catch {
            return .failure(StitchBuildError("\(error)"))
        }
        known.withLock { all in
            if all.count >= 1024 { all.removeAll() }
            all[segment] = (stamp, media)
        }
        return .success(media)
    }
}

/// What the cache keeps of a cut: its two pieces.
struct CutEntry: StitchCacheEntry {
    struct Piece: Codable, Sendable {
        var file: StitchCache.CachedFile
        var frames: Int64
        var durationNumerator: Int64
        var durationDenominator: Int64
    }
    var before: Piece?
    var after: Piece?
    var files: [StitchCache.CachedFile] { [before?.file, after?.file].compactMap { $0 } }
}

/// What the cache keeps of a content's loudness (no files).
struct LoudnessEntry: StitchCacheEntry {
    var integrated: Double?
    var files: [StitchCache.CachedFile] { [] }
}

/// What each ad's sound is brought to (`--loudness`).
public enum ServeLoudness: Sendable, Equatable {
    /// Left as it is.
    case off
    /// The content's integrated loudness, measured once from the first rendition's segments.
    case content
    /// This integrated loudness, LUFS.
    case target(Double)
}

/// What the cache keeps of a conditioned ad: its segments, and its last one's alternate ending.
struct AdEntry: StitchCacheEntry {
    struct Segment: Codable, Sendable {
        var file: StitchCache.CachedFile
        var frames: Int64
    }
    var segments: [Segment]
    var alternateLast: Segment?
    var rateNumerator: Int64
    var rateDenominator: Int64
    var files: [StitchCache.CachedFile] { (segments + [alternateLast].compactMap { $0 }).map(\.file) }
}

/// A conditioned ad for one rendition, as a session splices it in.
struct ConditionedAd: Sendable {
    var pieces: [RenditionSplice.Piece]
    /// The last piece with its sound ending on the other side of the pictures' end.
    var alternateLast: RenditionSplice.Piece?
}

/// Cuts a session's decided breaks into each rendition: downloads each ad's media, conditions it per rendition, and
/// cuts each mid-roll's segments at its exact frame, all through the shared `StitchCache`. What is not ready within
/// `wait` is left out for this viewer and finished for the next.
public struct BreakStitcher: Sendable {
    public let cache: StitchCache
    public let origin: OriginDirectory
    /// How long a viewer's first media playlist waits for its breaks to be built.
    public let wait: Duration
    /// The x264 preset and CRF of cut pieces and conditioned ads.
    public let encoding: EncodingSettings
    /// What each ad's sound is brought to.
    public let loudness: ServeLoudness
    /// The shortest segment a cut may leave, but for the stream's last: a shorter remainder joins its neighbour.
    static let shortestPiece = Rational(1)

    /// What each rendition's first segment says, read once per change of the file.
    private let probes = RenditionProbes()
    /// Each rendition's choice of ads' endings, remembered by what it depends on.
    let soundChoices = SoundBalanceMemo()

    public init(cache: StitchCache, origin: OriginDirectory, wait: Duration, encoding: EncodingSettings = EncodingSettings(),
                loudness: ServeLoudness = .content) {
        self.cache = cache
        self.loudness = loudness
        self.origin = origin
        self.wait = wait
        self.encoding = encoding
    }

    /// What a rendition's media is, read from its first segment.
    struct RenditionMedia: Sendable {
        var size: PixelSize
        var rate: FrameRate
        var sampleRate: Int
        var channels: Int
        /// Where content time 0 is on the segments' clock.
        var start: Rational
        /// How long before its presentation each picture is decoded (`SegmentCutter.pictureTiming`): the ads are
        /// stamped the same (`AdConditioner.Request.decodeDelay`).
        var decodeDelay: Rational
        /// The PIDs its segments carry their pictures and sound on, which its ads' segments carry too.
        var pids: TransportStreamPIDs?
    }

    /// What each rendition of `content` is, read from its first segment (once per change of the file).
    func renditionMedia(_ content: OriginContent) -> Result<[RenditionMedia], StitchBuildError> {
        var media: [RenditionMedia] = []
        for (r, rendition) in content.renditions.enumerated() {
            guard rendition.mapFile == nil else {
                return .failure(StitchBuildError("rendition \(r) has fMP4 segments; only MPEG-TS renditions are cut for now"))
            }
            switch probes.media(of: rendition.segmentFiles[0]) {
            case .success(let found): media.append(found)
            case .failure(let error): return .failure(StitchBuildError("rendition \(r): \(error)"))
            }
        }
        return .success(media)
    }

    public func stitch(_ session: ServeSession, _ ads: SessionAds) async -> SessionStitch {
        guard !ads.breaks.isEmpty else { return SessionStitch(breaks: [], notes: []) }
        var notes: [String] = []
        let content = session.content
        let media: [RenditionMedia]
        switch renditionMedia(content) {
        case .success(let found): media = found
        case .failure(let error): return SessionStitch(breaks: [], notes: [error.description])
        }
        var breaks: [StitchedBreak] = []
        var taken: [Range<Int>] = content.renditions.map { _ in 0..<0 }
        for (index, adBreak) in ads.breaks.enumerated() {
            let windows = content.renditions.indices.map { window(adBreak.position, in: content.renditions[$0]) }
            if case .midroll = adBreak.position, zip(windows, taken).contains(where: { $0.lowerBound < $1.upperBound && !$1.isEmpty }) {
                notes.append("break \(index) (\(adBreak.position)): too close to the break before it")
                continue
            }
            if case .midroll = adBreak.position, let restart = Self.restart(inside: windows, in: content) {
                notes.append("break \(index) (\(adBreak.position)): the segments around its cut cross the origin's "
                             + "EXT-X-DISCONTINUITY before segment \(restart); not cut")
                continue
            }
            let prepared = Task { await prepare(index, adBreak, windows: windows, content: content, media: media) }
            guard let result = await Self.value(of: prepared, within: wait) else {
                notes.append("break \(index) (\(adBreak.position)): not ready within \(wait); built for the next viewer")
                continue
            }
            switch result {
            case .failure(let error): notes.append("break \(index) (\(adBreak.position)): \(error)")
            case .success(let (stitched, adNotes)):
                notes += adNotes
                guard !stitched.ads.isEmpty else { continue }
                breaks.append(stitched)
                if case .midroll = adBreak.position { taken = windows }
            }
        }
        // A mid-roll whose cut starts at the first segment stands in for it (its piece before the cut has no priming
        // either): the pre-roll's copy is not served.
        if let first = breaks.first, first.position == .preroll {
            for r in content.renditions.indices where breaks.dropFirst().contains(where: {
                $0.renditions.indices.contains(r) && $0.renditions[r].replaced.lowerBound == 0 && !$0.renditions[r].replaced.isEmpty
            }) {
                breaks[0].renditions[r].replaced = 0..<0
                breaks[0].renditions[r].after = nil
            }
        }
        notes += await balanceSound(&breaks, content: content, media: media)
        return SessionStitch(breaks: breaks, frameRates: media.map(\.rate),
                             ptsOffsets: media.map { ($0.start * Rational(90_000)).rounded }, notes: notes)
    }

    /// The first origin segment after a discontinuity (`EXT-X-DISCONTINUITY`) inside a mid-roll's window in any
    /// rendition (after its first segment), or nil. The window's segments are cut as one stream on one clock, which
    /// such a discontinuity restarts. (A window that starts at a discontinuity is cut on the clock it starts:
    /// `clock(of:before:start:)`, a cue at the discontinuity at the first picture of the segment it starts.) Only a
    /// cue within a second of a discontinuity, but not at it, whose window takes in the segment across it, is left
    /// out.
    static func restart(inside windows: [Range<Int>], in content: OriginContent) -> Int? {
        for (rendition, window) in zip(content.renditions, windows) {
            let segments = rendition.playlist.playlist.segments
            if let found = window.dropFirst().first(where: { segments.indices.contains($0) && segments[$0].discontinuity }) {
                return found
            }
        }
        return nil
    }

    /// The clock segment `index` of `rendition` runs on: where it puts content time `contentStart`, the start of
    /// the run of segments after the last `EXT-X-DISCONTINUITY` at or before `index` (the content's first picture,
    /// `start`, when there is none), read from the run's first segment.
    func clock(of rendition: OriginContent.Rendition, before index: Int, start: Rational) -> Result<(time: Rational, contentStart: Rational), StitchBuildError> {
        let segments = rendition.playlist.playlist.segments
        guard let restart = segments.indices.last(where: { $0 > 0 && $0 <= index && segments[$0].discontinuity }) else {
            return .success((start, .zero))
        }
        let contentStart = segments[..<restart].reduce(Rational.zero) { $0 + $1.duration }
        return probes.media(of: rendition.segmentFiles[restart]).map { ($0.start, contentStart) }
    }

    /// The origin segments a break's pieces replace in `rendition`: the segment that holds its time, with a
    /// neighbour when the cut would leave less than a second of it; the first segment for a pre-roll (copied
    /// without its priming), as is a mid-roll's at an origin's `EXT-X-DISCONTINUITY` (the segment it starts);
    /// empty for a post-roll.
    func window(_ position: BreakPosition, in rendition: OriginContent.Rendition) -> Range<Int> {
        let segments = rendition.playlist.playlist.segments
        switch position {
        case .preroll: return segments.isEmpty ? 0..<0 : 0..<1
        case .postroll: return segments.count..<segments.count
        case .midroll(let time):
            let t = time.seconds
            var starts: [Rational] = [.zero]
            for segment in segments { starts.append(starts.last! + segment.duration) }
            guard t > .zero else { return 0..<0 }
            guard t < starts.last! else { return segments.count..<segments.count }
            let i = starts.lastIndex { $0 <= t }!
            var lower = i, upper = i + 1
            // At an origin's discontinuity the segment is cut at its first picture, and the one before is left whole.
            let atDiscontinuity = t == starts[i] && segments[i].discontinuity
            if t - starts[i] < Self.shortestPiece, i > 0, !atDiscontinuity { lower -= 1 }
            if starts[i + 1] - t < Self.shortestPiece, i + 1 < segments.count { upper += 1 }
            return lower..<upper
        }
    }

    private func prepare(_ index: Int, _ adBreak: SessionAds.Break, windows: [Range<Int>], content: OriginContent,
                         media: [RenditionMedia]) async -> Result<(StitchedBreak, [String]), StitchBuildError> {
        var notes: [String] = []
        // The ads' media, downloaded once into the cache.
        var adFiles: [(ad: Int, path: String)] = []
        for a in adBreak.ads.indices {
            switch await adMediaFile(adBreak.ads[a]) {
            case .success(let path): adFiles.append((a, path))
            case .failure(let error): notes.append("break \(index) ad \(a): \(error)")
            }
        }
        guard !adFiles.isEmpty else { return .success((StitchedBreak(index: index, position: adBreak.position, renditions: [], ads: [], adMedia: []), notes)) }
        let target: Double?
        switch await loudnessTarget(content, media: media) {
        case .success(let found): target = found
        case .failure(let error): return .failure(error)
        }
        var renditions: [RenditionSplice] = []
        for (r, rendition) in content.renditions.enumerated() {
            let m = media[r]
            let encoding = adEncoding(rendition)
            var ads: [ConditionedAd] = []
            for (_, path) in adFiles {
                switch await conditioned(path, media: m, encoding: encoding, loudness: target,
                                         segmentSeconds: Self.adSegmentSeconds(content)) {
                case .success(let ad): ads.append(ad)
                case .failure(let error): return .failure(error)
                }
            }
            var splice = RenditionSplice(replaced: windows[r], before: nil, after: nil, ads: ads.map(\.pieces),
                                         alternateEnds: ads.map(\.alternateLast))
            if case .midroll(let time) = adBreak.position, !windows[r].isEmpty {
                let at: Rational
                switch clock(of: rendition, before: windows[r].lowerBound, start: m.start) {
                case .success(let clock):
                    at = clock.time + time.seconds - clock.contentStart
                    splice.cut = RenditionSplice.Cut(at: at)
                    // At an origin's discontinuity (`window`) the content leaves on the clock before it.
                    if clock.contentStart > .zero, time.seconds == clock.contentStart {
                        switch self.clock(of: rendition, before: windows[r].lowerBound - 1, start: m.start) {
                        case .success(let leaving): splice.cut = RenditionSplice.Cut(leaves: leaving.time + time.seconds - leaving.contentStart, returns: at)
                        case .failure(let error): return .failure(StitchBuildError("rendition \(r): \(error)"))
                        }
                    }
                case .failure(let error): return .failure(StitchBuildError("rendition \(r): \(error)"))
                }
                switch await cut(rendition, window: windows[r], at: at, encoding: encoding) {
                case .success(let pieces): (splice.before, splice.after) = pieces
                case .failure(let error): return .failure(error)
                }
            } else if adBreak.position == .postroll {
                let segments = rendition.playlist.playlist.segments
                if case .success(let clock) = clock(of: rendition, before: segments.count - 1, start: m.start) {
                    splice.cut = RenditionSplice.Cut(at: clock.time + rendition.playlist.playlist.duration - clock.contentStart)
                }
            } else if adBreak.position == .preroll, !windows[r].isEmpty {
                splice.cut = RenditionSplice.Cut(at: m.start)
                // The first segment from its first picture: nothing re-encoded, the sound before it left out.
                switch await cut(rendition, window: windows[r], at: m.start, encoding: encoding) {
                case .success(let (_, after?)): splice.after = after
                default: splice.replaced = 0..<0
                }
            }
            renditions.append(splice)
        }
        return .success((StitchedBreak(index: index, position: adBreak.position, renditions: renditions, ads: adFiles.map(\.ad), adMedia: adFiles.map(\.path)), notes))
    }

    /// The media file of `ad`: the local file `--url-map` names, or its network file downloaded once into the cache.
    func adMediaFile(_ ad: SessionAds.Ad) async -> Result<String, StitchBuildError> {
        if let local = ad.localMedia { return .success(local) }
        guard let text = ad.media, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            return .failure(StitchBuildError("no network media file to condition"))
        }
        return await cache.media.file(for: url).mapError { StitchBuildError("\($0)") }
    }

    /// What each ad's sound is brought to for `content` (`--loudness`); nil leaves it as it is.
    func loudnessTarget(_ content: OriginContent, media: [RenditionMedia]) async -> Result<Double?, StitchBuildError> {
        switch loudness {
        case .off: return .success(nil)
        case .target(let lufs): return .success(lufs)
        case .content: return await contentLoudness(content.renditions[0], media: media[0])
        }
    }

    /// How an ad is coded for `rendition`: capped at its `BANDWIDTH` less the sound's 128 kbit/s, without B-frames.
    func adEncoding(_ rendition: OriginContent.Rendition) -> EncodingSettings {
        var encoding = self.encoding
        encoding.audioBitRate = 128_000
        encoding.maximumBitRate = max(100_000, rendition.bandwidth - 128_000)
        encoding.reorders = false
        return encoding
    }

    /// The integrated loudness of `rendition`'s sound, measured once (a content whose sound is silence has none).
    private func contentLoudness(_ rendition: OriginContent.Rendition, media m: RenditionMedia) async -> Result<Double?, StitchBuildError> {
        let files = rendition.segmentFiles
        let identity = files.map { "\($0):\(FileStamp.text(of: $0))" }.joined(separator: "|")
        let key = SHA256.hex("loudness-v1|\(m.sampleRate)|\(m.channels)|\(identity)")
        let result = await cache.entry("loudness", key: key, as: LoudnessEntry.self) { _ throws(StitchBuildError) in
            do throws(MediaError) {
                let measured = try LoudnessAnalysis.measure(sequence: files, sampleRate: m.sampleRate, channels: m.channels)
                return LoudnessEntry(integrated: measured.integrated)
            } catch {
                throw StitchBuildError("the content's loudness cannot be measured: \(error)")
            }
        }
        return result.map(\.integrated)
    }

    /// How long an ad's segments are in `content`: its renditions' longest target duration, between 1 and 10 s, so
    /// that a player asks as often during an ad as during the content (2 s segments cost a viewer of a 15 s ad eight
    /// segment requests and eight beacon redirects, against three of each at 6 s).
    static func adSegmentSeconds(_ content: OriginContent) -> Rational {
        Rational(Int64(min(10, max(1, content.renditions.map(\.playlist.playlist.targetDuration).max() ?? 2))))
    }

    func conditioned(_ path: String, media m: RenditionMedia, encoding: EncodingSettings, loudness: Double?,
                     segmentSeconds: Rational) async -> Result<ConditionedAd, StitchBuildError> {
        // A downloaded file is named by its SHA-256; a local one (`--url-map`) is known by its path, size and time.
        let name = (path as NSString).lastPathComponent
        var identity = name
        if !path.hasPrefix(cache.directory + "/media/") {
            identity = "local:\(path):\(FileStamp.text(of: path))"
        }
        let key = SHA256.hex("ad-v5|\(identity)|segments=\(segmentSeconds)|delay=\(m.decodeDelay)|base=\(AdConditioner.timestampBase)|\(m.size)|\(m.rate.perSecond)|\(m.sampleRate)|\(m.channels)|\(encoding.maximumBitRate ?? 0)|\(encoding.crf)|\(encoding.preset)|reorders=\(encoding.reorders)|pids=\(m.pids?.description ?? "own")|loudness=\(loudness.map { String(format: "%.2f", $0) } ?? "as is")")
        let result = await cache.entry("ads", key: key, as: AdEntry.self) { directory throws(StitchBuildError) in
            do throws(MediaError) {
                let made = try AdConditioner.condition(AdConditioner.Request(
                    input: path, directory: directory, size: m.size, frameRate: m.rate, sampleRate: m.sampleRate,
                    channels: m.channels, encoding: encoding, segmentSeconds: segmentSeconds, loudness: loudness,
                    decodeDelay: m.decodeDelay, pids: m.pids))
                func segment(_ s: AdConditioner.Segment) -> AdEntry.Segment { .init(file: .init(name: s.uri, bytes: s.bytes), frames: s.frames) }
                return AdEntry(segments: made.segments.map(segment), alternateLast: made.alternateLast.map(segment),
                               rateNumerator: m.rate.perSecond.numerator, rateDenominator: m.rate.perSecond.denominator)
            } catch {
                throw StitchBuildError("the ad \(name) cannot be conditioned: \(error)")
            }
        }
        return result.map { entry in
            let rate = Rational(entry.rateNumerator, entry.rateDenominator)
            func piece(_ s: AdEntry.Segment) -> RenditionSplice.Piece {
                .init(url: "/v1/cache/ads/\(key)/\(s.file.name)", frames: s.frames, duration: Rational(s.frames) / rate)
            }
            return ConditionedAd(pieces: entry.segments.map(piece), alternateLast: entry.alternateLast.map(piece))
        }
    }

    private func cut(_ rendition: OriginContent.Rendition, window: Range<Int>, at time: Rational,
                     encoding: EncodingSettings) async -> Result<(RenditionSplice.Piece?, RenditionSplice.Piece?), StitchBuildError> {
        let files = window.map { rendition.segmentFiles[$0] }
        let identity = files.map { "\(origin.relative($0)?.joined(separator: "/") ?? $0):\(FileStamp.text(of: $0))" }.joined(separator: "|")
        let key = SHA256.hex("cut-v4|\(identity)|\(time)|\(encoding.maximumBitRate ?? 0)|\(encoding.crf)|\(encoding.preset)")
        let result = await cache.entry("cuts", key: key, as: CutEntry.self) { directory throws(StitchBuildError) in
            let input = directory + "/input.ts"
            defer { try? FileManager.default.removeItem(atPath: input) }
            guard FileManager.default.createFile(atPath: input, contents: nil), let out = FileHandle(forWritingAtPath: input) else {
                throw StitchBuildError("\(input): cannot be written")
            }
            var total: Int64 = 0
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { throw StitchBuildError("\(file): cannot be read") }
                total += Int64(data.count)
                guard total <= SegmentCutter.maximumInputBytes else { throw StitchBuildError("the segments around the cut are over \(SegmentCutter.maximumInputBytes) bytes") }
                out.write(data)
            }
            try? out.close()
            do throws(MediaError) {
                var request = SegmentCutter.Request(input: input, cut: time, before: directory + "/before.ts",
                                                    after: directory + "/after.ts", encoding: encoding)
                // The stream's first segment: its sound before its first picture (the priming) is left out, as an
                // ad's is, so that what comes before it (a pre-roll) or after it meets it by its pictures.
                request.soundBeforeFirstPicture = window.lowerBound > 0
                request.soundLeads = window.lowerBound == 0
                let made = try SegmentCutter.cut(request)
                func piece(_ p: SegmentCutter.Piece?, _ name: String) -> CutEntry.Piece? {
                    guard let p, let bytes = StitchCache.regularFileSize(directory + "/" + name) else { return nil }
                    return .init(file: .init(name: name, bytes: bytes), frames: p.frames,
                                 durationNumerator: p.duration.numerator, durationDenominator: p.duration.denominator)
                }
                return CutEntry(before: piece(made.before, "before.ts"), after: piece(made.after, "after.ts"))
            } catch {
                throw StitchBuildError("the cut at \(time) s cannot be made: \(error)")
            }
        }
        return result.map { entry in
            func piece(_ p: CutEntry.Piece?) -> RenditionSplice.Piece? {
                p.map { .init(url: "/v1/cache/cuts/\(key)/\($0.file.name)", frames: $0.frames, duration: Rational($0.durationNumerator, $0.durationDenominator)) }
            }
            return (piece(entry.before), piece(entry.after))
        }
    }

    /// `task`'s value if it comes within `limit`; the task goes on either way. `timer` (a new one by default)
    /// ends with the answer.
    package static func value<T: Sendable>(of task: Task<T, Never>, within limit: Duration,
                                           timer: WaitTimer = WaitTimer()) async -> T? {
        let answered = LockedState(false)
        return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            @Sendable func answer(_ value: T?) {
                let first = answered.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                guard first else { return }
                timer.cancel()
                continuation.resume(returning: value)
            }
            timer.start(after: limit) { answer(nil) }
            Task { answer(await task.value) }
        }
    }
}

/// A one-shot timer on the system's monotonic clock whose cancellation frees it at once: a dispatch source.
/// A cancelled `Task.sleep` resumes its task at once, but on Linux its dispatch timer and sleeping job stay
/// allocated until the deadline (`heaptrack`: some 560 bytes per wait, one wait per session's first playlist), so a
/// server with a long `--stitch-wait` held one per session for that long, pinning pages the allocator could not
/// give back: the memory that crept up under `serve-scale` after its warm-up.
package final class WaitTimer: @unchecked Sendable {
    private static let queue = DispatchQueue(label: "pipctl-stitch-wait")
    private let source = DispatchSource.makeTimerSource(queue: WaitTimer.queue)
    private let started = LockedState(false)

    /// Active from the start, with no deadline: dispatch must never release a source that was not activated.
    package init() { source.activate() }

    /// Calls `fire` once `limit` has passed, unless cancelled first. At most once per timer.
    func start(after limit: Duration, _ fire: @escaping @Sendable () -> Void) {
        guard started.withLock({ s -> Bool in defer { s = true }; return !s }) else { return }
        let (seconds, attoseconds) = limit.components
        let nanoseconds = seconds >= Int64.max / 1_000_000_000 ? Int.max : max(0, Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        source.setEventHandler(handler: fire)
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds))
    }

    /// Stops it and releases it from the system's timers now.
    func cancel() { source.cancel() }

    /// Whether it was cancelled (`dispatch_source_testcancel`).
    package var isCancelled: Bool { source.isCancelled }
}
