import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// Gathers what `pipctl report` shows of a render: its timeline and event log (untrusted, bounded, checked against
/// the file they describe), thumbnails and loudness decoded from the output through VideoPipeline, and, when asked,
/// verify's verdict.
public enum RenderReportReader {
    /// The largest timeline read (a 2-hour render's is well under 1 MB).
    public static let maximumTimelineBytes = 64 << 20
    /// The largest event log read, the most lines (events and blank lines) in it, and the longest line: checked
    /// while it is read, before anything past them is decoded (docs/REPORT.md).
    public static let eventLimits = EventLogReader.Limits.renderLog
    public static var maximumEventBytes: Int { eventLimits.maximumBytes }
    public static var maximumEvents: Int { eventLimits.maximumLines }
    /// The prefix of an HLS render's joined MP4 in `$TMPDIR`: `pipctl-report-PID-UUID.mp4`.
    static let joinedPrefix = "pipctl-report-"

    /// A report and the thumbnails' pictures (for a contact sheet), which live as long as this value.
    public struct Gathered {
        public var report: RenderReport
        public var thumbnails: [Thumbnail]
    }

    /// Reads the render `files` names.
    /// - Parameter verify: run `Verifier` (or `HLSVerifier`) and show its verdict per run; a verify that cannot run
    ///   (sources without stamps) is shown as such, not thrown.
    /// - Throws: `ReportError.input` for a missing or hostile timeline or event log, or a missing output;
    ///   `.media` when the output cannot be decoded; `MediaError.interrupted` inside `.media` when `control` says.
    public static func read(_ files: RenderFiles, verify: Bool, control: JobControl = .none) throws(ReportError) -> Gathered {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: files.media, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .input(path: files.media, reason: isDirectory.boolValue ? "is a directory, not a render" : "no such file")
        }
        // The flag is looked at between the steps too, not only inside the media loops.
        func stopIfAsked() throws(ReportError) { if control.isCancelled() { throw .interrupted } }
        let data = try bounded(files.timeline, limit: maximumTimelineBytes, what: "timeline")
        try stopIfAsked()
        let timeline = try decodeTimeline(data, path: files.timeline)
        try stopIfAsked()

        // An HLS render is read from its segments joined into one MP4 (FFmpeg 5.1's HLS demuxer misreads fMP4 after
        // a seek, which loudness's decoder may do), removed when done.
        var joined: String?
        defer { if let joined { try? FileManager.default.removeItem(atPath: joined) } }
        let media: String
        if files.hlsDirectory != nil {
            removeAbandonedJoins(in: NSTemporaryDirectory())
            let path = NSTemporaryDirectory() + "/" + joinedPrefix + "\(getpid())-\(UUID().uuidString).mp4"
            do { try HLSSegmenter.remux(files.media, toMP4: path) } catch {
                try? FileManager.default.removeItem(atPath: path)
                throw .media(error)
            }
            joined = path
            media = path
        } else {
            media = files.media
        }

        let rendered: Timeline.RenderedMedia
        do { rendered = try Verifier.renderedMedia(media) } catch {
            if case .media(let e) = error { throw .media(e) }
            throw .input(path: files.media, reason: error.description)
        }
        try check(timeline, path: files.timeline, against: rendered)
        try stopIfAsked()
        let events = try readEvents(files.events)
        try stopIfAsked()

        // Loudness on a thread of its own while this one decodes the thumbnails.
        let measuring = rendered.audio != nil && timeline.output.sampleRate > 0
            ? BackgroundWork { () throws(ReportError) in try measureLoudness(media, timeline: timeline, control: control) } : nil
        let wanted = ThumbnailPlan.frames(timeline)
        let thumbnails: [Thumbnail]
        do {
            thumbnails = try Thumbnailer.thumbnails(of: media, frames: Set(wanted), width: ThumbnailPlan.width,
                                                    frameRate: FrameRate(parsing: timeline.output.fps),
                                                    crops: ThumbnailPlan.displays(timeline, frames: wanted), control: control)
        } catch {
            _ = try? measuring?.value()
            throw .media(error)
        }
        let loudness = try measuring?.value()

        var verdict: RunVerdicts?
        try stopIfAsked()
        if verify { verdict = runVerify(files, timeline: timeline) }
        try stopIfAsked()

