import AdPlayback
import Foundation
import MediaCore
import VideoPipeline

/// A session's stitched rendition as a timeline (`Timeline`, the file `pipctl render` writes and `pipctl verify`
/// reads): which content frames and which ad frames the stream shows, frame by frame, from the session's own stitch.
/// So the stream a player downloads can be checked by `verify --sources`, an independent reader of its pixels.
///
/// The content's source is the rendition's own file (`OriginContent.Rendition.source`: its media playlist under the
/// origin, or the MP4 the server packaged), each ad's the media file it was conditioned from. Frames are counted in
/// the segments the stream serves (each segment's packets, read once and kept in the cache), so a cut's frame is
/// the window's first frame plus the frames of the piece before it.
///
/// Its sound is placed as a reader that plays the segments' sound one after the other hears it (the ffmpeg tool over
/// HTTP): each served segment's sound packets are counted once (`PieceSound`, kept in the cache), and the sound a
/// content or ad segment starts with is heard after all the sound of the segments before it, whatever its pictures.
public enum SessionTimeline {
    /// The most bytes of segments and source read to count a rendition's frames (as much as an MP4 packaged), by
    /// default (`ServeSettings.timelineScanBytes`).
    public static let maximumScannedBytes: Int64 = 8 << 30

    /// What the cache keeps of a rendition's content for its timeline (no files).
    struct ContentEntry: StitchCacheEntry {
        /// Each segment's frames (video packets), in the playlist's order.
        var segmentFrames: [Int64]
        /// The source's frames, by a scan of the source itself.
        var sourceFrames: Int64
        /// Where the source's first picture starts after the source's start (its sound may start first).
        var firstPictureNumerator: Int64
        var firstPictureDenominator: Int64
        /// The source's frame rate (a rendition without breaks has no other).
        var rateNumerator: Int64
        var rateDenominator: Int64
        var width: Int
        var height: Int
        var sampleRate: Int
        var channels: Int
        var files: [StitchCache.CachedFile] { [] }
    }

    /// What the cache keeps of one served segment's sound (no files): its samples, where its sound starts after
    /// its first picture, and its pictures.
    struct PieceSound: StitchCacheEntry {
        var samples: Int64
        /// In samples (negative: the sound starts first).
        var soundAfterPicture: Int64
        var pictures: Int64
        var files: [StitchCache.CachedFile] { [] }
    }

    /// What the cache keeps of an ad's media file for a timeline (no files).
    struct AdEntry: StitchCacheEntry {
        var rateNumerator: Int64
        var rateDenominator: Int64
        var aspectNumerator: Int64
        var aspectDenominator: Int64
        var files: [StitchCache.CachedFile] { [] }
    }

    /// Rendition `index`'s timeline, for a session whose breaks are `stitch`.
    ///
    /// - Returns: the timeline, or why it cannot be made, in one line (a source that cannot be read, segments and
    ///   source over `maximumScannedBytes`, segments whose frames are not the source's).
    static func make(_ session: ServeSession, rendition index: Int, stitch: SessionStitch, cache: StitchCache,
                     maximumScannedBytes: Int64) async -> Result<Timeline, StitchBuildError> {
        let rendition = session.content.renditions[index]
        let content: ContentEntry
        switch await contentEntry(rendition, cache: cache, maximumScannedBytes: maximumScannedBytes) {
        case .success(let entry): content = entry
        case .failure(let error): return .failure(error)
        }
        var ads: [String: AdEntry] = [:]
        for path in Set(stitch.breaks.flatMap(\.adMedia)) {
            switch await adEntry(path, cache: cache) {
            case .success(let entry): ads[path] = entry
            case .failure(let error): return .failure(error)
            }
        }
        let rate = stitch.frameRates.indices.contains(index) ? stitch.frameRates[index]
            : FrameRate(Rational(content.rateNumerator, content.rateDenominator))
        var sounds: [String: PieceSound] = [:]
        for file in servedFiles(session, rendition: index, stitch: stitch, cache: cache) where sounds[file] == nil {
            switch await pieceSound(file, cache: cache, sampleRate: content.sampleRate) {
            case .success(let sound): sounds[file] = sound
            case .failure(let error): return .failure(error)
            }
        }
        return layout(session, rendition: index, stitch: stitch, rate: rate, content: content, ads: ads,
                      sound: { file in sounds[file] }, file: { url in file(of: url, cache: cache) })
    }

