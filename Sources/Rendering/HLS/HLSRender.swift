import AdDecisioning
import AdPlayback
import Foundation
import MediaCore
import VideoPipeline
#if canImport(Glibc)
import Glibc
#endif

/// A render whose output is an HLS directory: the stitcher writes one MP4 (with keyframes forced at every cut)
/// into a hidden staging directory beside `DIR`; `finish` cuts it into segments, writes the playlists with the
/// breaks' markers, and renames the staging directory to `DIR`. Until then `DIR` is untouched, and a render that
/// fails or is dropped removes the staging directory, so a failed run leaves nothing.
///
/// There is no `EXT-X-DISCONTINUITY`: the whole output is one encode, so timestamps run on and the encoding
/// parameters never change across a break.
// Unchecked: made by the command, then finished on the render's one thread; never used by two at once.
public final class HLSRender: @unchecked Sendable {
    public let settings: HLSOutputSettings
    /// The hidden directory beside `settings.directory` where everything is written first.
    public let staging: String
    private var committed = false

    public static let masterName = "master.m3u8"
    public static let mediaName = "media.m3u8"
    public static let timelineName = "timeline.json"
    public static let eventsName = "events.jsonl"
    /// The stitcher's MP4, removed once cut.
    static let renderName = ".render.mp4"

    /// Checks that `settings.directory` does not exist or is an empty directory, and creates the staging directory.
    ///
    /// A symbolic link is refused even when it leads to an empty directory: the final rename would replace the link,
    /// not fill the directory, and fail after the whole render.
    ///
    /// - Throws: `.output(.outputNotWritable)` naming the directory: a symbolic link, not empty, not a directory, or
    ///   a parent that cannot be written.
    public init(settings: HLSOutputSettings) throws(RenderError) {
        self.settings = settings
        let directory = settings.directory
        var link = stat()
        // lstat of "DIR/" would follow the link: the name is looked at without its trailing slashes.
        var name = Substring(directory)
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        if lstat(String(name), &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            throw .output(.outputNotWritable(path: directory, reason: "is a symbolic link; give the directory it leads to; nothing was written"))
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .output(.outputNotWritable(path: directory, reason: "exists and is not a directory; nothing was written"))
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            guard entries.isEmpty else {
                throw .output(.outputNotWritable(path: directory, reason: "is not empty (\(entries.count) \(entries.count == 1 ? "entry" : "entries")); nothing was written"))
            }
        }
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        let parent = url.deletingLastPathComponent().path
        staging = parent + "/." + url.lastPathComponent + ".partial-\(getpid())"
        HLSRender.removeAbandonedStaging(in: parent, for: url.lastPathComponent)
        do {
            try? FileManager.default.removeItem(atPath: staging)
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        } catch {
            throw .output(.outputNotWritable(path: directory, reason: "cannot create \(staging): \(error.localizedDescription)"))
        }
    }

    deinit { discard() }

    /// Removes the staging directory unless the output was put in place; the command calls it on every failure,
    /// since the render's thread may still hold this object when the process exits (and `deinit` never runs).
    public func discard() {
        if !committed { try? FileManager.default.removeItem(atPath: staging) }
    }

