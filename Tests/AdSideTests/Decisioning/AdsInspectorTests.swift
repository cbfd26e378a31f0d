@testable import AdDecisioning
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// The `ads inspect` report, as JSON and as text, and the success/failure split the command line relies on.
@Suite struct AdsInspectorTests {
    /// The schedule fixture with its media mapped to files in `dir`, for a 20-minute content.
    func scheduleReport(_ dir: TemporaryDirectory) async throws -> AdsInspectReport {
        for name in ["pre.mp4", "mid.mp4", "percent.mp4", "ads/low.mp4"] { try dir.write(name, "placeholder") }
        let map = URLMap(rules: [.init(urlPrefix: "https://cdn.example/", localPrefix: dir.path)])
        return try await AdsInspector.inspect(DecisioningFixtures.path("VMAP/schedule.xml"), contentDuration: MediaDuration(seconds: 1200),
                                              urlMap: map)
    }

    func json(_ report: AdsInspectReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
    }

    @Test func reportsBreaksAdsAndMediaAsJSON() async throws {
        let dir = try TemporaryDirectory()
        let root = try json(try await scheduleReport(dir))
        #expect(root["kind"] as? String == "vmap")
        #expect(root["window"] as? String == "640x360")
        #expect(root["contentDuration"] as? Double == 1200)
        let breaks = try #require(root["breaks"] as? [[String: Any]])
        #expect(breaks.map { $0["position"] as? String } == ["preroll", "midroll", "midroll", "postroll"])
        #expect(breaks.map { $0["offset"] as? Double } == [0, 300, 623.125, 1200])
        #expect(breaks.map { $0["breakId"] as? String } == ["pre", "mid-percent", "mid-time", "post"])
        #expect(breaks[0]["tracking"] as? Int == 3)

        let pre = try #require((breaks[0]["ads"] as? [[String: Any]])?.first)
        #expect(pre["id"] as? String == "pre-ad")
        #expect(pre["sequence"] is NSNull)
        #expect(pre["adSystem"] as? String == "vmap-fixture")
        #expect(pre["title"] as? String == "Pre-roll")
        #expect(pre["duration"] as? Double == 10)
        #expect(pre["skipOffset"] as? String == "10%")
        #expect(pre["state"] as? String == "available")
        #expect(pre["error"] is NSNull)
        #expect(pre["impressions"] as? Int == 1)
        let media = try #require(pre["mediaFile"] as? [String: Any])
        #expect(media["url"] as? String == "https://cdn.example/pre.mp4")
        #expect(media["type"] as? String == "video/mp4")
        #expect(media["width"] as? Int == 640)
        #expect(media["height"] as? Int == 360)
        #expect(media["bitrate"] is NSNull)
        #expect(media["localPath"] as? String == dir.path + "/pre.mp4")
        let candidates = try #require(pre["candidates"] as? [[String: Any]])
        #expect(candidates.count == 1)
        #expect(candidates[0]["accepted"] as? Bool == true)
        #expect(candidates[0]["reason"] as? String == "best fit: the smallest rendition covering 640x360")

        let post = try #require((breaks[3]["ads"] as? [[String: Any]])?.first)
        #expect(post["id"] as? String == "inline-1")
        #expect(post["skipOffset"] as? String == "5s")
        #expect(post["duration"] as? Double == 30)
        #expect(post["tracking"] as? Int == 9)
        #expect((post["trackingEvents"] as? [String: Int])?["progress"] == 2)
        #expect(post["clickTracking"] as? Int == 2)
        #expect((post["mediaFile"] as? [String: Any])?["localPath"] as? String == dir.path + "/ads/low.mp4")
        #expect((post["candidates"] as? [[String: Any]])?.count == 5)
        #expect(root["errors"] as? [Any] != nil && (root["errors"] as? [Any])?.isEmpty == true)
    }

