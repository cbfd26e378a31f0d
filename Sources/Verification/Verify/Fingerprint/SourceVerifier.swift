import AdPlayback
import AdScreen
import Dispatch
import Foundation
import MediaCore
import VideoPipeline

/// Verifies a render against the timeline's own sources, without stamps: `pipctl verify OUT --sources`.
///
/// Every frame of every source and every output frame (inside the picture rectangle the timeline gives it) gets a
/// `FrameSignature`. Output frame `n` of a segment should show the source frame `k` the renderer's frame-rate rule
/// gives tick `j = srcStartTick + n − outStartFrame` from the source frames' real start times (`SourceFrames`, noted
/// while the scanner decodes them, as `Verifier.expectations` does for stamps); it is compared with
/// source frames `k − 2 … k + 2`, so a lost, repeated or shifted frame shows as the offset of the best match. A match
/// counts only when the best candidate is clearly nearer than the second best; static or black runs are reported
/// as not verifiable instead of guessed. The sound is aligned by cross-correlation at each splice.
public enum SourceVerifier {
    /// Nearer than this (signature distance, 0…≈2) a picture is "this source"; farther, it shows something else.
    static let matchDistance: Float = 0.5
    /// The best candidate must beat the second best by this much, and be at most half as far (codec noise keeps
    /// the true frame within about 0.0005; consecutive frames of slow motion, a zoom, differ by 0.002 or more).
    static let margin: Float = 0.0005
    /// How far either way the neighbours of the expected frame are searched.
    static let reach = 2
    /// How far (in output frames) a splice is searched for having moved: frames this close to a segment are also
    /// read inside that segment's picture rectangle.
    static let boundaryReach = 15

