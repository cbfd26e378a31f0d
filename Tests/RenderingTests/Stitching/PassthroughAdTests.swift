import AdPlayback
import AdScreen
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// Passthrough with ads coded like the content (`pipctl testsrc` clips at the content's size and rate share its
/// x264 parameter sets): what they show is what a render encoded throughout shows, ad failures and fallbacks
/// included, and the stamps prove every frame.
@Suite struct PassthroughAdTests {
    /// A 2 s stamped ad at the content's size and rate (320x180, 30 fps), coded like it.
    static func twin(_ dir: TemporaryDirectory, id: String = "twin") throws -> String {
        let path = dir.path + "/\(id).mp4"
        _ = try TestSourceGenerator.generate(.init(
            output: path, duration: MediaDuration(seconds: 2), size: PixelSize(width: 320, height: 180), frameRate: FrameRate(30),
            sourceID: id, toneFrequency: 700, sampleRate: 48000, channels: 2, encoding: StampedMedia.fast))
        return path
    }

    /// Renders `breaks` with passthrough on and off; both must be good renders with the same segments and ad states.
    static func renderBothWays(_ breaks: [String], in dir: TemporaryDirectory) throws -> (copied: RenderResult, encoded: RenderResult) {
        let media = try StampedMedia.shared
        var results: [RenderResult] = []
        for mode in [PassthroughMode.on, .off] {
            var request = media.request(try media.plan(breaks), output: dir.path + "/out-\(mode.rawValue).mp4")
            request.passthrough.mode = mode
            // Copying sound as it is: a normalised ad's gained sound is encoded (LoudnessRenderTests says so).
            request.loudness = .off
            let result = try Stitcher.render(request)
            try StampedMedia.expectGoodRender(result, request)
            results.append(result)
        }
        #expect(StampedMedia.pieces(results[0].timeline) == StampedMedia.pieces(results[1].timeline))
        #expect(results[0].plan.breaks.map { $0.ads.map(\.state) } == results[1].plan.breaks.map { $0.ads.map(\.state) })
        return (results[0], results[1])
    }

    @Test func anAdCodedLikeTheContentIsCopiedAndOneAtAnotherRateIsEncoded() throws {
        let dir = try TemporaryDirectory()
        let twin = try Self.twin(dir)
        let (copied, _) = try Self.renderBothWays(["3=\(twin)", "6=ad25.mp4"], in: dir)
        #expect(copied.passthroughAds[AdReference(0, 0)] == .copied)
        guard case .encoded(let reason) = copied.passthroughAds[AdReference(1, 0)] else {
            Issue.record("the 25 fps ad was copied: \(copied.passthroughAds)")
            return
        }
        #expect(reason == .offFrameGrid)
        #expect(reason.description == "its pictures are not on the output's frame grid")
        // The twin's 60 frames are copied (from its IDR to its end); ad25's are not.
        let runs = try #require(copied.timeline.videoRuns)
        let twinSegment = try #require(copied.timeline.segments.first { $0.breakIndex == 0 })
        #expect(runs.contains { $0.mode == .copied && $0.outStartFrame <= twinSegment.outStartFrame && $0.outEndFrame >= twinSegment.outEndFrame })
        let ad25 = try #require(copied.timeline.segments.first { $0.breakIndex == 1 })
        #expect(runs.contains { $0.mode == .encoded && $0.outStartFrame <= ad25.outStartFrame && $0.outEndFrame >= ad25.outEndFrame })
    }

    /// A copyable ad whose sound is garbage from 1 s on: it is taken for copying and held from its IDR, and fails at
    /// its 30th frame (AD_ERROR 405 from the AAC decoder); the 30 pictures held back are encoded before its media
    /// is closed, and its fallback is copied in its place, as in a render encoded throughout.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe"), "needs ffprobe to find a packet"))
    func aCopyableAdThatFailsPartWayFallsBackAsInAnyRender() throws {
        let dir = try TemporaryDirectory()
        let twin = try Self.twin(dir)
        let bad = dir.path + "/bad.mp4"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: twin))
        let (offset, size) = try Self.audioPacket(after: 1.0, in: twin)
        bytes.replaceSubrange(offset..<offset + size, with: Data(repeating: 0xFF, count: size))
        try bytes.write(to: URL(fileURLWithPath: bad))

        let (copied, _) = try Self.renderBothWays(["3=\(bad),\(twin)"], in: dir)
        #expect(copied.plan.breaks[0].ads.map(\.state) == [.failed, .played])
        #expect(copied.passthroughAds[AdReference(0, 0)] == .copied, "the bad ad was not taken for copying: \(copied.passthroughAds)")
        #expect(copied.passthroughAds[AdReference(0, 1)] == .copied)
        // Content 0–89, the bad ad's 30 frames (held, then encoded when it failed), its fallback copied.
        let runs = try #require(copied.timeline.videoRuns).map { "\($0.mode.rawValue) \($0.outStartFrame)-\($0.outEndFrame)" }
        #expect(runs.prefix(2) == ["encoded 0-120", "copied 120-180"], "\(runs)")
    }

    /// The byte offset and size of the first audio packet of `path` at or after `seconds`, from ffprobe.
    static func audioPacket(after seconds: Double, in path: String) throws -> (Int, Int) {
        let text = try FFmpegCommandLine.probe(["-select_streams", "a", "-show_entries", "packet=pts_time,pos,size", "-of", "csv=p=0", path])
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 3, let time = Double(fields[0]), let size = Int(fields[1]), let pos = Int(fields[2]) else { continue }
            if time >= seconds { return (pos, size) }
        }
        throw StampedMedia.Failure(description: "\(path): no audio packet after \(seconds) s")
    }
}