    /// The file a piece's URL (`/v1/cache/KIND/KEY/NAME`) names in the cache.
    static func file(of url: String, cache: StitchCache) -> String {
        cache.directory + "/" + url.dropFirst("/v1/cache/".count)
    }

    /// Every file the rendition's stitched stream serves: the content's segments and each break's pieces.
    static func servedFiles(_ session: ServeSession, rendition index: Int, stitch: SessionStitch, cache: StitchCache) -> [String] {
        var files = session.content.renditions[index].segmentFiles
        for stitched in stitch.breaks where stitched.renditions.indices.contains(index) {
            let splice = stitched.renditions[index]
            let pieces = [splice.before, splice.after].compactMap { $0 } + splice.ads.joined()
            files += pieces.map { file(of: $0.url, cache: cache) }
        }
        return files
    }

    /// The timeline itself, from what the stitch and the scans found: content up to each cut, each ad, the
    /// content from the cut, to the end.
    static func layout(_ session: ServeSession, rendition index: Int, stitch: SessionStitch, rate: FrameRate,
                       content: ContentEntry, ads: [String: AdEntry], sound: (String) -> PieceSound?,
                       file: (String) -> String) -> Result<Timeline, StitchBuildError> {
        let rendition = session.content.renditions[index]
        let total = content.segmentFrames.reduce(0, +)
        guard total == content.sourceFrames else {
            return .failure(StitchBuildError("rendition \(index)'s segments hold \(total) frames, its source \(content.sourceFrames)"))
        }
        var firstFrame: [Int64] = [0]
        for frames in content.segmentFrames { firstFrame.append(firstFrame.last! + frames) }
        let size = PixelSize(width: content.width, height: content.height)
        let full = Timeline.Rect(PixelRect(x: 0, y: 0, width: size.width, height: size.height))
        let clock = SampleClock(sampleRate: Int64(content.sampleRate), frameRate: rate)
        // The first tick at which the frame-rate rule shows the content's first picture on the source's clock (zero
        // is the source's start, and its picture may start after its sound): the nearest frame, the later on a tie.
        let firstPicture = Rational(content.firstPictureNumerator, content.firstPictureDenominator)
        let lead = max(0, (firstPicture * rate.perSecond - Rational(1, 2)).ceiling)
        // Output sample `s` is counted as the stream's frames are (`SampleClock`), from the stream's start, and is
        // the `s`th sample of the segments' sound played one after the other. A segment's first sound sample is
        // heard after the samples of every segment before it (`heard`); it is the sample of its own picture `f`
        // (content frame or ad frame) moved by where its sound starts after that picture. The source's sample of
        // content frame `f` is `f`'s on the sample clock after the source's first picture.
        let sourceLead = (firstPicture * Rational(Int64(content.sampleRate))).rounded
        var heard: Int64 = 0
        /// Where the sound of the segment `path`, whose first picture is frame `f` of its source, starts in that
        /// source's samples and in the output's; and counts its samples as heard.
        func place(_ path: String, picture f: Int64, content isContent: Bool) -> (source: Int64, output: Int64)? {
            guard let found = sound(path) else { return nil }
            defer { heard += found.samples }
            return ((isContent ? sourceLead : 0) + clock.sample(atFrame: f) + found.soundAfterPicture, heard)
        }
        let fps = rate.perSecond.fraction
        var segments: [Timeline.Segment] = []
        var frame: Int64 = 0, contentFrame: Int64 = 0
        func seconds(_ ticks: Int64) -> Double { (Rational(ticks) / rate.perSecond).doubleValue }
        func add(_ kind: Timeline.Segment.Kind, source: String, sourceFps: String, break b: Int?, ad a: Int?, frames: Int64,
                 tick: Int64, picture: Timeline.Rect, sourceSample: Int64) {
            guard frames > 0 else { return }
            segments.append(Timeline.Segment(
                kind: kind, source: source, sourceFps: sourceFps, breakIndex: b, adIndex: a, outStartFrame: frame,
                outEndFrame: frame + frames, srcStartTick: tick, srcEndTick: tick + frames, srcStart: seconds(tick),
                srcEnd: seconds(tick + frames), paused: false, pip: nil, picture: picture,
                audioStart: clock.sample(atFrame: frame), sourceAudioStart: sourceSample, audioPadded: 0, audioDrift: 0))
            frame += frames
        }
        /// The sound of `pieces` (files and their frames, the first showing frame `f` of its source) played one after
        /// the other from output frame `frame`: the source's sample heard at that frame's output sample.
        func sourceSample(_ pieces: [(file: String, frames: Int64)], picture f: Int64, content isContent: Bool) -> Int64? {
            guard let first = pieces.first, let placed = place(first.file, picture: f, content: isContent) else { return nil }
            for piece in pieces.dropFirst() where place(piece.file, picture: 0, content: isContent) == nil { return nil }
            return placed.source + clock.sample(atFrame: frame) - placed.output
        }
        // The content's pieces since the last break: origin segments, a cut's piece before or after it.
        var run: [(file: String, frames: Int64)] = [], next = 0
        func addContent() -> StitchBuildError? {
            let frames = run.reduce(0) { $0 + $1.frames }
            guard frames > 0 else { return nil }
            guard let sample = sourceSample(run, picture: contentFrame, content: true) else {
                return StitchBuildError("rendition \(index)'s segments' sound was not counted")
            }
            add(.content, source: rendition.source, sourceFps: fps, break: nil, ad: nil, frames: frames,
                tick: contentFrame + lead, picture: full, sourceSample: sample)
            contentFrame += frames
            run = []
            return nil
        }
        func takeSegments(upTo end: Int) {
            while next < end {
                run.append((rendition.segmentFiles[next], content.segmentFrames[next]))
                next += 1
            }
        }
        for stitched in stitch.breaks {
            guard stitched.renditions.indices.contains(index) else { continue }
            let splice = stitched.renditions[index]
            guard splice.replaced.upperBound <= content.segmentFrames.count else {
                return .failure(StitchBuildError("break \(stitched.index) replaces segments rendition \(index) does not have"))
            }
            if case .midroll = stitched.position {
                let window = firstFrame[splice.replaced.upperBound] - firstFrame[splice.replaced.lowerBound]
                let pieces = (splice.before?.frames ?? 0) + (splice.after?.frames ?? 0)
                guard pieces == window else {
                    return .failure(StitchBuildError("break \(stitched.index)'s pieces hold \(pieces) frames of rendition \(index), its segments \(window)"))
                }
            }
            takeSegments(upTo: splice.replaced.lowerBound)
            next = max(next, splice.replaced.upperBound)
            if let before = splice.before { run.append((file(before.url), before.frames)) }
            if let error = addContent() { return .failure(error) }
            for (a, pieces) in splice.ads.enumerated() where stitched.adMedia.indices.contains(a) {
                let path = stitched.adMedia[a]
                guard let ad = ads[path] else { return .failure(StitchBuildError("the ad \((path as NSString).lastPathComponent) was not read")) }
                guard let sample = sourceSample(pieces.map { (file($0.url), $0.frames) }, picture: 0, content: false) else {
                    return .failure(StitchBuildError("the ad \((path as NSString).lastPathComponent)'s sound was not counted"))
                }
                let aspect = Rational(ad.aspectNumerator, ad.aspectDenominator)
                let picture = PixelRect(x: 0, y: 0, width: size.width, height: size.height).fitting(aspect: aspect)
                add(.ad, source: path, sourceFps: Rational(ad.rateNumerator, ad.rateDenominator).fraction, break: stitched.index,
                    ad: stitched.ads[a], frames: pieces.reduce(0) { $0 + $1.frames }, tick: 0, picture: Timeline.Rect(picture),
                    sourceSample: sample)
            }
            if let after = splice.after { run.append((file(after.url), after.frames)) }
        }
        takeSegments(upTo: content.segmentFrames.count)
        if let error = addContent() { return .failure(error) }
        let output = Timeline.Output(
            path: "/v1/sessions/\(session.id)/\(index).m3u8", fps: fps, width: size.width, height: size.height, frames: frame,
            duration: seconds(frame), sampleRate: content.sampleRate, channels: content.channels,
            audioSamples: clock.sample(atFrame: frame), profile: "serve")
        let source = Timeline.Source(path: rendition.source, fps: fps, frames: total, duration: seconds(total))
        return .success(Timeline(output: output, content: source, segments: segments))
    }

