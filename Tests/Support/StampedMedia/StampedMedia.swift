import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import LoopbackServer
import MediaCore
import Rendering
import Testing
import Verification
import VideoPipeline

/// Stamped test sources made by `TestSourceGenerator` once (`TestFixtures`) and copied once per test process into a
/// temporary directory removed at exit, and what the stitching and verification tests check on every render.
///
/// Tests only read the clips; renders that several tests share, made once like the clips, are written beside them.
/// The clips are short and small (content 10 s at 320x180, ads of a second or so) so that the whole suite stays
/// fast on two cores; each has its own source id and its own tone, so that the verifier can tell them apart by
/// picture and by sound.
package struct StampedMedia: Sendable {
    /// One generated clip and what it was made with.
    package struct Clip: Sendable {
        package var path: String
        package var id: String
        package var size: PixelSize
        package var rate: FrameRate
        package var duration: MediaDuration
        package var tone: Int
        package var sampleRate: Int
        package var channels: Int
        /// The file name inside `directory`, as a `--break` value names it.
        package var name: String { (path as NSString).lastPathComponent }
    }

    package let directory: String
    /// 320x180, 30 fps, 10 s, 48 kHz stereo, 440 Hz.
    package let content: Clip
    /// 320x180, 25 fps, 10 s, 48 kHz stereo, 440 Hz.
    package let content25: Clip
    /// 1 s ads at 24, 25, 30000/1001 and 60 fps, 320x180, 48 kHz stereo.
    package let ad24: Clip
    package let ad25: Clip
    package let ad2997: Clip
    package let ad60: Clip
    /// A 1 s portrait ad (180x320, 30 fps).
    package let portrait: Clip
    /// A 1.2 s ad with 44.1 kHz mono sound (36 frames at 30 fps: a length that is not a multiple of 5 frames, so
    /// that at 30000/1001 fps, where 5 frames are exactly 8008 samples, it shifts the phase of the sample clock).
    package let mono: Clip

    /// The clips, made on first use. A `static let` is initialised once, thread-safely, however many tests ask
    /// at the same time.
    package static var shared: StampedMedia { get throws { try made.get() } }
    private static let made: Result<StampedMedia, any Error> = Result(catching: { try StampedMedia(generating: ()) })

    private init(generating: Void) throws {
        let directory = (NSTemporaryDirectory() as NSString)
            .appendingPathComponent("pipctl-stamped-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        StampedMedia.createdDirectory.withLock { $0 = directory }
        atexit { StampedMedia.removeDirectory() }
        let landscape = PixelSize(width: 320, height: 180)
        func clip(_ id: String, seconds: Rational = .one, size: PixelSize = landscape, rate: FrameRate = FrameRate(30), tone: Int,
                  sampleRate: Int = 48000, channels: Int = 2) -> Clip {
            Clip(path: (directory as NSString).appendingPathComponent("\(id).mp4"), id: id, size: size, rate: rate,
                 duration: MediaDuration(seconds: seconds), tone: tone, sampleRate: sampleRate,
                 channels: channels)
        }
        content = clip("content", seconds: Rational(10), tone: 440)
        content25 = clip("cont25", seconds: Rational(10), rate: FrameRate(25), tone: 440)
        ad24 = clip("ad24", rate: FrameRate(24), tone: 600)
        ad25 = clip("ad25", rate: FrameRate(25), tone: 750)
        ad2997 = clip("ad2997", rate: FrameRate(30000, 1001), tone: 950)
        ad60 = clip("ad60", rate: FrameRate(60), tone: 1150)
        portrait = clip("portrait", size: PixelSize(width: 180, height: 320), tone: 1350)
        mono = clip("mono", seconds: Rational(6, 5), tone: 1550, sampleRate: 44100, channels: 1)
        let all = [content, content25, ad24, ad25, ad2997, ad60, portrait, mono]
        // Made once into the fixture cache (keyed by the generator's sources and every clip's parameters), then
        // copied here: the tests write their renders beside the clips.
        let key = (["StampedMedia: TestSourceGenerator, x264 ultrafast",
                    TestFixtures.sources(["Sources/VideoPipeline", "Sources/MediaCore"])]
                   + all.map { "\($0.id) \($0.duration) \($0.size) \($0.rate) \($0.tone) \($0.sampleRate) \($0.channels)" })
            .joined(separator: "\n")
        let cached = try TestFixtures.directory(for: key) { made in
            let failures = LockedState<[String]>([])
            DispatchQueue.concurrentPerform(iterations: all.count) { i in
                let c = all[i]
                do {
                    _ = try TestSourceGenerator.generate(.init(
                        output: (made as NSString).appendingPathComponent(c.name), duration: c.duration, size: c.size,
                        frameRate: c.rate, sourceID: c.id, toneFrequency: c.tone, sampleRate: c.sampleRate,
                        channels: c.channels, encoding: StampedMedia.fast))
                } catch {
                    failures.withLock { $0.append("\(c.id): \(error)") }
                }
            }
            if let failure = failures.withLock({ $0.first }) { throw Failure(description: failure) }
        }
        for c in all { try TestFixtures.copy((cached as NSString).appendingPathComponent(c.name), to: c.path) }
    }

    private static let createdDirectory = LockedState<String?>(nil)

    private static func removeDirectory() {
        if let directory = createdDirectory.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: directory) }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// x264 `ultrafast`: what every delivery render of the tests uses.
    package static let fast = EncodingSettings(preset: "ultrafast")

    // MARK: - Plans and renders

    /// Plans `--break` values (files named relative to the clips' directory) over a content of `duration`.
    package func plan(_ breaks: [String], contentDuration: MediaDuration? = nil) throws -> AdPlan {
        try AdsLoader().plan(quickBreaks: breaks.map { try QuickBreak(parsing: $0) },
                             contentDuration: contentDuration ?? content.duration, relativeTo: directory)
    }

    /// A render request of `plan` over `content` (the 30 fps content by default) into `output`, encoded fast.
    package func request(_ plan: AdPlan, content: Clip? = nil, output: String, encoding: EncodingSettings = StampedMedia.fast)
        -> RenderRequest {
        RenderRequest(contentPath: (content ?? self.content).path, plan: plan, outputPath: output, encoding: encoding)
    }

    // MARK: - What every render must satisfy

    /// A segment as the tests compare it: its file, its break and ad, its output frames and its source ticks.
    package struct Piece: Hashable, CustomStringConvertible {
        package var source: String
        package var breakIndex: Int?
        package var adIndex: Int?
        package var out: Range<Int64>
        package var ticks: Range<Int64>

        package init(_ segment: Timeline.Segment) {
            source = (segment.source as NSString).lastPathComponent
            breakIndex = segment.breakIndex
            adIndex = segment.adIndex
            out = segment.outStartFrame..<segment.outEndFrame
            ticks = segment.srcStartTick..<segment.srcEndTick
        }

        package init(_ source: String, _ breakIndex: Int? = nil, _ adIndex: Int? = nil, out: Range<Int64>, ticks: Range<Int64>) {
            self.source = source
            self.breakIndex = breakIndex
            self.adIndex = adIndex
            self.out = out
            self.ticks = ticks
        }

        package var description: String {
            "\(source) b\(breakIndex.map(String.init) ?? "-")a\(adIndex.map(String.init) ?? "-") out \(out) ticks \(ticks)"
        }
    }

    /// Checks what every good render must satisfy and returns the verifier's report: the verifier passes with no
    /// problem; the segments tile the output; each segment's audio starts at `A(outStartFrame)` and the file's
    /// audio is exactly the samples of its frames; content plays every tick once, in order.
    @discardableResult
    package static func expectGoodRender(_ result: RenderResult, _ request: RenderRequest,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> VerifyReport {
        let timeline = result.timeline
        let report = try Verifier.verify(.init(outputPath: request.output.path))
        #expect(report.passed, "\(report.text)", sourceLocation: sourceLocation)
        #expect(report.problems.isEmpty, sourceLocation: sourceLocation)
        #expect(report.frames == timeline.output.frames, sourceLocation: sourceLocation)
        #expect(report.audioBoundaries.allSatisfy { $0.ok }, sourceLocation: sourceLocation)
        // The timeline written beside the output is the one returned.
        #expect(try Timeline.load(request.timelineFile) == timeline, sourceLocation: sourceLocation)

        let clock = try #require(FrameRate(parsing: timeline.output.fps)).sampleClock(timeline.output.sampleRate)
        #expect(timeline.segments.first?.outStartFrame == 0, sourceLocation: sourceLocation)
        #expect(timeline.segments.last?.outEndFrame == timeline.output.frames, sourceLocation: sourceLocation)
        for (before, after) in zip(timeline.segments, timeline.segments.dropFirst()) {
            #expect(after.outStartFrame == before.outEndFrame, "segments tile the output", sourceLocation: sourceLocation)
        }
        for segment in timeline.segments {
            #expect(segment.outEndFrame > segment.outStartFrame, sourceLocation: sourceLocation)
            #expect(segment.sound.start == clock.sample(atFrame: segment.outStartFrame), sourceLocation: sourceLocation)
        }
        #expect(timeline.output.audioSamples == clock.sample(atFrame: timeline.output.frames), sourceLocation: sourceLocation)
        #expect(contentTicks(timeline) == Array(0..<timeline.content.frames),
                "content plays every tick once, in order", sourceLocation: sourceLocation)
        return report
    }

    /// The content ticks the timeline shows, in output order (frozen frames not counted).
    package static func contentTicks(_ timeline: Timeline) -> [Int64] {
        timeline.segments.filter { $0.kind == .content && !$0.paused }.flatMap { $0.srcStartTick..<$0.srcEndTick }
    }

    /// The timeline's segments as the tests compare them.
    package static func pieces(_ timeline: Timeline) -> [Piece] { timeline.segments.map { Piece($0) } }

    /// The ad segments of the timeline, in output order.
    package static func adSegments(_ timeline: Timeline) -> [Timeline.Segment] {
        timeline.segments.filter { $0.kind == .ad }
    }

    // MARK: - The ffmpeg command-line tool

    package static let ffmpegPath = FFmpegCommandLine.path
    package static var hasFFmpeg: Bool { FFmpegCommandLine.isInstalled }

    /// Runs `ffmpeg -v error -y ARGUMENTS`; a failure throws with its messages.
    package static func ffmpeg(_ arguments: [String]) throws { try FFmpegCommandLine.run(arguments) }
}

extension FrameRate {
    /// The sample clock of this frame rate at `sampleRate`.
    package func sampleClock(_ sampleRate: Int) -> SampleClock { SampleClock(sampleRate: Int64(sampleRate), frameRate: self) }
}

extension RenderRequest {
    /// `OUT.timeline.json`, or the path given: every render of these tests writes media, so it has a timeline.
    package var timelineFile: String {
        guard let path = resolvedTimelinePath else { preconditionFailure("\(output.path): a render without media has no timeline") }
        return path
    }

    /// `OUT.events.jsonl`, or the path given.
    package var eventsFile: String {
        guard let path = resolvedEventsPath else { preconditionFailure("\(output.path): a render without media has no event log") }
        return path
    }
}