        let pictures = thumbnails.map {
            RenderReport.Picture(frame: $0.frame, jpeg: Data($0.jpeg), width: $0.size.width, height: $0.size.height)
        }
        let report = try RenderReport(title: files.output, timeline: timeline, events: events, thumbnails: pictures,
                                      loudness: loudness, verdict: verdict, isCancelled: control.isCancelled)
        return Gathered(report: report, thumbnails: thumbnails)
    }

    /// The event log's events; none when the render has no log (`--no-events` was never a thing, but an older or
    /// copied render may lack it).
    static func readEvents(_ path: String) throws(ReportError) -> [SessionEvent] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard !isDirectory.boolValue else { throw .input(path: path, reason: "is a directory, not an event log") }
        do { return try EventLogReader.read(path: path, limits: eventLimits) } catch { throw eventLogError(error, path: path) }
    }

    /// The events of an event log's bytes, under the report's limits (the fuzz target's way in).
    static func decodeEvents(_ data: Data, path: String) throws(ReportError) -> [SessionEvent] {
        do { return try EventLogReader.decode(data, path: path, limits: eventLimits) } catch { throw eventLogError(error, path: path) }
    }

    private static func eventLogError(_ error: EventLogError, path: String) -> ReportError {
        switch error {
        case .malformedLine(_, let line, let reason): .input(path: path, reason: "line \(line): \(reason)")
        case .tooLarge(_, let reason), .cannotRead(_, let reason): .input(path: path, reason: reason)
        default: .input(path: path, reason: "\(error)")
        }
    }

    /// A timeline's bytes decoded, as the report reads them (the fuzz target's way in).
    static func decodeTimeline(_ data: Data, path: String) throws(ReportError) -> Timeline {
        do { return try Timeline.decode(data) } catch { throw .input(path: path, reason: error.description) }
    }

    /// Checks a decoded timeline as verify does: an output that could be rendered, every number bounded by the
    /// file it describes.
    static func check(_ timeline: Timeline, path: String, against rendered: Timeline.RenderedMedia) throws(ReportError) {
        do { try Verifier.checkRenderable(timeline, path: path) } catch { throw .input(path: path, reason: Self.reason(error)) }
        do { try timeline.checkBounds(against: rendered) } catch { throw .input(path: path, reason: error.description) }
    }

    /// Removes the joined MP4s in `directory` that runs killed by SIGKILL left (`pipctl-report-PID-….mp4`), those
    /// whose process is gone; a live process's, this one's included, is never touched. As `render --hls` clears
    /// its abandoned staging directories.
    static func removeAbandonedJoins(in directory: String) {
        AbandonedFiles.remove(in: directory, prefix: joinedPrefix, suffix: ".mp4")
    }

    /// The bytes of `path`, refused past `limit` before they are read.
    static func bounded(_ path: String, limit: Int, what: String) throws(ReportError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .input(path: path, reason: "no such file (the render's \(what))")
        }
        guard !isDirectory.boolValue else { throw .input(path: path, reason: "is a directory, not a \(what)") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .input(path: path, reason: "cannot be read") }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw ReportError.input(path: path, reason: "larger than \(limit >> 20) MB, more than a \(what) can be") }
            return data
        } catch let error as ReportError {
            throw error
        } catch {
            throw .input(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// Short-term loudness of the whole output and the integrated loudness of each segment's sound, from its first
    /// sample to the next segment's.
    static func measureLoudness(_ media: String, timeline: Timeline, control: JobControl) throws(ReportError) -> RenderReport.LoudnessTrack {
        let rate = Int64(timeline.output.sampleRate)
        let starts = timeline.segments.map(\.sound.start)
        let spans = starts.indices.map { i -> Range<MediaTime> in
            let start = max(0, starts[i])
            let end = max(start, i + 1 < starts.count ? starts[i + 1] : timeline.output.audioSamples)
            return MediaTime(value: start, timeBase: Rational(1, rate))..<MediaTime(value: end, timeBase: Rational(1, rate))
        }
        do {
            let measured = try LoudnessAnalysis.measure(file: media, spans: spans, control: control)
            return RenderReport.LoudnessTrack(step: LoudnessAnalysis.Report.shortTermStep.seconds.doubleValue,
                                              shortTerm: measured.shortTerm, segments: measured.spans.map(\.integrated),
                                              integrated: measured.whole.integrated)
        } catch {
            throw .media(error)
        }
    }

    /// Verify's verdict per run; a verify that cannot run is "not checked", saying why.
    static func runVerify(_ files: RenderFiles, timeline: Timeline) -> RunVerdicts {
        do {
            let report = try files.hlsDirectory != nil
                ? HLSVerifier.verify(playlist: files.media, timelinePath: files.timeline)
                : Verifier.verify(.init(outputPath: files.media, timelinePath: files.timeline))
            return RunVerdicts(report, timeline: timeline)
        } catch {
            return RunVerdicts(notChecked: error.description, timeline: timeline)
        }
    }

    private static func reason(_ error: Verifier.Failure) -> String {
        if case .timeline(_, let reason) = error { return reason }
        return error.description
    }
}