    public static func verify(_ request: Verifier.Request) throws(Verifier.Failure) -> SourceReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: request.outputPath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .media(isDirectory.boolValue ? .isDirectory(path: request.outputPath) : .fileNotFound(path: request.outputPath))
        }
        let timelinePath = request.timelinePath ?? request.outputPath + ".timeline.json"
        let timeline = try Verifier.load(timelinePath)
        let golden = try request.goldenPath.map { p throws(Verifier.Failure) in try Verifier.load(p) }
        let media = try Verifier.renderedMedia(request.outputPath)
        try Verifier.checkRenderable(timeline, path: timelinePath)
        let rate: FrameRate
        do { rate = try timeline.checkBounds(against: media) } catch {
            throw .timeline(path: timelinePath, reason: error.description)
        }
        let bases = [URL(fileURLWithPath: timelinePath).deletingLastPathComponent().path]
            + (request.goldenPath.map { [URL(fileURLWithPath: $0).deletingLastPathComponent().path] } ?? [])
        var plan = try Plan(timeline, rate: rate, frameLimit: media.frames, bases: bases, path: timelinePath)
        var goldenPlan: Plan?
        if let golden, let goldenPath = request.goldenPath {
            let goldenRate: FrameRate
            do { goldenRate = try golden.checkGoldenBounds(against: media) } catch {
                throw .timeline(path: goldenPath, reason: error.description)
            }
            if request.goldenScope.includes(.frames) {
                goldenPlan = try Plan(golden, rate: goldenRate, frameLimit: media.frames, bases: bases, path: goldenPath)
            }
        }
        let scans = try scan(output: request.outputPath, plans: [plan] + (goldenPlan.map { [$0] } ?? []))
        plan.timings = scans.timings
        goldenPlan?.timings = scans.timings

        var problems: [VerifyFinding] = []
        var notes: [String] = []
        if Int64(scans.output.count) != timeline.output.frames {
            problems.append(.init(.frameCount(found: Int64(scans.output.count), expected: timeline.output.frames, against: .timeline)))
        }
        let matches = match(plan, scans: scans)
        let segments = describe(plan, matches: matches, scans: scans, against: .timeline, problems: &problems, notes: &notes)
        if let goldenPlan, let golden {
            if golden.output.fps != timeline.output.fps || golden.output.width != timeline.output.width
                || golden.output.height != timeline.output.height {
                problems.append(.init(.format(found: .init(timeline.output), expected: .init(golden.output))))
            }
            if Int64(scans.output.count) != golden.output.frames {
                problems.append(.init(.frameCount(found: Int64(scans.output.count), expected: golden.output.frames, against: .golden)))
            }
            var ignored: [String] = []
            _ = describe(goldenPlan, matches: match(goldenPlan, scans: scans), scans: scans, against: .golden,
                         problems: &problems, notes: &ignored)
        }
        if let golden, let goldenPath = request.goldenPath {
            let screen = GoldenComparison.compare(timeline, eventsPath: request.events, golden: golden, goldenPath: goldenPath,
                                                  scope: request.goldenScope)
            problems += screen.problems
            notes += screen.notes
        }
        let audio = try audioAlignment(request.seekable, timeline: timeline, plan: plan, rate: rate,
                                       problems: &problems, notes: &notes)
        let layers = try Verifier.checkLayers(timeline, rate: rate, outputPath: request.seekable, timelinePath: timelinePath,
                                              frameLimit: Int64(scans.output.count), problems: &problems)
        let players = try players(request.seekable, timeline: timeline, rate: rate, frameLimit: Int64(scans.output.count), bases: bases)
        problems += players.problems
        notes += players.notes
        let loudness = try Verifier.loudness(request.seekable, timeline: timeline, rate: rate, problems: &problems)
        let verdict: SourceReport.Verdict = !problems.isEmpty ? .failed
            : segments.contains { $0.identified == 0 && $0.outEndFrame > $0.outStartFrame } || !layers.notVerifiable.isEmpty
                || players.unverifiable ? .notVerifiable : .passed
        return SourceReport(verdict: verdict, output: request.outputPath, frames: Int64(scans.output.count),
                            segments: segments, audio: audio, findings: problems, notes: notes,
                            layers: layers, loudness: loudness)
    }

    // MARK: - What each output frame should show

    /// A timeline resolved against its sources: for each output frame, the segment and the source tick it shows.
    struct Plan {
        struct Frame {
            var segment: Int
            /// The source tick the output frame shows (at the output rate, from the source's start).
            var tick: Int64
        }

        var timeline: Timeline
        var rate: FrameRate
        /// Resolved paths, by segment.
        var paths: [String]
        var frames: [Frame]
        /// When each source's frames start, by resolved path: set once the sources are scanned.
        var timings: [String: SourceFrames] = [:]

        init(_ timeline: Timeline, rate: FrameRate, frameLimit: Int64, bases: [String], path: String) throws(Verifier.Failure) {
            self.timeline = timeline
            self.rate = rate
            paths = timeline.segments.map { SourceVerifier.resolve($0.source, bases: bases) }
            frames = []
            frames.reserveCapacity(Int(frameLimit))
            for (i, segment) in timeline.segments.enumerated() {
                do { _ = try Timeline.checkFrameRate(segment.sourceFps, path: "segments[\(i)].sourceFps") } catch {
                    throw .timeline(path: path, reason: error.description)
                }
                guard FileManager.default.fileExists(atPath: paths[i]) else {
                    throw .media(.fileNotFound(path: paths[i]))
                }
                for n in segment.outStartFrame..<min(segment.outEndFrame, frameLimit) where Int64(frames.count) == n {
                    frames.append(Frame(segment: i, tick: tick(segment: i, outputFrame: n)))
                }
            }
        }

        /// The source tick segment `i` would show at output frame `n` (extrapolated outside the segment).
        func tick(segment i: Int, outputFrame n: Int64) -> Int64 {
            let segment = timeline.segments[i]
            return segment.paused ? segment.srcStartTick : segment.srcStartTick + (n - segment.outStartFrame)
        }

        /// The source frame segment `i` would show at output frame `n` (extrapolated outside the segment): the
        /// renderer's frame-rate rule on the source frames' real start times, among the frames scanned.
        func index(segment i: Int, outputFrame n: Int64) -> Int64 {
            guard let timing = timings[paths[i]] else { return 0 }
            return Int64(timing.frame(atTick: tick(segment: i, outputFrame: n), outputRate: rate))
        }

        /// The picture rectangles output frame `n` is read in: its segment's, and those of segments whose splice
        /// is within `boundaryReach` (a boundary that moved shows the neighbour's picture in the neighbour's place).
        func pictures(near n: Int64) -> [PixelRect] {
            let reach = Int64(SourceVerifier.boundaryReach)
            return timeline.segments.filter { $0.outStartFrame - reach <= n && n < $0.outEndFrame + reach }.map(\.picture.pixelRect)
        }
    }

    static func resolve(_ path: String, bases: [String]) -> String {
        if FileManager.default.fileExists(atPath: path) || path.hasPrefix("/") { return path }
        for base in bases {
            let candidate = URL(fileURLWithPath: base).appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return path
    }

    // MARK: - Signatures

    struct Scans {
        /// Per output frame, its signature inside each picture rectangle it is compared in.
        var output: [[PixelRect: FrameSignature]]
        var sources: [String: [FrameSignature]]
        /// When each source's frames start, by path.
        var timings: [String: SourceFrames]
    }

    /// Decodes the output and every source at once (one job per file, spread over the cores), keeping only
    /// signatures and each source frame's start, and each source only as far as a plan reaches into it (with the
    /// ticks a moved splice is searched over).
    static func scan(output: String, plans: [Plan]) throws(Verifier.Failure) -> Scans {
        var limits: [String: MediaTime] = [:]
        for plan in plans {
            for frame in plan.frames {
                let path = plan.paths[frame.segment]
                let time = plan.rate.time(ofFrame: frame.tick + Int64(boundaryReach + reach))
                limits[path] = max(limits[path] ?? time, time)
            }
        }
        let rate = plans[0].rate
        let pictures: [[PixelRect]] = (0..<(plans.map(\.frames.count).max() ?? 0)).map { n in
            Array(Set(plans.flatMap { $0.pictures(near: Int64(n)) })).sorted { ($0.y, $0.x, $0.height, $0.width) < ($1.y, $1.x, $1.height, $1.width) }
        }
        let jobs: [(path: String, time: MediaTime?)] = [(output, nil)] + limits.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        enum Scanned { case output([[FrameSignature]]), source([FrameSignature], SourceFrames) }
        let results = LockedState<[Int: Result<Scanned, MediaError>]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let result: Result<Scanned, MediaError>
            do throws(MediaError) {
                let scanner = try FingerprintScanner(path: jobs[i].path, threads: 2)
                if i == 0 {
                    result = .success(.output(try scanner.scan(regions: { n in n < Int64(pictures.count) ? pictures[Int(n)] : [] })))
                } else {
                    let (signatures, frames) = try scanner.scanSource(outputRate: rate, through: jobs[i].time, extra: reach + 3)
                    result = .success(.source(signatures, frames))
                }
            } catch {
                result = .failure(error)
            }
            results.withLock { $0[i] = result }
        }
        let all = results.withLock { $0 }
        var scans = Scans(output: [], sources: [:], timings: [:])
        for i in jobs.indices {
            switch all[i]! {
            case .failure(let error): throw .media(error)
            case .success(.output(let rows)):
                scans.output = rows.enumerated().map { n, signatures in
                    n < pictures.count ? Dictionary(uniqueKeysWithValues: zip(pictures[n], signatures)) : [:]
                }
            case .success(.source(let signatures, let frames)):
                scans.sources[jobs[i].path] = signatures
                scans.timings[jobs[i].path] = frames
            }
        }
        return scans
    }
}
