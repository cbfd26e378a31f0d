import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// Proves what an ad-stitched output shows, from its pixels and its sound: `pipctl verify`.
///
/// Every output frame's stamp is read (inside the picture rectangle the timeline gives, or searched for), and
/// compared with what the timeline promises under the frame-rate rule: output frame `n` of a segment shows source
/// tick `j = srcStartTick + (n − outStartFrame)`, which is the source frame whose real start is nearest to `j / F`
/// (`SourceFrames`; `⌊j × Fs / F + ½⌋` for a file that starts at zero and keeps its rate). Content must move
/// forward with no frame lost or repeated at a splice. Each segment's audio must carry its source's tone, and
/// every change of tone must sit within one video frame of the video boundary. Against a golden timeline the
/// same pixels are compared with the golden's promises, so a moved break is reported in words, and the timeline's
/// picture-in-picture windows, screen layers and event log with the golden's (`GoldenComparison`).
public enum Verifier {
    public struct Request: Sendable {
        public var outputPath: String
        /// Defaults to `OUT.timeline.json`.
        public var timelinePath: String?
        public var goldenPath: String?
        /// What is compared with the golden (`--expect-only`): everything by default.
        public var goldenScope: GoldenScope
        /// Defaults to `OUT.events.jsonl` (its seeks explain content that jumps).
        public var eventsPath: String?
        /// The same media as `outputPath` in a file FFmpeg can seek in, for the checks that seek (the sound,
        /// screen layers, other players): an HLS render's segments joined, since FFmpeg 5.1's HLS demuxer misreads
        /// fMP4 segments after a seek. `outputPath` itself when `nil`.
        public var seekablePath: String?

        public init(outputPath: String, timelinePath: String? = nil, goldenPath: String? = nil, goldenScope: GoldenScope = .all,
                    eventsPath: String? = nil, seekablePath: String? = nil) {
            self.outputPath = outputPath
            self.timelinePath = timelinePath
            self.goldenPath = goldenPath
            self.goldenScope = goldenScope
            self.eventsPath = eventsPath
            self.seekablePath = seekablePath
        }

        /// Where the checks that seek read the output.
        var seekable: String { seekablePath ?? outputPath }

        /// Where the output's event log is read.
        var events: String { eventsPath ?? outputPath + ".events.jsonl" }
    }

    /// Why verification could not run at all (as opposed to finding problems).
    public enum Failure: Error, CustomStringConvertible {
        case media(MediaError)
        case timeline(path: String, reason: String)
        case unstampedSource(path: String)
        /// An HLS playlist that cannot be read.
        case playlist(HLSPlaylistError)

        public var description: String {
            switch self {
            case .media(let e): "\(e)"
            case .timeline(let path, let reason): "\(path): \(reason)"
            case .unstampedSource(let path): "\(path): carries no frame stamps; verify needs sources made by `pipctl testsrc`"
            case .playlist(let error): "\(error)"
            }
        }
    }

    /// The narrowest picture whose stamp reads reliably (see `StampReader`); smaller ones are noted, not judged.
    static let minimumReadableWidth = 96

