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
        /// The same in the stream's first segment: how far the stream's sound leads its picture.
        var streamLeadNumerator: Int64
        var streamLeadDenominator: Int64
        /// The source's frame rate (a rendition without breaks has no other).
        var rateNumerator: Int64
        var rateDenominator: Int64
        var width: Int
        var height: Int
        var sampleRate: Int
        var channels: Int
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
        return layout(session, rendition: index, stitch: stitch, rate: rate, content: content, ads: ads)
    }

    /// The timeline itself, from what the stitch and the scans found: content up to each cut, each ad, the
    /// content from the cut, to the end.
    static func layout(_ session: ServeSession, rendition index: Int, stitch: SessionStitch, rate: FrameRate,
                       content: ContentEntry, ads: [String: AdEntry]) -> Result<Timeline, StitchBuildError> {
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
        // Output sample `s` is counted as the stream's frames are (`SampleClock`), from the stream's start, and the
        // stream's sound leads its picture (an AAC encoder's priming: the content's first segment's, each ad's own):
        // the sample of output frame `n` is heard that lead before the picture. So a content frame's sample in its
        // source is moved by the source's lead less the stream's, and an ad, whose sound starts with its picture, is
        // read from the stream's lead before its first sample.
        let sampleRate = Rational(Int64(content.sampleRate))
        let streamLead = Rational(content.streamLeadNumerator, content.streamLeadDenominator)
        let contentShift = ((firstPicture - streamLead) * sampleRate).rounded
        let adShift = -(streamLead * sampleRate).rounded
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
        func addContent(upTo end: Int64) {
            guard end > contentFrame else { return }
            add(.content, source: rendition.source, sourceFps: fps, break: nil, ad: nil, frames: end - contentFrame,
                tick: contentFrame + lead, picture: full, sourceSample: clock.sample(atFrame: contentFrame) + contentShift)
            contentFrame = end
        }
        for stitched in stitch.breaks {
            guard stitched.renditions.indices.contains(index) else { continue }
            let splice = stitched.renditions[index]
            let cut: Int64
            switch stitched.position {
            case .preroll: cut = 0
            case .postroll: cut = total
            case .midroll:
                guard splice.replaced.upperBound <= content.segmentFrames.count else {
                    return .failure(StitchBuildError("break \(stitched.index) replaces segments rendition \(index) does not have"))
                }
                let window = firstFrame[splice.replaced.upperBound] - firstFrame[splice.replaced.lowerBound]
                let pieces = (splice.before?.frames ?? 0) + (splice.after?.frames ?? 0)
                guard pieces == window else {
                    return .failure(StitchBuildError("break \(stitched.index)'s pieces hold \(pieces) frames of rendition \(index), its segments \(window)"))
                }
                cut = firstFrame[splice.replaced.lowerBound] + (splice.before?.frames ?? 0)
            }
            addContent(upTo: cut)
            for (a, pieces) in splice.ads.enumerated() where stitched.adMedia.indices.contains(a) {
                let path = stitched.adMedia[a]
                guard let ad = ads[path] else { return .failure(StitchBuildError("the ad \((path as NSString).lastPathComponent) was not read")) }
                let aspect = Rational(ad.aspectNumerator, ad.aspectDenominator)
                let picture = PixelRect(x: 0, y: 0, width: size.width, height: size.height).fitting(aspect: aspect)
                add(.ad, source: path, sourceFps: Rational(ad.rateNumerator, ad.rateDenominator).fraction, break: stitched.index,
                    ad: stitched.ads[a], frames: pieces.reduce(0) { $0 + $1.frames }, tick: 0, picture: Timeline.Rect(picture),
                    sourceSample: adShift)
            }
        }
        addContent(upTo: total)
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
            identity.append("\(file):\(stamp.size):\(stamp.modified.tv_sec).\(stamp.modified.tv_nsec)")
        }
        guard bytes <= maximumScannedBytes else {
            return .failure(StitchBuildError("its segments and source are \(bytes) bytes, over the \(maximumScannedBytes) read to count its frames"))
        }
        let key = SHA256.hex("timeline-content-v2|" + identity.joined(separator: "|"))
        let segments = rendition.segmentFiles, source = rendition.source
        return await cache.entry("timelines", key: key, as: ContentEntry.self) { _ throws(StitchBuildError) in
            do throws(MediaError) {
                let scans = try segments.map { file throws(MediaError) in try MediaProbe.scanVideo(file) }
                let scan = try MediaProbe.scanVideo(source)
                let info = try MediaProbe.probe(source)
                guard let size = info.bestVideo?.size, let rate = info.bestVideo?.frameRate, let first = scan.firstPicture else {
                    throw MediaError.missingStream(path: source, kind: .video)
                }
                guard let lead = scans[0].firstPicture else { throw MediaError.missingStream(path: segments[0], kind: .video) }
                return ContentEntry(segmentFrames: scans.map(\.frames), sourceFrames: scan.frames,
                                    firstPictureNumerator: first.seconds.numerator, firstPictureDenominator: first.seconds.denominator,
                                    streamLeadNumerator: lead.seconds.numerator, streamLeadDenominator: lead.seconds.denominator,
                                    rateNumerator: rate.perSecond.numerator, rateDenominator: rate.perSecond.denominator, width: size.width, height: size.height, sampleRate: info.bestAudio?.sampleRate ?? 48_000,
                                    channels: info.bestAudio?.channels ?? 2)
            } catch {
                throw StitchBuildError("the rendition's frames cannot be counted: \(error)")
            }
        }
    }

    /// An ad's frame rate and display aspect, read once per change of its file.
    private static func adEntry(_ path: String, cache: StitchCache) async -> Result<AdEntry, StitchBuildError> {
        guard let stamp = FileStamp(path) else { return .failure(StitchBuildError("\((path as NSString).lastPathComponent): cannot be read")) }
        let key = SHA256.hex("timeline-ad-v1|\(path):\(stamp.size):\(stamp.modified.tv_sec).\(stamp.modified.tv_nsec)")
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
