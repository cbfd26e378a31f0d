import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// The same request renders the same bytes: the timeline, the event log and every picture (nothing reads a
/// clock or a random source), so golden files can guard frame timings in CI.
@Suite struct StitchDeterminismTests {
    @Test func renderingTheSameRequestTwiceGivesIdenticalTimelinesEventsAndPictures() throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let plan = try media.plan(["pre=ad25.mp4", "5=ad24.mp4,ad60.mp4", "post=mono.mp4"])
        var request = media.request(plan, output: dir.path + "/out.mkv", encoding: EncodingSettings(profile: .lossless))
        request.output.frameHashPath = dir.path + "/out.framemd5"
        let files = [request.output.path, request.timelineFile, request.eventsFile, dir.path + "/out.framemd5"]

        let first = try Stitcher.render(request)
        // Moved aside so that the second render writes under the very same names (the timeline names its output).
        for file in files { try FileManager.default.moveItem(atPath: file, toPath: file + ".first") }
        let second = try Stitcher.render(request)

        #expect(first.timeline == second.timeline)
        #expect(first.plan == second.plan)
        for file in files {
            let a = try Data(contentsOf: URL(fileURLWithPath: file + ".first"))
            let b = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(a == b, "\((file as NSString).lastPathComponent) differs between two renders")
            #expect(!a.isEmpty)
        }
        // What was compared is a whole render: one hash per frame, and a log with the breaks in it.
        let hashes = try String(contentsOfFile: dir.path + "/out.framemd5", encoding: .utf8)
        #expect(hashes.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == Int(second.timeline.output.frames))
        let events = try EventLog.read(request.eventsFile)
        #expect(events.filter { $0.type == .adBreakStarted }.count == 3)
        try StampedMedia.expectGoodRender(second, request)
    }
}