    public static func verify(_ request: Request) throws(Failure) -> VerifyReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: request.outputPath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .media(isDirectory.boolValue ? .isDirectory(path: request.outputPath) : .fileNotFound(path: request.outputPath))
        }
        let timelinePath = request.timelinePath ?? request.outputPath + ".timeline.json"
        let timeline = try load(timelinePath)
        let golden = try request.goldenPath.map { p throws(Failure) in try load(p) }
        // Every number of a timeline is bounded by the file it describes before anything is sized by it.
        let media = try renderedMedia(request.outputPath)
        try checkRenderable(timeline, path: timelinePath)
        let rate: FrameRate
        do { rate = try timeline.checkBounds(against: media) } catch {
            throw .timeline(path: timelinePath, reason: error.description)
        }
        var sources = SourceCatalog(baseDirectories: [URL(fileURLWithPath: timelinePath).deletingLastPathComponent().path]
                                    + (request.goldenPath.map { [URL(fileURLWithPath: $0).deletingLastPathComponent().path] } ?? []))
        let expected = try expectations(timeline, rate: rate, frameLimit: media.frames, sources: &sources, path: timelinePath)
        let observed = try observe(request.outputPath, expectations: expected)
        var problems: [VerifyFinding] = []
        var notes: [String] = []

        if Int64(observed.count) != timeline.output.frames {
            problems.append(.init(.frameCount(found: Int64(observed.count), expected: timeline.output.frames, against: .timeline)))
        }
        problems += compare(observed: observed, expected: expected, against: .timeline, notes: &notes)
        problems += continuity(timeline, seekFrames: try seekFrames(request.events))
        let layers = try checkLayers(timeline, rate: rate, outputPath: request.seekable, timelinePath: timelinePath,
                                     frameLimit: Int64(observed.count), problems: &problems)
        problems += try players(request.seekable, timeline: timeline, rate: rate, frameLimit: media.frames,
                                sources: &sources, timelinePath: timelinePath)
        if let golden, let goldenPath = request.goldenPath {
            let goldenRate: FrameRate
            do { goldenRate = try golden.checkGoldenBounds(against: media) } catch {
                throw .timeline(path: goldenPath, reason: error.description)
            }
            if request.goldenScope.includes(.frames) {
                if golden.output.fps != timeline.output.fps || golden.output.width != timeline.output.width
                    || golden.output.height != timeline.output.height {
                    problems.append(.init(.format(found: .init(timeline.output), expected: .init(golden.output))))
                }
                let goldenExpected = try expectations(golden, rate: goldenRate, frameLimit: media.frames, sources: &sources, path: goldenPath)
                if Int64(observed.count) != golden.output.frames {
                    problems.append(.init(.frameCount(found: Int64(observed.count), expected: golden.output.frames, against: .golden)))
                }
                var ignored: [String] = []
                problems += compare(observed: observed, expected: goldenExpected, against: .golden, notes: &ignored)
            }
            let screen = GoldenComparison.compare(timeline, eventsPath: request.events, golden: golden, goldenPath: goldenPath,
                                                  scope: request.goldenScope)
            problems += screen.problems
            notes += screen.notes
        }
        let boundaries = try audio(request.seekable, timeline: timeline, rate: rate, sources: &sources, problems: &problems,
                                   notes: &notes)
        let loudness = try loudness(request.seekable, timeline: timeline, rate: rate, problems: &problems)
        return VerifyReport(passed: problems.isEmpty, output: request.outputPath, frames: Int64(observed.count),
                            shown: runs(observed.map(\.stamp)), audioBoundaries: boundaries, findings: problems, notes: notes,
                            layers: layers, loudness: loudness)
    }

    // MARK: - Expectations

    /// What one output frame should show.
    struct Expectation {
        var stamp: FrameStamp
        var segment: Timeline.Segment
        var segmentIndex: Int
    }

    static func load(_ path: String) throws(Failure) -> Timeline {
        guard FileManager.default.fileExists(atPath: path) else { throw .timeline(path: path, reason: "no such file") }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .timeline(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
        do { return try Timeline.decode(data) } catch { throw .timeline(path: path, reason: error.description) }
    }

    /// The numbers of the rendered file a timeline is bounded by: its real frame count (its video packets, counted
    /// without decoding), its length, picture size and sound.
    static func renderedMedia(_ path: String) throws(Failure) -> Timeline.RenderedMedia {
        do throws(MediaError) {
            let info = try MediaProbe.probe(path)
            guard let video = info.bestVideo, let size = video.size else { throw .missingStream(path: path, kind: .video) }
            let audio = info.bestAudio.flatMap { a in a.sampleRate.map { (sampleRate: $0, channels: a.channels ?? 0) } }
            let scan = try MediaProbe.scanVideo(path)
            return Timeline.RenderedMedia(frames: scan.frames, length: scan.end, size: size, audio: audio)
        } catch {
            throw .media(error)
        }
    }

    /// The timeline's format must be one pipctl renders (OutputFormat's rule: a rate from 1 to 240 fps, a sample
    /// rate from 8 to 192 kHz), so that no clock built from it can overflow.
    static func checkRenderable(_ timeline: Timeline, path: String) throws(Failure) {
        guard let rate = FrameRate(parsing: timeline.output.fps) else { return }
        let format = OutputFormat(size: PixelSize(width: timeline.output.width, height: timeline.output.height),
                                  frameRate: rate, sampleRate: timeline.output.sampleRate, channels: timeline.output.channels)
        do { try format.validate() } catch {
            guard case .invalidSetting(let name, let value, let reason) = error else { throw .media(error) }
            let key = switch name {
            case "fps": "output.fps"
            case "sample rate": "output.sampleRate"
            case "channels": "output.channels"
            default: "output.width"
            }
            throw .timeline(path: path, reason: "\(key): \(value) \(reason)")
        }
    }

    /// What each output frame below `frameLimit` should show; each segment's source ticks are bounded by its
    /// source's length and its rate by the source's own, before they are multiplied.
    static func expectations(_ timeline: Timeline, rate: FrameRate, frameLimit: Int64, sources: inout SourceCatalog,
                             path: String) throws(Failure) -> [Expectation] {
        var result: [Expectation] = []
        result.reserveCapacity(Int(frameLimit))
        for (i, segment) in timeline.segments.enumerated() where segment.outStartFrame < frameLimit {
            let source = try sources.describe(segment.source, outputRate: rate)
            let sourceRate: FrameRate
            do { sourceRate = try Timeline.checkFrameRate(segment.sourceFps, path: "segments[\(i)].sourceFps") } catch {
                throw .timeline(path: path, reason: error.description)
            }
            if source.declaresRate, sourceRate != source.rate {
                throw .timeline(path: path, reason: "segments[\(i)].sourceFps: \(segment.sourceFps) is not the frame rate of \(source.path), \(source.rate.perSecond.fraction)")
            }
            // A segment may run on past its source's end (the last frame holds), but it starts inside it.
            let ticks = source.ticks(at: rate, sourceRate: sourceRate)
            guard segment.srcStartTick <= ticks else {
                throw .timeline(path: path, reason: "segments[\(i)].srcStartTick: \(segment.srcStartTick) is past the end of \(source.path) (\(ticks) frames at \(rate.perSecond.fraction) fps)")
            }
            for n in segment.outStartFrame..<min(segment.outEndFrame, frameLimit) {
                let tick = segment.paused ? segment.srcStartTick : segment.srcStartTick + (n - segment.outStartFrame)
                // The renderer's rule on the source's real frame times (a late start, Opus's pre-roll, the last
                // frame held at a higher output rate), not on `k / Fs`.
                let index = source.timing.frame(atTick: tick, outputRate: rate)
                guard let stamp = try? FrameStamp(sourceID: source.id, frameIndex: index) else { continue }
                result.append(Expectation(stamp: stamp, segment: segment, segmentIndex: i))
            }
        }
        return result
    }

    // MARK: - Pixels

    struct Observation {
        var stamp: FrameStamp?
        /// The picture was too small for a stamp to be read reliably.
        var tooSmall: Bool
    }

    static func observe(_ path: String, expectations: [Expectation]) throws(Failure) -> [Observation] {
        let reader: FrameReader
        do { reader = try FrameReader(path: path) } catch { throw .media(error) }
        var result: [Observation] = []
        do {
            while let picture = try reader.next() {
                let n = result.count
                let rect = n < expectations.count ? expectations[n].segment.picture.pixelRect : nil
                var stamp = rect.flatMap { picture.readStamp(in: $0) }
                if stamp == nil { stamp = picture.locateStamp()?.stamp }
                result.append(Observation(stamp: stamp, tooSmall: stamp == nil && (rect?.width ?? Int.max) < minimumReadableWidth))
            }
        } catch {
            throw .media(error)
        }
        return result
    }

    /// Compares the pixels with the promises and finds where they part.
    static func compare(observed: [Observation], expected: [Expectation], against: VerifyFinding.Reference,
                        notes: inout [String]) -> [VerifyFinding] {
        var problems: [VerifyFinding] = []
        var smallFrames = 0
        var n = 0
        while n < min(observed.count, expected.count) {
            let want = expected[n], got = observed[n]
            if got.stamp == want.stamp { n += 1; continue }
            if got.tooSmall { smallFrames += 1; n += 1; continue }
            // Under a full-screen ad or a slider the player's picture is not on screen: that layer is checked instead.
            if want.segment.pictureCover != nil { n += 1; continue }
            problems.append(difference(at: n, observed: observed, expected: expected, against: against))
            // Skip to the next expected segment so that one shifted boundary is one problem, not hundreds.
            let segment = want.segmentIndex
            while n < min(observed.count, expected.count), expected[n].segmentIndex == segment { n += 1 }
            if problems.count >= 50 { break }
        }
        if smallFrames > 0 {
            notes.append("\(smallFrames) frames show their picture under \(minimumReadableWidth) px wide; their stamps were not checked")
        }
        return problems
    }

    /// What starts with the segment: `break 1` for a break's first ad, `ad 2 of break 1`, or `content`.
    static func name(_ segment: Timeline.Segment) -> String { VerifyFinding.Segment(segment).name }

    /// The segment's own ad (`ad 0 of break 1`), or `content`.
    static func fullName(_ segment: Timeline.Segment) -> String { VerifyFinding.Segment(segment).fullName }

    /// The first difference at frame `n`, as a person would see it: a boundary that moved, a source swapped, or a
    /// frame lost or repeated.
    static func difference(at n: Int, observed: [Observation], expected: [Expectation], against: VerifyFinding.Reference) -> VerifyFinding {
        let count = min(observed.count, expected.count)
        let want = expected[n]
        let got = observed[n].stamp
        /// Content resumes after its first segment; anything else starts.
        func resumes(_ e: Expectation) -> Bool { e.segment.kind == .content && e.segment.outStartFrame > 0 }
        // A later segment's source is already on screen: that segment started early. Unless this segment's
        // source is on screen where that one should begin: then the two traded places.
        if let got, got.sourceID != want.stamp.sourceID,
           let next = expected[n..<count].first(where: { $0.segmentIndex != want.segmentIndex && $0.stamp.sourceID == got.sourceID }),
           expected[n..<count].first(where: { $0.segmentIndex != want.segmentIndex })?.segmentIndex == next.segmentIndex,
           !(Int(next.segment.outStartFrame) < count
             && observed[Int(next.segment.outStartFrame)].stamp?.sourceID == want.stamp.sourceID) {
            return .init(.segmentStarted(frame: Int64(n), segment: .init(next.segment), resumes: resumes(next),
                                         expectedFrame: next.segment.outStartFrame, against: against))
        }
        // The previous source plays on where this segment should have begun, until this segment's source
        // appears: it started late.
        if let got, n > 0, got.sourceID != want.stamp.sourceID, got.sourceID == expected[n - 1].stamp.sourceID,
           Int64(n) == want.segment.outStartFrame {
            var m = n
            while m < count, observed[m].stamp?.sourceID == got.sourceID { m += 1 }
            if m < count, observed[m].stamp?.sourceID == want.stamp.sourceID {
                return .init(.segmentStarted(frame: Int64(m), segment: .init(want.segment), resumes: resumes(want),
                                             expectedFrame: Int64(n), against: against))
            }
        }
        if let got, got.sourceID == want.stamp.sourceID {
            // At a splice the offset says where the segment started, not that frames were lost or repeated: the
            // frames before it belong to another source.
            if Int64(n) == want.segment.outStartFrame, n > 0 {
                return .init(.segmentStartedAtFrame(frame: Int64(n), segment: .init(want.segment), resumes: resumes(want), shown: .init(got),
                                                    expected: Int64(want.stamp.frameIndex), against: against))
            }
            return .init(.frameShifted(frame: Int64(n), shown: .init(got), expected: Int64(want.stamp.frameIndex), against: against))
        }
        var end = n
        while end + 1 < count, expected[end + 1].segmentIndex == want.segmentIndex, observed[end + 1].stamp?.sourceID == got?.sourceID {
            end += 1
        }
        return .init(.sourceShown(first: Int64(n), last: Int64(end), shown: got?.sourceID, expected: want.stamp.sourceID,
                                  segment: .init(want.segment), against: against))
    }

    /// Content must go on where it paused: each content segment starts at the tick where the content had got
    /// to, unless the session logged a seek at that frame (in `OUT.events.jsonl`).
    static func continuity(_ timeline: Timeline, seekFrames: Set<Int64>) -> [VerifyFinding] {
        var problems: [VerifyFinding] = []
        var reached: Int64?
        var lastEnd: Int64 = 0
        for segment in timeline.segments where segment.kind == .content {
            defer { lastEnd = segment.outEndFrame }
            let sought = seekFrames.contains { $0 >= lastEnd - 1 && $0 <= segment.outStartFrame }
            if let reached, !segment.paused, segment.srcStartTick != reached, !sought {
                problems.append(.init(.contentDiscontinuity(frame: segment.outStartFrame, tick: segment.srcStartTick, expectedTick: reached)))
            }
            if !segment.paused { reached = segment.srcEndTick }
        }
        return problems
    }

    /// Frames at which the session applied a seek, from the event log beside the output (none if it is absent or
    /// malformed). The log is read as `report` reads it (`EventLogReader.Limits.renderLog`), each limit checked
    /// while it streams, before anything past it is decoded.
    /// - Throws: `Failure.timeline` naming the log when it is over a limit.
    static func seekFrames(_ eventsPath: String, limits: EventLogReader.Limits = .renderLog) throws(Failure) -> Set<Int64> {
        let events: [SessionEvent]
        do { events = try EventLogReader.read(path: eventsPath, limits: limits) } catch {
            guard case .tooLarge(_, let reason) = error else { return [] }
            throw .timeline(path: eventsPath, reason: reason)
        }
        return Set(events.compactMap { if case .command(let written) = $0.kind, written.hasPrefix("seek") { $0.frame } else { nil } })
    }

    static func runs(_ stamps: [FrameStamp?]) -> [VerifyReport.ShownRun] {
        StampScan(stamps: stamps).runs.map {
            VerifyReport.ShownRun(outStartFrame: $0.first, outEndFrame: $0.last + 1, source: $0.sourceID,
                                  firstIndex: $0.firstIndex, lastIndex: $0.lastIndex)
        }
    }
}