    /// The rendition's segments and source, counted once per change of their files and kept in the cache.
    private static func contentEntry(_ rendition: OriginContent.Rendition, cache: StitchCache,
                                     maximumScannedBytes: Int64) async -> Result<ContentEntry, StitchBuildError> {
        let files = rendition.segmentFiles + [rendition.source]
        var identity: [String] = [], bytes: Int64 = 0
        for file in files {
            guard let stamp = FileStamp(file) else { return .failure(StitchBuildError("\((file as NSString).lastPathComponent): cannot be read")) }
            bytes += stamp.size
            identity.append("\(file):\(stamp.text)")
        }
        guard bytes <= maximumScannedBytes else {
            return .failure(StitchBuildError("its segments and source are \(bytes) bytes, over the \(maximumScannedBytes) read to count its frames"))
        }
        let key = SHA256.hex("timeline-content-v3|" + identity.joined(separator: "|"))
        let segments = rendition.segmentFiles, source = rendition.source
        return await cache.entry("timelines", key: key, as: ContentEntry.self) { _ throws(StitchBuildError) in
            do throws(MediaError) {
                let scans = try segments.map { file throws(MediaError) in try MediaProbe.scanVideo(file) }
                let scan = try MediaProbe.scanVideo(source)
                let info = try MediaProbe.probe(source)
                guard let size = info.bestVideo?.size, let rate = info.bestVideo?.frameRate, let first = scan.firstPicture else {
                    throw MediaError.missingStream(path: source, kind: .video)
                }
                return ContentEntry(segmentFrames: scans.map(\.frames), sourceFrames: scan.frames,
                                    firstPictureNumerator: first.seconds.numerator, firstPictureDenominator: first.seconds.denominator,
                                    rateNumerator: rate.perSecond.numerator, rateDenominator: rate.perSecond.denominator, width: size.width, height: size.height, sampleRate: info.bestAudio?.sampleRate ?? 48_000,
                                    channels: info.bestAudio?.channels ?? 2)
            } catch {
                throw StitchBuildError("the rendition's frames cannot be counted: \(error)")
            }
        }
    }