    @Test func listsWrappersOutermostFirst() async throws {
        let report = try await AdsInspector.inspect(DecisioningFixtures.path("VAST/wrapper-outer.xml"))
        let ad = try #require(report.breaks.first?.ads.first)
        #expect(ad.wrappers.map(\.adSystem) == ["outer-server", "middle-server"])
        #expect(ad.wrappers.map(\.tagURI) == ["wrapper-middle.xml", "inline-linear.xml"])
        #expect(ad.beacons.impressions == 4)
        // No cache directory and no URL map: the remote media stays remote.
        #expect(ad.mediaFile?.url == "https://cdn.example/ads/low.mp4")
        #expect(ad.mediaFile?.localPath == nil)
    }

    @Test func rendersOneLinePerBreakAndPerAdWithTheDetailsIndentedUnderIt() async throws {
        let dir = try TemporaryDirectory()
        let text = try await scheduleReport(dir).text
        #expect(text.contains("\n  tracking  breakStart  https://track.example/pre-breakStart\n"
            + "            breakEnd    https://track.example/pre-breakEnd\n"
            + "            error       https://track.example/pre-error?c=[ERRORCODE]\n"))
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("       ") }
        #expect(lines == [
            "\(DecisioningFixtures.path("VMAP/schedule.xml")): VMAP, 4 breaks, 4 ads, 0 errors, content 0:20:00.000, window 640x360",
            "#0 preroll  id=pre  1 ad",
            "  tracking  breakStart  https://track.example/pre-breakStart",
            "  #0 ad pre-ad \"Pre-roll\" (vmap-fixture) 10s skip 10%: video/mp4 640x360 -> \(dir.path)/pre.mp4",
            "#1 midroll 0:05:00.000  id=mid-percent  1 ad",
            "  #0 ad percent-ad \"Mid-roll at 25%\" (vmap-fixture) 5s: video/mp4 640x360 -> \(dir.path)/percent.mp4",
            "#2 midroll 0:10:23.125  id=mid-time  1 ad",
            "  #0 ad mid-ad \"Mid-roll (VASTData)\" (vmap-fixture) 20s: video/mp4 640x360 -> \(dir.path)/mid.mp4",
            "#3 postroll  id=post  1 ad",
            "  tracking  breakStart  https://track.example/post-breakStart",
            "  #0 ad inline-1 \"Inline linear\" (pipctl-fixtures) 30s skip 5s: video/mp4 640x360 600 kbit/s -> \(dir.path)/ads/low.mp4",
        ])
    }

    @Test func reportsNoFillAsSuccessWithItsError() async throws {
        let report = try await AdsInspector.inspect(DecisioningFixtures.path("VAST/no-fill.xml"))
        #expect(report.breaks.isEmpty)
        #expect(report.errors.map(\.code) == [303])
        #expect(report.text.contains("no breaks\nerror 303: \(DecisioningFixtures.path("VAST/no-fill.xml")): no ads (no fill)"))
        let root = try json(report)
        #expect((root["breaks"] as? [Any])?.isEmpty == true)
        #expect((root["errors"] as? [[String: Any]])?.first?["code"] as? Int == 303)
    }

    @Test func listsFailedAdsWithTheirErrorAndCandidates() async throws {
        let report = try await AdsInspector.inspect(DecisioningFixtures.path("VAST/vpaid.xml"))
        let ad = try #require(report.breaks.first?.ads.first)
        #expect(ad.state == "failed")
        #expect(ad.error?.code == 901)
        #expect(ad.mediaFile == nil)
        #expect(ad.candidates.map(\.accepted) == [false, false])
        #expect(report.errors.map(\.code) == [901])
        #expect(report.text.contains("#0 ad vpaid-only \"VPAID only\" (vpaid) 15s FAILED 901: ad 'vpaid-only': VPAID creatives are not played and there is no other MediaFile"))
    }

    @Test func failsForADocumentThatIsNotXMLNamingTheLine() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("bad.xml", "<VAST version=\"4.0\">\n  <Ad>\n</VAST>\n")
        let error = await #expect(throws: DecisioningError.self) { _ = try await AdsInspector.inspect(path) }
        #expect(error?.code == .xmlParsing)
        #expect(error?.isUserError == false)
        #expect(error?.description == "VAST error 100: \(path) is not well-formed XML: line 3: closing tag does not match the open element")
    }

    @Test func failsForAMissingAdTag() async throws {
        let error = await #expect(throws: DecisioningError.self) { _ = try await AdsInspector.inspect("/nonexistent/tag.xml") }
        #expect(error == .unreachable(source: "/nonexistent/tag.xml", reason: "no such file"))
        #expect(error?.code == .wrapperTimeout)
    }

    @Test func choosesForTheWindowAndBitrateGiven() async throws {
        let report = try await AdsInspector.inspect(DecisioningFixtures.path("VAST/inline-linear.xml"),
                                                    window: PixelSize(width: 1920, height: 1080), maximumBitrate: 1500)
        let ad = try #require(report.breaks.first?.ads.first)
        #expect(report.window == "1920x1080")
        // Nothing covers 1920x1080 under 1500 kbit/s: the largest acceptable rendition.
        #expect(ad.mediaFile?.url == "https://cdn.example/ads/sd.mp4")
    }

    @Test func roundTripsThroughJSON() async throws {
        let dir = try TemporaryDirectory()
        let report = try await scheduleReport(dir)
        let decoded = try JSONDecoder().decode(AdsInspectReport.self, from: Data(report.json().utf8))
        #expect(decoded == report)
    }

    /// The fixture with a companion and a non-linear creative beside its linear one, media mapped to `dir`.
    func inlineReport(_ dir: TemporaryDirectory) async throws -> AdsInspectReport {
        try dir.write("ads/low.mp4", "placeholder")
        let map = URLMap(rules: [.init(urlPrefix: "https://cdn.example/", localPrefix: dir.path)])
        return try await AdsInspector.inspect(DecisioningFixtures.path("VAST/inline-linear.xml"), urlMap: map)
    }

    @Test func theTextListsEveryRenditionWithItsReasonTrackingPerEventCompanionsAndOverlays() async throws {
        let dir = try TemporaryDirectory()
        let text = try await inlineReport(dir).text
        let path = DecisioningFixtures.path("VAST/inline-linear.xml")
        #expect(text == """
            \(path): VAST, 1 break, 1 ad, 0 errors, window 640x360
            #0 preroll  1 ad
              #0 ad inline-1 "Inline linear" (pipctl-fixtures) 30s skip 5s: video/mp4 640x360 600 kbit/s -> \(dir.path)/ads/low.mp4
                   renditions      ok       video/mp4              1280x720  2000 kbit/s  https://cdn.example/ads/hd.mp4       acceptable, not the best fit for 640x360 (fallback 3); cannot be used: media https://cdn.example/ads/hd.mp4 (mapped to \(dir.path)/ads/hd.mp4): no such file
                                   ok       video/mp4              854x480   1000 kbit/s  https://cdn.example/ads/sd.mp4       acceptable, not the best fit for 640x360 (fallback 2); cannot be used: media https://cdn.example/ads/sd.mp4 (mapped to \(dir.path)/ads/sd.mp4): no such file
                                   chosen   video/mp4              640x360   600 kbit/s   https://cdn.example/ads/low.mp4      best fit: the smallest rendition covering 640x360
                                   ok       video/webm             640x360   500 kbit/s   https://cdn.example/ads/low.webm     acceptable, not the best fit for 640x360 (fallback 1); cannot be used: media https://cdn.example/ads/low.webm (mapped to \(dir.path)/ads/low.webm): no such file
                                   refused  application/x-mpegURL  1280x720  -            https://cdn.example/ads/master.m3u8  application/x-mpegurl is streaming (HLS/DASH), not supported yet
                   impressions     https://track.example/impression?ad=inline-1
                                   https://track.example/impression2?ad=inline-1&cb=[CACHEBUSTING]
                   tracking        creativeView    https://track.example/creativeView
                                   start           https://track.example/start
                                   firstQuartile   https://track.example/q1
                                   midpoint        https://track.example/mid
                                   thirdQuartile   https://track.example/q3
                                   complete        https://track.example/complete
                                   progress@10.5s  https://track.example/progress-10.5s
                                   progress@25%    https://track.example/progress-25pc
                                   skip            https://track.example/skip
                   click-through   https://advertiser.example/landing
                   click tracking  https://track.example/click1
                                   https://track.example/click2
                   error URLs      https://track.example/error?code=[ERRORCODE]
                   companion       id              c-300x250
                                   size            300x250
                                   slot            side
                                   resource        iframe https://cdn.example/companion.html
                                   resource        html (46 characters)
                                   click-through   https://advertiser.example/companion
                                   click tracking  https://track.example/companion-click
                                   creativeView    https://track.example/companion-view
                   non-linear      id              nl-1
                                   size            480x70
                                   min duration    10s
                                   resource        static image/png https://cdn.example/overlay.png
                                   click-through   https://advertiser.example/overlay
                                   click tracking  https://track.example/overlay-click
                                   creativeView    https://track.example/overlay-view

            """)
    }

    @Test func theJSONListsURLsPerEventCompanionsAndNonLinears() async throws {
        let dir = try TemporaryDirectory()
        let root = try json(try await inlineReport(dir))
        let ad = try #require(((root["breaks"] as? [[String: Any]])?.first?["ads"] as? [[String: Any]])?.first)
        let tracking = try #require(ad["trackingURLs"] as? [String: [String]])
        #expect(tracking["firstQuartile"] == ["https://track.example/q1"])
        #expect(tracking["progress@10.5s"] == ["https://track.example/progress-10.5s"])
        #expect(tracking["progress@25%"] == ["https://track.example/progress-25pc"])
        #expect(tracking.count == 9)
        #expect(ad["impressionURLs"] as? [String] == ["https://track.example/impression?ad=inline-1",
                                                      "https://track.example/impression2?ad=inline-1&cb=[CACHEBUSTING]"])
        #expect(ad["clickTrackingURLs"] as? [String] == ["https://track.example/click1", "https://track.example/click2"])
        #expect(ad["errorURLTemplates"] as? [String] == ["https://track.example/error?code=[ERRORCODE]"])
        let companions = try #require(ad["companions"] as? [[String: Any]])
        #expect(companions.count == 1)
        #expect(companions[0]["id"] as? String == "c-300x250")
        #expect(companions[0]["width"] as? Int == 300 && companions[0]["height"] as? Int == 250)
        #expect(companions[0]["adSlotId"] as? String == "side")
        #expect(companions[0]["resources"] as? [String] == ["iframe https://cdn.example/companion.html", "html (46 characters)"])
        #expect(companions[0]["clickThrough"] as? String == "https://advertiser.example/companion")
        #expect(companions[0]["trackingURLs"] as? [String: [String]] == ["creativeView": ["https://track.example/companion-view"]])
        let overlays = try #require(ad["nonLinears"] as? [[String: Any]])
        #expect(overlays.count == 1)
        #expect(overlays[0]["id"] as? String == "nl-1")
        #expect(overlays[0]["width"] as? Int == 480 && overlays[0]["height"] as? Int == 70)
        #expect(overlays[0]["minSuggestedDuration"] as? Double == 10)
        #expect(overlays[0]["resources"] as? [String] == ["static image/png https://cdn.example/overlay.png"])
        #expect(overlays[0]["clickTrackingURLs"] as? [String] == ["https://track.example/overlay-click"])
        #expect(overlays[0]["trackingURLs"] as? [String: [String]] == ["creativeView": ["https://track.example/overlay-view"]])
    }

    @Test func aPodResponseListsItsFallbacksAndReplacements() async throws {
        let report = try await AdsInspector.inspect(DecisioningFixtures.path("VAST/pod-buffet.xml"))
        #expect(report.breaks.first?.ads.map(\.id) == ["pod-1", "buffet-a", "pod-3"])
        #expect(report.breaks.first?.fallbacks.map(\.id) == ["buffet-b"])
        #expect(report.warnings.map(\.code) == [303])
        #expect(report.warnings.first?.message.hasPrefix("ad 'buffet-a' (stand-alone) replaces ad 'pod-2' (line 31), sequence 2 in ") == true)
        let text = report.text
        #expect(text.contains("\n  fallbacks (stand-alone ads that replace an ad of this break that fails):\n   - ad buffet-b \"Buffet B\" (pods) 7s: "))
        #expect(text.contains("\nwarning 303: ad 'buffet-a' (stand-alone) replaces ad 'pod-2'"))
    }
}
