@testable import AdScreen
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// A card's video asset: its VAST resolved at load time (renditions chosen for the card's media frame, fallbacks,
/// the origin rule) and the frame it starts playing on (autoplay once half its media frame is visible).
@Suite struct NativeVideoTests {
    /// A VAST InLine ad with an impression, start/quartile/complete trackers and `mediaFiles` (`url`, width, height).
    static func vast(_ mediaFiles: [(String, Int, Int)], tracking: String = "https://t.example") -> String {
        let events = ["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
            "<Tracking event=\"\($0)\"><![CDATA[\(tracking)/\($0)]]></Tracking>"
        }.joined()
        let files = mediaFiles.map {
            "<MediaFile delivery=\"progressive\" type=\"video/mp4\" width=\"\($0.1)\" height=\"\($0.2)\"><![CDATA[\($0.0)]]></MediaFile>"
        }.joined()
        return """
            <VAST version="4.2"><Ad><InLine><AdSystem>t</AdSystem><AdTitle>card video</AdTitle>
            <Impression><![CDATA[\(tracking)/impression]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:02</Duration><TrackingEvents>\(events)</TrackingEvents>
            <MediaFiles>\(files)</MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
    }

    /// `NativeFixtures.card` with its main image replaced by a video asset whose `vasttag` is `tag` (JSON-escaped here).
    static func videoCard(_ id: String, tag: String) throws -> String {
        let escaped = String(decoding: try JSONSerialization.data(withJSONObject: [tag], options: [.withoutEscapingSlashes]), as: UTF8.self).dropFirst().dropLast()
        return NativeFixtures.card(id).replacingOccurrences(of: #"{"id":3,"img":{"type":3,"url":"https://img.example/\#(id).png","w":1200,"h":627}}"#,
                                                             with: #"{"id":3,"video":{"vasttag":\#(escaped)}}"#)
    }

    @Test func aVideoTagFromARemoteResponseIsResolvedWithTheRenditionThatFitsTheMediaFrameAndItsFallbacks() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        server.route("/slider", NativeLoadingTests.json(NativeFixtures.slider([try Self.videoCard("v", tag: "vast.xml")])))
        server.route("/vast.xml", LoopbackHTTPServer.Response(body: Data(Self.vast([
            ("big.mp4", 1920, 1080), ("fit.mp4", 640, 360), ("small.mp4", 320, 180), ("file:///tmp/local.mp4", 640, 360),
        ]).utf8)))
        let loader = NativeAdLoader()
        let loaded = try await loader.load(base + "/slider")
        // The default card's media frame on an iPhone 15: 296 x 166 pt at 3/2 px per point.
        let (videos, failures) = await loader.videos(of: loaded, window: PixelSize(width: 444, height: 249))
        #expect(failures.isEmpty, "\(failures)")
        let ad = try #require(videos[base + "/vast.xml"])
        let selection = try #require(ad.selection)
        // The smallest rendition covering 444x249, then the other acceptable ones by the same rule; the local file
        // a remote document names is refused.
        #expect(selection.remoteURL?.absoluteString == base + "/fit.mp4")
        #expect(selection.fallbacks.map { $0.remoteURL?.absoluteString } == [base + "/big.mp4", base + "/small.mp4"])
        #expect(selection.candidates.last?.accepted == false)
        #expect(ad.beacons.impressions == ["https://t.example/impression"])
        #expect(ad.beacons.tracking.map(\.event) == [.start, .firstQuartile, .midpoint, .thirdQuartile, .complete])
        #expect(server.requests.map(\.target) == ["/slider", "/vast.xml"], "the media itself is not fetched at load time")
    }

    @Test func anInlineVASTInARemoteResponseMayNotNameALocalFile() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let tag = Self.vast([("file:///tmp/local.mp4", 640, 360)])
        server.route("/slider", NativeLoadingTests.json(NativeFixtures.slider([try Self.videoCard("v", tag: tag)])))
        let loader = NativeAdLoader()
        let loaded = try await loader.load(server.baseURL.absoluteString + "/slider")
        let (videos, failures) = await loader.videos(of: loaded, window: PixelSize(width: 444, height: 249))
        #expect(videos.isEmpty)
        let failure = try #require(failures[tag])
        #expect(failure.hasPrefix("\(server.baseURL.absoluteString)/slider: video asset's inline VAST: "), "\(failure)")
        #expect(failure.contains("local file refused"), "\(failure)")
    }

    @Test func aCardVideoStartsAtTheFirstFrameHalfItsMediaFrameIsVisible() async throws {
        let cards = [try Self.videoCard("a", tag: "a.xml"), try Self.videoCard("b", tag: "b.xml")]
        let outcome = try await NativeSliderRunTests.run("load slider@0.5; swipe left@1",
                                                         blocks: ["feed.json": NativeFixtures.slider(cards)], seconds: 3)
        // Card a is in view from the load (frame 15). Card b's media frame (296 pt, 352 pt from the left edge of a
        // 393 pt screen) shows 41 pt before the swipe; the swipe at frame 30 moves the row 279 pt over 9 frames, so
        // 148 pt show once 107 pt have gone: 0.115 s in, at frame 34.
        #expect(outcome.videoStarts.map { "\($0.card) \($0.ad) \($0.vastTag) \(NativeSliderRunTests.rate.frame(at: $0.time))" }
                == ["0 a a.xml 15", "1 b b.xml 34"])
    }
}