    /// A served segment's sound, counted once per change of its file (at `sampleRate`, the rendition's).
    static func pieceSound(_ path: String, cache: StitchCache, sampleRate: Int) async -> Result<PieceSound, StitchBuildError> {
        guard let stamp = FileStamp(path) else { return .failure(StitchBuildError("\((path as NSString).lastPathComponent): cannot be read")) }
        let key = SHA256.hex("timeline-sound-v2|\(sampleRate)|\(path):\(stamp.text)")
        return await cache.entry("timelines", key: key, as: PieceSound.self) { _ throws(StitchBuildError) in
            let scan: MediaProbe.SoundScan
            do throws(MediaError) { scan = try MediaProbe.scanSound(path) } catch {
                throw StitchBuildError("\((path as NSString).lastPathComponent)'s sound cannot be counted: \(error)")
            }
            guard scan.sampleRate == sampleRate else {
                throw StitchBuildError("\((path as NSString).lastPathComponent): its sound is at \(scan.sampleRate) Hz, the rendition's at \(sampleRate)")
            }
            return PieceSound(samples: scan.samples, soundAfterPicture: scan.soundAfterPicture ?? 0, pictures: scan.pictures)
        }
    }

    /// An ad's frame rate and display aspect, read once per change of its file.
    private static func adEntry(_ path: String, cache: StitchCache) async -> Result<AdEntry, StitchBuildError> {
        guard let stamp = FileStamp(path) else { return .failure(StitchBuildError("\((path as NSString).lastPathComponent): cannot be read")) }
        let key = SHA256.hex("timeline-ad-v1|\(path):\(stamp.text)")
        return await cache.entry("timelines", key: key, as: AdEntry.self) { _ throws(StitchBuildError) in
            do throws(MediaError) {
                let info = try MediaProbe.probe(path, pictureLimit: .creatives)
                guard let video = info.bestVideo, let rate = video.frameRate, let aspect = video.displayAspect, aspect > .zero else {
                    throw MediaError.missingStream(path: path, kind: .video)
                }
                return AdEntry(rateNumerator: rate.perSecond.numerator, rateDenominator: rate.perSecond.denominator,
                               aspectNumerator: aspect.numerator, aspectDenominator: aspect.denominator)
            } catch {
                throw StitchBuildError("the ad \((path as NSString).lastPathComponent) cannot be read: \(error)")
            }
        }
    }
}
