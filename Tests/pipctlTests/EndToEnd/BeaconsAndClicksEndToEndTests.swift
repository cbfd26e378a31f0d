import AdDecisioning
import Foundation
import Testing

extension EndToEnd {
    /// What `--send-beacons` changes in the beacons a render records, and `click` in a render's script.
    @Suite struct BeaconsAndClicksTests {
        /// A pre-roll of ad A (2 s) with a ClickThrough, two ClickTracking URLs and an impression whose URL carries
        /// `[CACHEBUSTING]` and `[TIMESTAMP]`; beacons go to 127.0.0.1:9, where nothing listens.
        static func adsDirectory() async throws -> ScratchDirectory {
            let dir = try ScratchDirectory()
            let media = URL(fileURLWithPath: try await TestClip.adA.path)
            try dir.write("""
                <VAST version="4.2"><Ad id="a"><InLine><AdSystem>e2e</AdSystem><AdTitle>t</AdTitle>
                  <Impression><![CDATA[http://127.0.0.1:9/imp?cb=[CACHEBUSTING]&ts=[TIMESTAMP]]]></Impression>
                  <Creatives><Creative><Linear><Duration>00:00:02</Duration>
                    <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[https://cdn.example/\(media.lastPathComponent)]]></MediaFile></MediaFiles>
                    <VideoClicks><ClickThrough><![CDATA[https://advertiser.example/landing]]></ClickThrough>
                      <ClickTracking><![CDATA[http://127.0.0.1:9/click1?t=[ADPLAYHEAD]]]></ClickTracking>
                      <ClickTracking><![CDATA[http://127.0.0.1:9/click2]]></ClickTracking></VideoClicks>
                  </Linear></Creative></Creatives></InLine></Ad></VAST>
                """, to: "vast.xml")
            try dir.write("https://cdn.example/\t\(media.deletingLastPathComponent().path)/\n", to: "map.txt")
            return dir
        }

        static func render(_ dir: ScratchDirectory, _ name: String, _ extra: [String]) async throws -> [[String: Any]] {
            let result = try await PipctlProcess.run([
                "render", "--content", try await TestClip.content.path, "--ads", dir.path("vast.xml"), "--url-map",
                dir.path("map.txt"), "-o", dir.path(name), "--preset", "ultrafast",
            ] + extra)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            return try dir.text(name + ".events.jsonl").split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        static func impressionURL(_ events: [[String: Any]]) throws -> String {
            try #require(events.first { $0["type"] as? String == "BEACON" && $0["event"] as? String == "impression" }?["url"] as? String)
        }

        @Test func sentBeaconsGetAFreshCacheBusterPerRunAndLogOnlyRendersStayIdentical() async throws {
            let dir = try await Self.adsDirectory()
            let quiet1 = try await Self.render(dir, "q1.mp4", [])
            let quiet2 = try await Self.render(dir, "q2.mp4", [])
            #expect(try dir.text("q1.mp4.events.jsonl") == (try dir.text("q2.mp4.events.jsonl")))
            #expect(try Self.impressionURL(quiet1) == "http://127.0.0.1:9/imp?cb=\(try Self.cacheBuster(Self.impressionURL(quiet2)))"
                + "&ts=2000-01-01T00%3A00%3A00.000Z")
            let sent1 = try Self.impressionURL(try await Self.render(dir, "s1.mp4", ["--send-beacons"]))
            let sent2 = try Self.impressionURL(try await Self.render(dir, "s2.mp4", ["--send-beacons"]))
            let (cb1, cb2) = (try Self.cacheBuster(sent1), try Self.cacheBuster(sent2))
            #expect(cb1.count == 8 && cb1.allSatisfy(\.isNumber) && cb2.count == 8)
            #expect(cb1 != cb2, "\(sent1) and \(sent2)")
            // [TIMESTAMP] is the wall clock of the render's start (this year), not the fixed origin.
            #expect(!sent1.contains("ts=2000-01-01"), "\(sent1)")
        }

        static func cacheBuster(_ url: String) throws -> String {
            let query = try #require(URLComponents(string: url)?.queryItems)
            return try #require(query.first { $0.name == "cb" }?.value)
        }

        @Test func aScriptedClickRecordsTheClickThroughAndFiresTheClickTracking() async throws {
            let dir = try await Self.adsDirectory()
            // 0.5 s is output frame 15 at the content's 30 fps: the pre-roll's 15th frame.
            let events = try await Self.render(dir, "c.mp4", ["--script", "click@0.5; click@3"])
            let click = try #require(events.first { $0["type"] as? String == "CLICK" })
            #expect(click["frame"] as? Int == 15 && click["break"] as? Int == 0 && click["ad"] as? Int == 0)
            #expect(click["url"] as? String == "https://advertiser.example/landing")
            let tracking = events.filter { $0["event"] as? String == "clickTracking" }
            #expect(tracking.compactMap { $0["url"] as? String } == ["http://127.0.0.1:9/click1?t=00%3A00%3A00.500",
                                                                     "http://127.0.0.1:9/click2"])
            #expect(tracking.allSatisfy { $0["frame"] as? Int == 15 })
            // (The 2 s pre-roll also has a LOG, loudnessShortSource, before its LOADED.)
            let refused = try #require(events.first { $0["type"] as? String == "LOG" && $0["reason"] as? String == "refused" })
            #expect(refused["frame"] as? Int == 90)
            #expect(refused["message"] as? String == "click ignored: no ad is on screen")
        }
    }
}
