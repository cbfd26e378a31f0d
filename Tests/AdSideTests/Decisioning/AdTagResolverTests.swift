@testable import AdDecisioning
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// Wrapper resolution, pods and buffets, on files (the HTTP cases are in `LoopbackResolutionTests`).
@Suite struct AdTagResolverTests {
    func resolve(_ path: String, settings: AdsLoaderSettings = AdsLoaderSettings()) async throws -> AdTagResolution {
        let location = ResourceLocation.file(path)
        let doc = try VASTParser().parse(try Data(contentsOf: URL(fileURLWithPath: path)), source: path)
        return await AdTagResolver(settings: settings).resolve(doc, at: location)
    }

    @Test func followsRelativeWrapperTagsAndMergesTheirTracking() async throws {
        let r = try await resolve(DecisioningFixtures.path("VAST/wrapper-outer.xml"))
        #expect(r.errors.isEmpty)
        let ad = try #require(r.ads.first)
        #expect(r.ads.count == 1)
        #expect(ad.id == "inline-1")
        #expect(ad.sequence == 1)  // the outer wrapper's place in its pod
        #expect(ad.beacons.impressions == ["https://track.example/outer-impression", "https://track.example/middle-impression",
                                   "https://track.example/impression?ad=inline-1",
                                   "https://track.example/impression2?ad=inline-1&cb=[CACHEBUSTING]"])
        #expect(ad.beacons.errorURLs == ["https://track.example/outer-error?c=[ERRORCODE]", "https://track.example/middle-error?c=[ERRORCODE]",
                                 "https://track.example/error?code=[ERRORCODE]"])
        #expect(ad.beacons.tracking.prefix(3).map(\.url) == ["https://track.example/outer-start", "https://track.example/outer-complete",
                                                     "https://track.example/middle-q1"])
        #expect(ad.beacons.tracking.count == 3 + 9)
        #expect(ad.beacons.clickTracking == ["https://track.example/outer-click", "https://track.example/click1", "https://track.example/click2"])
        #expect(ad.beacons.clickThrough == "https://advertiser.example/landing")
        #expect(ad.wrappers.map(\.adSystem) == ["outer-server", "middle-server"])
        #expect(ad.wrappers.map(\.tagURI) == ["wrapper-middle.xml", "inline-linear.xml"])
        #expect(ad.wrappers[0].source == DecisioningFixtures.path("VAST/wrapper-outer.xml"))
        #expect(ad.declaredDuration == MediaDuration(seconds: 30))
        #expect(ad.skipOffset == .time(MediaDuration(seconds: 5)))
        #expect(ad.universalAdIds == [UniversalAdId(registry: "Ad-ID", value: "8465")])
        #expect(ad.creativeId == "creative-1")
    }

    @Test func playsThePodInSequenceAndFillsAnEmptyWrapperFromTheBuffet() async throws {
        let r = try await resolve(DecisioningFixtures.path("VAST/pod-buffet.xml"))
        #expect(r.ads.map(\.id) == ["pod-1", "buffet-a", "pod-3"])
        #expect(r.errors.count == 1)
        #expect(r.errors[0].code == .noAdsAfterWrapper)
        #expect(r.errors[0].errorURLs == ["https://track.example/pod-2-error?c=[ERRORCODE]", "https://track.example/no-fill?c=[ERRORCODE]"])
    }

    @Test func replacesAPodAdWhoseWrapperFailsWithTheNextStandaloneAd() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("pod.xml", VASTText.document(
            VASTText.inline(id: "first", sequence: 1),
            VASTText.wrapper(id: "gone", tag: "missing.xml", sequence: 2),
            VASTText.inline(id: "spare")))
        let r = try await resolve(path)
        // Any pod ad that cannot play, not only an empty response: the buffet is "a secondary choice".
        #expect(r.ads.map(\.id) == ["first", "spare"])
        #expect(r.errors.map(\.code) == [.wrapperTimeout])
        #expect(r.errors[0].message == "wrapper ad 'gone' (line 6) in \(path): cannot load \(dir.path)/missing.xml: no such file")
        #expect(r.replacements.map(\.code) == [.wrapperTimeout])
        #expect(r.replacements.map(\.message) == [
            "ad 'spare' (stand-alone) replaces ad 'gone' (line 6), sequence 2 in \(path), which cannot play: "
                + "wrapper ad 'gone' (line 6) in \(path): cannot load \(dir.path)/missing.xml: no such file",
        ])
        #expect(r.fallbacks.isEmpty)
    }

    @Test func playsTheFirstStandaloneAdThatResolves() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("buffet.xml", VASTText.document(
            VASTText.wrapper(id: "empty", tag: "no-fill.xml"),
            VASTText.inline(id: "second"), VASTText.inline(id: "third")))
        try dir.write("no-fill.xml", "<VAST version=\"4.0\"/>")
        let r = try await resolve(path)
        #expect(r.ads.map(\.id) == ["second"])
        #expect(r.errors.map(\.code) == [.noAdsAfterWrapper])
        #expect(r.errors[0].message.hasPrefix("\(dir.path)/no-fill.xml: no ads after 1 wrapper(s), last ad 'empty'"))
    }

    /// A render reads every document of a local chain, so none of them may be its output: the ad lists them
    /// (after the URL map), and `AdsLoader.localFiles` finds them with the media without resolving (`pipctl batch`).
    @Test func anAdListsTheLocalDocumentsItWasReadFrom() async throws {
        let dir = try TemporaryDirectory()
        let inline = try dir.write("inline.xml", VASTText.document(VASTText.inline(id: "a", media: "media/ad.mp4")))
        let middle = try dir.write("middle.xml", VASTText.document(VASTText.wrapper(id: "m", tag: "http://ads.example/inline.xml")))
        let outer = try dir.write("outer.xml", VASTText.document(VASTText.wrapper(id: "o", tag: "middle.xml")))
        var settings = AdsLoaderSettings()
        settings.urlMap = URLMap(rules: [URLMap.Rule(urlPrefix: "http://ads.example/", localPrefix: dir.path + "/")])
        let resolved = try await resolve(outer, settings: settings)
        #expect(resolved.ads.map(\.documents) == [[inline, middle, outer]])
        #expect(AdsLoader(settings: settings).localFiles(of: outer) == [outer, middle, inline, dir.path + "/media/ad.mp4"])
        // Without the map, the remote document is not fetched: what it names is not known.
        #expect(AdsLoader().localFiles(of: outer) == [outer, middle])
    }

    @Test func takesOneAdWhenTheWrapperDoesNotAllowMultipleAds() async throws {
        let dir = try TemporaryDirectory()
        try dir.write("pod.xml", VASTText.document(VASTText.inline(id: "p1", sequence: 1), VASTText.inline(id: "p2", sequence: 2),
                                                   VASTText.inline(id: "solo")))
        let single = try dir.write("single.xml", VASTText.document(VASTText.wrapper(id: "w", tag: "pod.xml")))
        let multiple = try dir.write("multiple.xml", VASTText.document(VASTText.wrapper(id: "w", tag: "pod.xml",
                                                                                        attributes: "allowMultipleAds=\"true\"")))
        let one = try await resolve(single)
        #expect(one.ads.map(\.id) == ["solo"])
        #expect(one.warnings.map(\.message).contains { $0.contains("does not allow multiple ads; only ad 'solo' (line 11) is used, 2 other ad(s) ignored") })
        let all = try await resolve(multiple)
        #expect(all.ads.map(\.id) == ["p1", "p2"])
        #expect(all.ads.allSatisfy { $0.beacons.impressions.first == "https://track.example/w-impression" })
    }

    @Test func refusesAWrapperBelowOneThatForbidsThem() async throws {
        let dir = try TemporaryDirectory()
        let top = try dir.write("top.xml", VASTText.document(VASTText.wrapper(id: "strict", tag: "next.xml",
                                                                             attributes: "followAdditionalWrappers=\"false\"")))
        try dir.write("next.xml", VASTText.document(VASTText.wrapper(id: "another", tag: "inline.xml")))
        try dir.write("inline.xml", VASTText.document(VASTText.inline(id: "never")))
        let r = try await resolve(top)
        #expect(r.ads.isEmpty)
        #expect(r.errors.map(\.code) == [.wrapperLimit])
        #expect(r.errors[0].message.contains("followAdditionalWrappers=\"false\" on ad 'strict' (line 1)"))
        #expect(r.errors[0].errorURLs == ["https://track.example/strict-error?c=[ERRORCODE]", "https://track.example/another-error?c=[ERRORCODE]"])
    }

    @Test func stopsAChainDeeperThanTheLimitWith302() async throws {
        let dir = try TemporaryDirectory()
        for i in 0..<100 {
            try dir.write("w\(i).xml", VASTText.document(VASTText.wrapper(id: "w\(i)", tag: "w\(i + 1).xml")))
        }
        let r = try await resolve(dir.path + "/w0.xml")
        #expect(r.ads.isEmpty)
        #expect(r.errors.map(\.code) == [.wrapperLimit])
        #expect(r.errors[0].message == "wrapper ad 'w5' (line 1) in \(dir.path)/w5.xml not followed: wrapper limit of 5 reached")
        #expect(r.errors[0].errorURLs.count == 6)
    }

    @Test func allowsExactlyTheDepthLimit() async throws {
        let dir = try TemporaryDirectory()
        for i in 0..<5 { try dir.write("w\(i).xml", VASTText.document(VASTText.wrapper(id: "w\(i)", tag: "w\(i + 1).xml"))) }
        try dir.write("w5.xml", VASTText.document(VASTText.inline(id: "deep")))
        let r = try await resolve(dir.path + "/w0.xml")
        #expect(r.ads.map(\.id) == ["deep"])
        #expect(r.ads[0].wrappers.count == 5)
        var settings = AdsLoaderSettings()
        settings.maximumWrapperDepth = 4
        #expect(try await resolve(dir.path + "/w0.xml", settings: settings).errors.map(\.code) == [.wrapperLimit])
    }

    @Test func detectsALoopWith302() async throws {
        let dir = try TemporaryDirectory()
        try dir.write("a.xml", VASTText.document(VASTText.wrapper(id: "a", tag: "b.xml")))
        try dir.write("b.xml", VASTText.document(VASTText.wrapper(id: "b", tag: "./a.xml")))
        let r = try await resolve(dir.path + "/a.xml")
        #expect(r.errors.map(\.code) == [.wrapperLimit])
        #expect(r.errors[0].message == "wrapper loop: ad 'b' (line 1) in \(dir.path)/b.xml points back at \(dir.path)/a.xml")
    }

    @Test func reportsVPAIDOnlyAdsWith901AndPlaysTheMP4BesideVPAID() async throws {
        let vpaid = try await AdsLoader().load(AdsRequest(adTag: DecisioningFixtures.path("VAST/vpaid.xml")))
        let failed = try #require(vpaid.plan.breaks.first?.ads.first)
        #expect(failed.state == .failed)
        #expect(failed.error?.code == .vpaid)
        #expect(failed.error?.errorURLs == ["https://track.example/vpaid-error?c=[ERRORCODE]"])
        #expect(failed.ad.selection?.candidates.map(\.accepted) == [false, false])
        let mixed = try await AdsLoader().load(AdsRequest(adTag: DecisioningFixtures.path("VAST/vpaid-and-mp4.xml")))
        let ok = try #require(mixed.plan.breaks.first?.ads.first)
        #expect(ok.state == .available)
        #expect(ok.ad.selection?.chosen?.url == "https://cdn.example/fallback.mp4")
        #expect(ok.ad.selection?.candidates.first?.reason == "VPAID creative (apiFramework VPAID) is not played")
    }

    @Test func reportsAnInteractiveOnlyCreativeWith902() async throws {
        let r = try await resolve(DecisioningFixtures.path("VAST/interactive.xml"))
        #expect(r.ads.isEmpty)
        #expect(r.errors.map(\.code) == [.interactiveCreative])
        #expect(r.errors[0].message.hasSuffix("its SIMID InteractiveCreativeFile is not run and it has no MediaFile to play"))
    }

    @Test(arguments: [
        (#"<Ad id="x"/>"#, VASTErrorCode.schemaValidation, "has neither InLine nor Wrapper"),
        (#"<Ad id="x"><Wrapper><AdSystem>s</AdSystem></Wrapper></Ad>"#, .schemaValidation, "has no VASTAdTagURI"),
        (#"<Ad id="x"><InLine><AdSystem>s</AdSystem><Creatives/></InLine></Ad>"#, .schemaValidation, "has no Linear creative"),
        (#"<Ad id="x"><InLine><Creatives><Creative><Linear><Duration>00:00:05</Duration></Linear></Creative></Creatives></InLine></Ad>"#,
         .schemaValidation, "Linear creative has no MediaFile"),
        (#"<Ad id="x"><InLine><Creatives><Creative><NonLinearAds><NonLinear/></NonLinearAds></Creative></Creatives></InLine></Ad>"#,
         .unexpectedLinearity, "has only non-linear creatives (overlays are not played)"),
        (#"<Ad id="x"><Wrapper><VASTAdTagURI>ftp://ads.example/v.xml</VASTAdTagURI></Wrapper></Ad>"#, .wrapperTimeout,
         "VASTAdTagURI 'ftp://ads.example/v.xml' is not an http(s) URL, file URL or path"),
    ])
    func reportsUnplayableAdsSayingWhatIsMissing(ad: String, code: VASTErrorCode, missing: String) async throws {
        let dir = try TemporaryDirectory()
        let r = try await resolve(try dir.write("x.xml", VASTText.document(ad)))
        #expect(r.ads.isEmpty)
        #expect(r.errors.map(\.code) == [code])
        #expect(r.errors.first?.message.contains(missing) == true, "\(r.errors)")
    }

    @Test func reportsABrokenWrappedResponseWithItsCode() async throws {
        let dir = try TemporaryDirectory()
        let top = try dir.write("top.xml", VASTText.document(VASTText.wrapper(id: "w", tag: "broken.xml"),
                                                             VASTText.wrapper(id: "old", tag: "old.xml")))
        try dir.write("broken.xml", "<VAST version=\"3.0\">\n<Ad>\n</VAST>")
        try dir.write("old.xml", "<VideoAdServingTemplate/>")
        let r = try await resolve(top)
        #expect(r.errors.map(\.code) == [.xmlParsing, .versionNotSupported])
        #expect(r.errors[0].message == "wrapper ad 'w' (line 1) in \(top): \(dir.path)/broken.xml is not well-formed XML: line 3: closing tag does not match the open element")
    }

    @Test func makesRelativeMediaURLsAbsolute() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("sub/v.xml", VASTText.document(VASTText.inline(id: "rel", media: "../media/ad.mp4")))
        let r = try await resolve(path)
        #expect(r.ads.first?.mediaFiles.first?.url == dir.path + "/media/ad.mp4")
    }

    @Test func reportsNoFillWithTheTopLevelErrorURL() async throws {
        let r = try await resolve(DecisioningFixtures.path("VAST/no-fill.xml"))
        #expect(r.isNoFill)
        #expect(r.errors == [AdError(.noAdsAfterWrapper, "\(DecisioningFixtures.path("VAST/no-fill.xml")): no ads (no fill)",
                                     errorURLs: ["https://track.example/no-fill?c=[ERRORCODE]"])])
    }
}