    /// Removes the staging directories of `name` left by runs that were killed (SIGKILL cannot be caught): those
    /// whose process is gone. A live process's is never touched.
    private static func removeAbandonedStaging(in parent: String, for name: String) {
        let prefix = "." + name + ".partial-"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where entry.hasPrefix(prefix) {
            guard let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: parent + "/" + entry)
        }
    }

    /// Where the stitcher's MP4 is written, inside the staging directory.
    public var renderPath: String { staging + "/" + Self.renderName }

    /// `request` writing its MP4, timeline and event log into the staging directory.
    public func prepare(_ request: RenderRequest) -> RenderRequest {
        var request = request
        request.output.hls = settings
        request.output.path = renderPath
        request.output.timelinePath = staging + "/" + Self.timelineName
        request.output.eventsPath = staging + "/" + Self.eventsName
        return request
    }

    /// `request` as the user sees it once in place: the media playlist, the timeline and the event log in `DIR`.
    public func placed(_ request: RenderRequest) -> RenderRequest {
        var request = request
        request.output.path = settings.directory + "/" + Self.mediaName
        request.output.timelinePath = settings.directory + "/" + Self.timelineName
        request.output.eventsPath = settings.directory + "/" + Self.eventsName
        return request
    }

    /// Cuts the render into segments, writes `media.m3u8` and `master.m3u8` and the timeline (its output now the
    /// media playlist), and puts the directory in place.
    ///
    /// - Parameters:
    ///   - result: what `Stitcher.finish` returned for `prepare(request)`.
    ///   - request: the prepared request (its plan gives each break's planned duration).
    public func finish(_ result: RenderResult, request: RenderRequest) throws(RenderError) -> HLSRenderOutput {
        do { return try commit(result, request: request) } catch {
            discard()
            throw error
        }
    }

    private func commit(_ result: RenderResult, request: RenderRequest) throws(RenderError) -> HLSRenderOutput {
        precondition(!committed)
        let timeline = result.timeline
        guard let rate = FrameRate(parsing: timeline.output.fps) else { preconditionFailure("the stitcher's own fps") }
        let breaks = HLSRender.breaks(of: timeline, plan: request.plan)
        let files: HLSSegmentFiles
        do {
            files = try HLSSegmenter.segment(request.output.path, into: staging, type: settings.segmentType, rate: rate,
                                             target: HLSSegmenter.frames(perSegment: settings.segmentDuration, rate: rate),
                                             cuts: HLSRender.cuts(of: timeline))
        } catch { throw .output(error) }
        let spans = files.segments.map { HLSSegmentSpan(uri: $0.uri, startFrame: $0.startFrame, frameCount: $0.frameCount) }
        let media = HLSMediaPlaylist.withAdMarkers(spans, breaks: breaks, frameRate: rate, map: files.initSegment,
                                                   origin: settings.programDateTime ?? request.clockOrigin,
                                                   ptsOffset: files.ptsOffset)
        let seconds = files.segments.map { Rational($0.frameCount) / rate.perSecond }
        let peak = zip(files.segments, seconds).map { (Rational($0.bytes * 8) / $1).ceiling }.max() ?? 0
        let total = files.segments.reduce(0) { $0 + $1.bytes }
        let master = HLSMasterPlaylist(mediaURI: Self.mediaName, bandwidth: Int(peak),
                                       averageBandwidth: Int((Rational(total * 8) / media.duration).ceiling), codecs: files.codecs,
                                       resolution: PixelSize(width: timeline.output.width, height: timeline.output.height),
                                       frameRate: rate)
        var finalTimeline = timeline
        finalTimeline.output.path = placed(request).output.path
        do {
            try FileManager.default.removeItem(atPath: request.output.path)
            try Data(media.text.utf8).write(to: URL(fileURLWithPath: staging + "/" + Self.mediaName))
            try Data(master.text.utf8).write(to: URL(fileURLWithPath: staging + "/" + Self.masterName))
            try finalTimeline.jsonData().write(to: URL(fileURLWithPath: staging + "/" + Self.timelineName))
        } catch {
            throw .output(.outputNotWritable(path: settings.directory, reason: "\(error.localizedDescription)"))
        }
        // An empty directory is replaced by the rename; one that filled up meanwhile is not (ENOTEMPTY).
        guard rename(staging, settings.directory) == 0 else {
            let reason = String(cString: strerror(errno))
            throw .output(.outputNotWritable(path: settings.directory, reason: "cannot move the output into place: \(reason); nothing was written"))
        }
        committed = true
        return HLSRenderOutput(directory: settings.directory, playlist: media, segments: files, breaks: breaks)
    }

    /// The frames where the break shown changes (a break starts or ends): every one starts a segment.
    static func cuts(of timeline: Timeline) -> Set<Int64> {
        Set(zip(timeline.segments, timeline.segments.dropFirst()).compactMap { a, b in
            a.breakIndex != b.breakIndex ? b.outStartFrame : nil
        })
    }

    /// Each run of frames showing one break, with the plan's expected length when every ad of it has one (and a
    /// plan is given).
    package static func breaks(of timeline: Timeline, plan: AdPlan?) -> [HLSAdBreak] {
        var result: [HLSAdBreak] = []
        for segment in timeline.segments {
            guard let index = segment.breakIndex else { continue }
            if let last = result.last, last.index == index, last.endFrame == segment.outStartFrame {
                result[result.count - 1].endFrame = segment.outEndFrame
            } else {
                result.append(HLSAdBreak(index: index, startFrame: segment.outStartFrame, endFrame: segment.outEndFrame,
                                         plannedDuration: plannedDuration(of: index, in: plan)))
            }
        }
        return result
    }

    private static func plannedDuration(of index: Int, in plan: AdPlan?) -> Rational? {
        guard let plan, plan.breaks.indices.contains(index) else { return nil }
        var sum = Rational.zero
        for ad in plan.breaks[index].ads {
            guard let duration = Stitcher.expectedDuration(of: ad) else { return nil }
            sum += duration.seconds
        }
        return sum
    }
}

/// What an HLS render wrote.
public struct HLSRenderOutput: Sendable {
    public var directory: String
    public var playlist: HLSMediaPlaylist
    public var segments: HLSSegmentFiles
    public var breaks: [HLSAdBreak]
}
