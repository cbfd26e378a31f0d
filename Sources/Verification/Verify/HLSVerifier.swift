import AdPlayback
import AdScreen
import Foundation
import MediaCore
import Rendering
import VideoPipeline

/// `pipctl verify` of an HLS render (`render --hls DIR`): the playlist's markers against the timeline, then the
/// frames, decoded through libavformat's HLS demuxer, as `Verifier` checks an MP4.
///
/// Markers: each break of the timeline starts a segment; before it, `EXT-X-CUE-OUT` with the break's length and
/// the date range `break-N` with `START-DATE` at the break's time after `EXT-X-PROGRAM-DATE-TIME`, its `DURATION`,
/// and `SCTE35-OUT` decoding to a `splice_insert` (event N+1, out of network, at the break's PTS in the segments'
/// container, with its duration); before the first segment after it, `EXT-X-CUE-IN` and `SCTE35-IN` (back in the
/// network at the break's end). No other markers, and the segments last exactly the render's frames.
public enum HLSVerifier {
    /// The media playlist `path` names: `DIR`, `DIR/master.m3u8` (its variant) or the media playlist itself;
    /// `nil` when `path` is neither a directory nor an `.m3u8`.
    public static func mediaPlaylist(for path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return path + "/" + HLSRender.mediaName
        }
        guard path.hasSuffix(".m3u8") else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("#EXT-X-STREAM-INF") else { return path }
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let uri = lines.drop(while: { !$0.hasPrefix("#EXT-X-STREAM-INF") }).dropFirst().first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else {
            return path
        }
        return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(uri).path
    }

    /// Verifies the HLS render whose media playlist is `playlistPath`, with `timeline.json` and `events.jsonl`
    /// beside it unless `timelinePath` says otherwise: its markers, then its frames from their stamps.
    public static func verify(playlist playlistPath: String, timelinePath: String? = nil, goldenPath: String? = nil,
                              goldenScope: GoldenScope = .all) throws(Verifier.Failure) -> VerifyReport {
        let render = try Render(playlist: playlistPath, timelinePath: timelinePath, goldenPath: goldenPath, goldenScope: goldenScope)
        defer { render.remove() }
        var report = try Verifier.verify(render.request)
        report.findings = render.markers + report.findings
        report.passed = report.passed && render.markers.isEmpty
        if let note = render.note { report.notes.append(note) }
        return report
    }

    /// `verify --sources` of an HLS render: its markers, then its frames matched to the source files by their
    /// fingerprints (any content and ads, no stamps needed).
    public static func verifySources(playlist playlistPath: String, timelinePath: String? = nil, goldenPath: String? = nil,
                                     goldenScope: GoldenScope = .all) throws(Verifier.Failure) -> SourceReport {
        let render = try Render(playlist: playlistPath, timelinePath: timelinePath, goldenPath: goldenPath, goldenScope: goldenScope)
        defer { render.remove() }
        var report = try SourceVerifier.verify(render.request)
        report.findings = render.markers + report.findings
        if !render.markers.isEmpty { report.verdict = .failed }
        if let note = render.note { report.notes.append(note) }
        return report
    }

    /// An HLS render read for verifying: its playlist's markers checked against the timeline, and its streams
    /// copied, as FFmpeg's HLS demuxer reads them from start to end, into one temporary MP4 for the checks that seek
    /// (`Verifier.Request.seekablePath`); the frames themselves are read from the playlist.
    struct Render {
        let request: Verifier.Request
        let markers: [VerifyFinding]
        let note: String?
        /// The temporary MP4 of an fMP4 render's streams.
        private let joined: String?

        init(playlist playlistPath: String, timelinePath: String?, goldenPath: String?, goldenScope: GoldenScope) throws(Verifier.Failure) {
            let directory = URL(fileURLWithPath: playlistPath).deletingLastPathComponent().path
            let timelinePath = timelinePath ?? directory + "/" + HLSRender.timelineName
            guard let text = try? String(contentsOfFile: playlistPath, encoding: .utf8) else {
                throw .media(FileManager.default.fileExists(atPath: playlistPath) ? .unreadable(path: playlistPath, function: "read", message: "not UTF-8 text")
                             : .fileNotFound(path: playlistPath))
            }
            let reading: HLSPlaylistReading
            do { reading = try HLSPlaylistReading(text: text, file: playlistPath) } catch { throw .playlist(error) }
            let timeline = try Verifier.load(timelinePath)
            guard let rate = FrameRate(parsing: timeline.output.fps) else {
                throw .timeline(path: timelinePath, reason: "output.fps: \"\(timeline.output.fps)\" is not a frame rate")
            }
            let ptsOffset: Int64
            do { ptsOffset = try HLSSegmenter.firstVideoPTS(playlistPath) } catch { throw .media(error) }
            markers = HLSVerifier.markerProblems(reading, timeline: timeline, rate: rate, ptsOffset: ptsOffset)
            note = markers.isEmpty ? "HLS: \(reading.playlist.segments.count) segments; \(reading.dateRanges.count) break(s) marked as the timeline says" : nil
            // fMP4 only: MPEG-TS segments seek correctly through the HLS demuxer.
            if reading.playlist.map != nil {
                TemporaryRemux.removeAbandoned()
                guard let path = TemporaryRemux.make() else { throw .media(.interrupted) }
                do { try HLSSegmenter.remux(playlistPath, toMP4: path) } catch {
                    TemporaryRemux.remove(path)
                    throw .media(error)
                }
                joined = path
            } else {
                joined = nil
            }
            request = Verifier.Request(outputPath: playlistPath, timelinePath: timelinePath, goldenPath: goldenPath,
                                       goldenScope: goldenScope, eventsPath: directory + "/" + HLSRender.eventsName, seekablePath: joined)
        }

        func remove() { if let joined { TemporaryRemux.remove(joined) } }
    }

    /// What is wrong with the playlist's segments and markers; empty when they match the timeline.
    static func markerProblems(_ reading: HLSPlaylistReading, timeline: Timeline, rate: FrameRate, ptsOffset: Int64) -> [VerifyFinding] {
        var problems: [VerifyFinding] = []
        let segments = reading.playlist.segments
        // Where each segment starts, in frames; a duration that is not whole frames is itself a problem.
        var starts: [Int64] = [], frame: Int64 = 0
        for (i, segment) in segments.enumerated() {
            starts.append(frame)
            let frames = segment.duration * rate.perSecond
            let whole = frames.rounded
            // EXTINF has six decimals: within half a microsecond of a whole number of frames.
            let error = frames - Rational(whole)
            if Rational.max(error, .zero - error) * Rational(2_000_000) > rate.perSecond {
                problems.append(.init(.hlsSegmentDuration(segment: i, uri: segment.uri, seconds: segment.duration.doubleValue)))
            }
            frame += whole
        }
        if frame != timeline.output.frames {
            problems.append(.init(.hlsLength(frames: frame, expected: timeline.output.frames)))
        }
        func seconds(_ frames: Int64) -> Rational { Rational(frames) / rate.perSecond }
        func ticks(_ frames: Int64) -> UInt64 { UInt64((seconds(frames) * Rational(SpliceInfoSection.clockRate)).rounded) }
        /// Equal to six decimals, as the playlist writes them.
        func close(_ a: Rational?, _ b: Rational) -> Bool { a.map { Rational.max($0 - b, b - $0) * Rational(2_000_000) <= Rational(1) } ?? false }
        let breaks = HLSRender.breaks(of: timeline, plan: nil)
        let origin = reading.playlist.programDateTime
        for b in breaks {
            let marked = VerifyFinding.Break(index: b.index, startFrame: b.startFrame, endFrame: b.endFrame)
            let length = seconds(b.endFrame - b.startFrame)
            guard let first = starts.firstIndex(of: b.startFrame) else {
                problems.append(.init(.hlsBreakStart(adBreak: marked)))
                continue
            }
            let after = starts.firstIndex(of: b.endFrame)
            if b.endFrame != frame, after == nil { problems.append(.init(.hlsBreakEnd(adBreak: marked))) }
            if !reading.cueOuts.contains(where: { $0.segment == first && close($0.duration, length) }) {
                problems.append(.init(.hlsCueOut(adBreak: marked, seconds: length.doubleValue, segment: first)))
            }
            if let after, !reading.cueIns.contains(after) {
                problems.append(.init(.hlsCueIn(adBreak: marked, segment: after)))
            }
            guard let range = reading.dateRanges.first(where: { $0.id == "break-\(b.index)" }) else {
                problems.append(.init(.hlsDateRangeMissing(adBreak: marked)))
                continue
            }
            if let origin, abs(range.startDate.timeIntervalSince(origin) - seconds(b.startFrame).doubleValue) > 0.0005 {
                problems.append(.init(.hlsStartDate(adBreak: marked, seconds: range.startDate.timeIntervalSince(origin),
                                                    expected: seconds(b.startFrame).doubleValue)))
            }
            if range.segment != first { problems.append(.init(.hlsDateRangeSegment(adBreak: marked, segment: range.segment, expected: first))) }
            if !close(range.duration, length) {
                problems.append(.init(.hlsDateRangeDuration(adBreak: marked, seconds: range.duration?.doubleValue, expected: length.doubleValue)))
            }
            let out = SpliceInfoSection.SpliceInsert(eventID: UInt32(b.index + 1), outOfNetwork: true, pts: ticks(b.startFrame) + UInt64(ptsOffset),
                                                     breakDuration: .init(autoReturn: true, duration: ticks(b.endFrame - b.startFrame)))
            if range.scte35Out?.command != .spliceInsert(out) {
                problems.append(.init(.hlsSCTE35Out(adBreak: marked, found: range.scte35Out, pts: out.pts!,
                                                    ticks: ticks(b.endFrame - b.startFrame))))
            }
            if let after {
                let back = SpliceInfoSection.SpliceInsert(eventID: UInt32(b.index + 1), outOfNetwork: false, pts: ticks(b.endFrame) + UInt64(ptsOffset))
                if range.scte35In?.command != .spliceInsert(back) || range.inSegment != after {
                    problems.append(.init(.hlsSCTE35In(adBreak: marked, found: range.scte35In, pts: back.pts!,
                                                       segment: after)))
                }
            }
        }
        if reading.dateRanges.count != breaks.count || reading.cueOuts.count != breaks.count {
            problems.append(.init(.hlsMarkerCount(dateRanges: reading.dateRanges.count, cueOuts: reading.cueOuts.count, breaks: breaks.count)))
        }
        return problems
    }
}
