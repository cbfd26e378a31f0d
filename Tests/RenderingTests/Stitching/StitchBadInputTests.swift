import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// A render that cannot be done says why in one line naming the file, and leaves nothing behind: no output, no
/// timeline, no event log, no temporary file.
@Suite struct StitchBadInputTests {
    /// Renders `request` expecting it to fail; checks that the output's directory holds afterwards exactly what
    /// it held before (hidden files included), and returns the error.
    static func failedRender(_ request: RenderRequest, control: JobControl = .none,
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> RenderError {
        let directory = (request.output.path as NSString).deletingLastPathComponent
        let before = try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let error = try #require(throws: RenderError.self, sourceLocation: sourceLocation) {
            try Stitcher.render(request, control: control)
        }
        let after = try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(after == before, "nothing is left in \(directory)", sourceLocation: sourceLocation)
        for path in [request.output.path, request.timelineFile, request.eventsFile] {
            #expect(!FileManager.default.fileExists(atPath: path), sourceLocation: sourceLocation)
        }
        #expect(!error.description.contains("\n"), "one line: \(error)", sourceLocation: sourceLocation)
        return error
    }

    /// The stitcher checks what the request reads before it writes anything, whoever built the request: an output
    /// (or a sidecar) that is an ad's media is refused, naming both, and the ad's file is as it was.
    @Test(arguments: ["output", "timeline", "events", "frame hashes"])
    func anOutputThatIsAnAdsMediaIsRefusedBeforeAnythingIsWritten(_ which: String) throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let ad = dir.path + "/ad.mp4"
        try FileManager.default.copyItem(atPath: media.directory + "/ad24.mp4", toPath: ad)
        let original = try Data(contentsOf: URL(fileURLWithPath: ad))
        var request = media.request(try media.plan(["5=\(ad)"]), output: dir.path + "/out.mp4")
        switch which {
        case "output": request.output.path = ad
        case "timeline": request.output.timelinePath = ad
        case "events": request.output.eventsPath = ad
        default: request.output.frameHashPath = ad
        }
        let label = which == "events" ? "the event log" : "the \(which)"
        // The ad's id (`--break` value and index) already shows the path, so it is not said twice.
        #expect(request.fileCollision?.description == "\(label) \(ad) is the same file as the media of ad '5=\(ad)#1'")
        let error = try #require(throws: RenderError.self) { try Stitcher.render(request) }
        #expect(error.description == "\(ad): cannot write the output: it is the same file as the media of ad '5=\(ad)#1'; nothing was written")
        #expect(try Data(contentsOf: URL(fileURLWithPath: ad)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["ad.mp4"])
    }

    @Test func aMissingContentIsReportedByName() throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        var request = media.request(try media.plan(["5=ad24.mp4"]), output: dir.path + "/out.mp4")
        request.content.path = dir.path + "/nope.mp4"
        let error = try Self.failedRender(request)
        #expect(error == .content(.fileNotFound(path: dir.path + "/nope.mp4")))
        #expect(error.description == "content: \(dir.path)/nope.mp4: no such file")
    }

    @Test func anUnreadableContentIsReportedByName() throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        let noise = try dir.write("noise.mp4", Data((0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        var request = media.request(try media.plan(["5=ad24.mp4"]), output: dir.path + "/out.mp4")
        request.content.path = noise
        let error = try Self.failedRender(request)
        guard case .content(.unreadable(let path, let function, _)) = error else {
            Issue.record("random bytes gave \(error)")
            return
        }
        #expect(path == noise)
        #expect(function == "avformat_open_input")
        #expect(error.description.hasPrefix("content: \(noise): not a media file FFmpeg can read"))
    }

    @Test func anOutputInAMissingDirectoryIsRefusedBeforeAnythingIsWritten() throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let output = dir.path + "/missing/out.mp4"
        let request = media.request(try media.plan(["5=ad24.mp4"]), output: output)
        let error = try #require(throws: RenderError.self) { try Stitcher.render(request) }
        #expect(error == .output(.outputNotWritable(path: output, reason: "the directory \(dir.path)/missing does not exist")))
        #expect(error.description == "\(output): cannot write the output: the directory \(dir.path)/missing does not exist")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// Where a sidecar cannot be written, the render is refused before its first frame, with one message naming
    /// that file.
    enum Sidecar: String, CaseIterable, Sendable {
        case timeline, events, frameHashes
    }

    @Test(arguments: Sidecar.allCases)
    func aSidecarInAMissingDirectoryIsRefusedBeforeTheFirstFrame(_ sidecar: Sidecar) throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        var request = media.request(try media.plan(["5=ad24.mp4"]), output: dir.path + "/out.mp4")
        let path = dir.path + "/missing/\(sidecar.rawValue)"
        switch sidecar {
        case .timeline: request.output.timelinePath = path
        case .events: request.output.eventsPath = path
        case .frameHashes: request.output.frameHashPath = path
        }
        var frames: Int64 = 0
        let error = try Self.failedRender(request, control: JobControl(progress: { done, _ in frames = done }))
        #expect(error == .output(.outputNotWritable(path: path, reason: "the directory \(dir.path)/missing does not exist")))
        #expect(error.description == "\(path): cannot write the output: the directory \(dir.path)/missing does not exist")
        #expect(frames == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// How the disk fills up.
    enum FullDisk: String, CaseIterable, Sendable {
        /// 1 MB free: the lossless pictures fill it within the first second.
        case picturesFillIt
        /// Only the event log is on the disk, and it is full: the log's buffered lines fail to reach it when the
        /// render finishes, after the output was encoded.
        case eventLogOnIt
    }

    @Test(arguments: FullDisk.allCases)
    func aFullDiskFailsTheRenderNamingTheFileAndLeavesNothingBehind(_ kind: FullDisk) throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let small = dir.path + "/small"
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: false)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small]) else {
            try Test.cancel("cannot mount a 1 MB tmpfs at \(small) (needs root and mount rights)")
        }
        defer {
            _ = Self.run("/bin/umount", [small])
            withExtendedLifetime(dir) {}
        }
        var request: RenderRequest
        let failing: String
        let reason: String
        switch kind {
        case .picturesFillIt:
            request = media.request(try media.plan(["5=ad24.mp4"]), output: small + "/out.mkv",
                                    encoding: EncodingSettings(profile: .lossless))
            failing = request.output.path
            reason = "av_interleaved_write_frame failed: No space left on device"
        case .eventLogOnIt:
            try Self.fill(small + "/filler")
            request = media.request(try media.plan(["pre=ad24.mp4"]), output: dir.path + "/out.mp4")
            request.output.eventsPath = small + "/out.mp4.events.jsonl"
            failing = request.eventsFile
            // Foundation's words for ENOSPC.
            reason = "cannot write the output: The operation could not be completed. There isn’t enough space."
        }
        let error = try Self.failedRender(request)
        guard case .output = error else {
            Issue.record("a full disk gave \(error)")
            return
        }
        #expect(error.description == "\(failing): \(reason)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: small) == (kind == .eventLogOnIt ? ["filler"] : []))
    }

    /// Writes zeros to `path` until the disk is full.
    static func fill(_ path: String) throws {
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        let chunk = Data(count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
    }

    @Test func anInterruptedRenderLeavesNothingBehind() throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let request = media.request(try media.plan(["1=ad24.mp4,ad60.mp4"]), output: dir.path + "/out.mp4")
        // Stop in the middle of the break's second ad, with the output, the event log and an ad open.
        var done: Int64 = 0
        let control = JobControl(progress: { frames, _ in done = frames }, isCancelled: { done >= 75 })
        let error = try Self.failedRender(request, control: control)
        #expect(error == .interrupted)
        #expect(done == 75)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// Runs a system tool quietly; whether it succeeded.
    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
