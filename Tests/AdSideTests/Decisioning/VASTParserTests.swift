@testable import AdDecisioning
import Foundation
import MediaCore
import Testing

@Suite struct VASTParserTests {
    @Test func parsesInlineLinearAdWithEveryPiece() throws {
        let doc = try DecisioningFixtures.vast("VAST/inline-linear.xml")
        #expect(doc.version == "4.2")
        #expect(doc.ads.count == 1)
        let ad = try #require(doc.ads.first)
        #expect(ad.id == "inline-1")
        #expect(ad.sequence == nil)
        #expect(ad.conditionalAd == false)
        #expect(ad.adType == "video")
        #expect(ad.kind == .inline)
        #expect(ad.adSystem == VASTAdSystem(name: "pipctl-fixtures", version: "4.2"))
        #expect(ad.adTitle == "Inline linear")
        #expect(ad.advertiser == "Example Advertiser")
        #expect(ad.errorURLs == ["https://track.example/error?code=[ERRORCODE]"])
        // The second impression is broken over lines and holds an escaped '&': white space goes, the '&' stays.
        #expect(ad.impressions == ["https://track.example/impression?ad=inline-1",
                                   "https://track.example/impression2?ad=inline-1&cb=[CACHEBUSTING]"])
        #expect(ad.creatives.count == 3)
        let creative = ad.creatives[0]
        #expect(creative.id == "creative-1")
        #expect(creative.adId == "ISCI-0001")
        #expect(creative.universalAdIds == [UniversalAdId(registry: "Ad-ID", value: "8465")])
        let linear = try #require(creative.linear)
        #expect(linear.duration == MediaDuration(seconds: 30))
        #expect(linear.skipOffset == .time(MediaDuration(seconds: 5)))
        #expect(linear.clickThrough == "https://advertiser.example/landing")
        #expect(linear.clickTracking == ["https://track.example/click1", "https://track.example/click2"])
        #expect(linear.customClicks == ["https://track.example/custom"])
        #expect(linear.mezzanineURLs == ["https://cdn.example/mezzanine.mp4"])
        #expect(linear.tracking.map(\.event.rawValue) == ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile",
                                                 "complete", "progress", "progress", "skip"])
        #expect(linear.tracking[6].offset == .time(MediaDuration(seconds: Rational(21, 2))))
        #expect(linear.tracking[7].offset == .fraction(Rational(1, 4)))
        #expect(linear.tracking[1].offset == nil)
    }

    @Test func keepsEveryMediaFileAttribute() throws {
        let linear = try #require(try DecisioningFixtures.vast("VAST/inline-linear.xml").ads[0].linearCreatives.first)
        #expect(linear.mediaFiles.count == 5)
        #expect(linear.mediaFiles[0] == MediaFile(url: "https://cdn.example/ads/hd.mp4", delivery: "progressive",
                                                  type: "video/mp4", width: 1280, height: 720, bitrate: 2000,
                                                  minBitrate: 1500, maxBitrate: 2500, codec: "avc1.4D401F", id: "hd",
                                                  apiFramework: nil, scalable: true, maintainAspectRatio: true,
                                                  fileSize: 4_000_000, mediaType: "2D"))
        #expect(linear.mediaFiles[1].scalable == false)
        #expect(linear.mediaFiles[1].maintainAspectRatio == false)
        #expect(linear.mediaFiles[4].delivery == "streaming")
        #expect(linear.mediaFiles[4].type == "application/x-mpegURL")
    }

    @Test func keepsNonLinearAndCompanionCreatives() throws {
        let ad = try DecisioningFixtures.vast("VAST/inline-linear.xml").ads[0]
        let overlays = try #require(ad.creatives[1].nonLinearAds)
        #expect(overlays.tracking == [TrackingEvent(event: .creativeView, url: "https://track.example/overlay-view")])
        let overlay = try #require(overlays.nonLinears.first)
        #expect(overlay.size == PixelSize(width: 480, height: 70))
        #expect(overlay.expandedSize == PixelSize(width: 640, height: 360))
        #expect(overlay.minSuggestedDuration == MediaDuration(seconds: 10))
        #expect(overlay.resources == [.staticResource(url: "https://cdn.example/overlay.png", creativeType: "image/png")])
        #expect(overlay.clickThrough == "https://advertiser.example/overlay")
        #expect(overlay.clickTracking == ["https://track.example/overlay-click"])
        let companion = try #require(ad.creatives[2].companions.first)
        #expect(companion.size == PixelSize(width: 300, height: 250))
        #expect(companion.adSlotId == "side")
        #expect(companion.resources == [.iframe(url: "https://cdn.example/companion.html"),
                                        .html("<a href=\"https://advertiser.example\">Visit</a>")])
        #expect(companion.clickThrough == "https://advertiser.example/companion")
        #expect(companion.clickTracking == ["https://track.example/companion-click"])
        #expect(companion.tracking.map(\.url) == ["https://track.example/companion-view"])
        #expect(companion.altText == "Visit the advertiser")
    }

    @Test func readsWrapperAttributesWrittenAnyWay() throws {
        let outer = try DecisioningFixtures.vast("VAST/wrapper-outer.xml").ads[0]
        #expect(outer.kind == .wrapper(VASTWrapper(tagURI: "wrapper-middle.xml", followAdditionalWrappers: true,
                                                   allowMultipleAds: false, fallbackOnNoAd: false)))
        let middle = try DecisioningFixtures.vast("VAST/wrapper-middle.xml").ads[0]
        // A tag URI broken over lines loses its white space.
        #expect(middle.kind == .wrapper(VASTWrapper(tagURI: "inline-linear.xml", followAdditionalWrappers: true)))
    }

    @Test(arguments: [("1", true), ("0", false), ("true", true), ("True", true), ("false", false), ("FALSE", false)])
    func readsBooleans(written: String, expected: Bool) throws {
        let doc = try VASTParser().parse(Data(VASTText.document(VASTText.wrapper(
            id: "w", tag: "x.xml", attributes: "followAdditionalWrappers=\"\(written)\" allowMultipleAds=\"\(written)\" fallbackOnNoAd=\"\(written)\"")).utf8),
            source: "test")
        #expect(doc.ads[0].kind == .wrapper(VASTWrapper(tagURI: "x.xml", followAdditionalWrappers: expected,
                                                        allowMultipleAds: expected, fallbackOnNoAd: expected)))
    }

    @Test func readsLegacyWrapperTagURL() throws {
        let text = #"<VAST version="2.0"><Ad><Wrapper><AdSystem>old</AdSystem><VASTAdTagURL><URL><![CDATA[next.xml]]></URL></VASTAdTagURL></Wrapper></Ad></VAST>"#
        let doc = try VASTParser().parse(Data(text.utf8), source: "test")
        #expect(doc.ads[0].kind == .wrapper(VASTWrapper(tagURI: "next.xml")))
    }

    @Test(arguments: [
        ("00:00:30", MediaDuration(seconds: 30) as MediaDuration?),
        ("30", MediaDuration(seconds: 30)),
        ("00:00:05.6", MediaDuration(seconds: Rational(28, 5))),
        ("00:00:05.600", MediaDuration(seconds: Rational(28, 5))),
        ("  00:01:00  ", MediaDuration(seconds: 60)),
        ("undefined", nil),
        ("", nil),
    ])
    func readsDurationsAsRealResponsesWriteThem(written: String, expected: MediaDuration?) throws {
        let text = VASTText.document(VASTText.inline(id: "d").replacingOccurrences(of: "<Duration>00:00:10</Duration>",
                                                                                   with: "<Duration>\(written)</Duration>"))
        let doc = try VASTParser().parse(Data(text.utf8), source: "test")
        #expect(doc.ads[0].linearCreatives[0].duration == expected)
        #expect(doc.warnings.isEmpty)
    }

    @Test func dropsAnUnreadableDurationWithAWarning() throws {
        let text = VASTText.document(VASTText.inline(id: "d").replacingOccurrences(of: "00:00:10", with: "ten seconds"))
        let doc = try VASTParser().parse(Data(text.utf8), source: "test.xml")
        #expect(doc.ads[0].linearCreatives[0].duration == nil)
        #expect(doc.warnings.count == 1)
        #expect(doc.warnings[0].code == .schemaValidation)
        #expect(doc.warnings[0].message.contains("test.xml: line 2: Duration 'ten seconds'"))
    }

    @Test(arguments: [
        ("00:00:05", AdOffset.time(MediaDuration(seconds: 5)) as AdOffset?),
        ("00:00:05.250", .time(MediaDuration(seconds: Rational(21, 4)))),
        ("25%", .fraction(Rational(1, 4))),
        ("12.5%", .fraction(Rational(1, 8))),
        ("00:01:00", .time(MediaDuration(seconds: 60))),
        ("150%", nil),
        ("soon", nil),
    ])
    func readsSkipOffsets(written: String, expected: AdOffset?) throws {
        let text = VASTText.document(VASTText.inline(id: "s").replacingOccurrences(of: "<Linear>", with: "<Linear skipoffset=\"\(written)\">"))
        let doc = try VASTParser().parse(Data(text.utf8), source: "test")
        #expect(doc.ads[0].linearCreatives[0].skipOffset == expected)
        #expect(doc.warnings.isEmpty == (expected != nil))
    }

    @Test func keepsASkipOffsetLongerThanTheAd() throws {
        // The declared 10 s may be wrong; the media's real length decides whether 00:01:00 is ever reached.
        let text = VASTText.document(VASTText.inline(id: "s").replacingOccurrences(of: "<Linear>", with: "<Linear skipoffset=\"00:01:00\">"))
        let doc = try VASTParser().parse(Data(text.utf8), source: "test")
        #expect(doc.ads[0].linearCreatives[0].skipOffset == .time(MediaDuration(seconds: 60)))
    }

    @Test func toleratesByteOrderMarkCommentsAndLeadingWhiteSpace() throws {
        let text = "\u{FEFF}\n\n  <?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- served by a CMS -->\n<?xml-stylesheet href=\"x\"?>\n"
            + VASTText.document(VASTText.inline(id: "bom"))
        let doc = try VASTParser().parse(Data(text.utf8), source: "test")
        #expect(doc.ads.map(\.id) == ["bom"])
    }

    @Test func readsUTF16Documents() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + VASTText.document(VASTText.inline(id: "utf16"))
        var data = Data([0xFF, 0xFE])
        data.append(text.data(using: .utf16LittleEndian)!)
        #expect(try VASTParser().parse(data, source: "test").ads.map(\.id) == ["utf16"])
    }

    @Test func readsTheDeclaredEncoding() throws {
        let text = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + VASTText.document(VASTText.inline(id: "latin"))
            .replacingOccurrences(of: "<AdTitle>latin</AdTitle>", with: "<AdTitle>Caf\u{E9}</AdTitle>")
        let data = try #require(text.data(using: .isoLatin1))
        #expect(try VASTParser().parse(data, source: "test").ads[0].adTitle == "Caf\u{E9}")
    }

    @Test func matchesLocalNamesWhateverThePrefixOrCase() throws {
        let text = """
        <v:VAST xmlns:v="http://www.iab.com/VAST" version="3.0"><v:Ad id="p"><v:Inline><v:AdSystem>x</v:AdSystem>
        <v:Creatives><v:Creative><v:Linear><v:Duration>00:00:10</v:Duration><v:MediaFiles>
        <v:MediaFile type="video/mp4" width="640" height="360">https://cdn.example/a.mp4</v:MediaFile>
        </v:MediaFiles></v:Linear></v:Creative></v:Creatives></v:Inline></v:Ad></v:VAST>
        """
        let doc = try VASTParser().parse(Data(text.utf8), source: "test")
        #expect(doc.ads[0].kind == .inline)
        #expect(doc.ads[0].linearCreatives[0].mediaFiles.map(\.url) == ["https://cdn.example/a.mp4"])
    }

    @Test func readsVAST3StyleAdIDAsUniversalAdId() throws {
        let text = VASTText.document(VASTText.inline(id: "a").replacingOccurrences(of: "<Creative>", with: "<Creative AdID=\"ABCD1234\">"),
                                     version: "3.0")
        let doc = try VASTParser().parse(Data(text.utf8), source: "test")
        #expect(doc.ads[0].creatives[0].universalAdIds == [UniversalAdId(registry: "Ad-ID", value: "ABCD1234")])
    }

    @Test func readsVAST40UniversalAdIdValueAttribute() throws {
        let text = VASTText.document(VASTText.inline(id: "a").replacingOccurrences(
            of: "<Creative>", with: "<Creative><UniversalAdId idRegistry=\"ad-id.org\" idValue=\"CNPA0484000H\">unknown</UniversalAdId>"))
        let doc = try VASTParser().parse(Data(text.utf8), source: "test")
        #expect(doc.ads[0].creatives[0].universalAdIds == [UniversalAdId(registry: "ad-id.org", value: "CNPA0484000H")])
    }

    @Test func separatesPodsFromStandaloneAds() throws {
        let doc = try DecisioningFixtures.vast("VAST/pod-buffet.xml")
        #expect(doc.ads.map(\.id) == ["buffet-a", "pod-3", "pod-1", "pod-2", "buffet-b"])
        #expect(doc.pod.map(\.id) == ["pod-1", "pod-2", "pod-3"])
        #expect(doc.standaloneAds.map(\.id) == ["buffet-a", "buffet-b"])
    }

    @Test func readsANoFillResponseWithItsErrorURL() throws {
        let doc = try DecisioningFixtures.vast("VAST/no-fill.xml")
        #expect(doc.isNoFill)
        #expect(doc.errorURLs == ["https://track.example/no-fill?c=[ERRORCODE]"])
    }

    @Test func dropsAMediaFileWithoutURLAndSaysWhere() throws {
        let text = VASTText.document(VASTText.inline(id: "m").replacingOccurrences(
            of: "<MediaFiles>", with: "<MediaFiles><MediaFile type=\"video/mp4\">  </MediaFile>"))
        let doc = try VASTParser().parse(Data(text.utf8), source: "m.xml")
        #expect(doc.ads[0].linearCreatives[0].mediaFiles.count == 1)
        #expect(doc.warnings.map(\.message) == ["m.xml: line 4: MediaFile without URL skipped"])
    }

    @Test func keepsAnAdWithNeitherInLineNorWrapperAsEmpty() throws {
        let doc = try VASTParser().parse(Data(#"<VAST version="3.0"><Ad id="x"/></VAST>"#.utf8), source: "test")
        #expect(doc.ads[0].kind == .empty)
    }

    @Test(arguments: ["VAST/vast1.xml"])
    func refusesVAST1Root(name: String) throws {
        #expect(throws: DecisioningError.unsupportedVersion(source: name, version: "1")) {
            _ = try DecisioningFixtures.vast(name)
        }
    }

    @Test(arguments: ["1.0", "1.1", "1"])
    func refusesVAST1Version(version: String) throws {
        let error = #expect(throws: DecisioningError.self) {
            _ = try VASTParser().parse(Data(VASTText.document(VASTText.inline(id: "v"), version: version).utf8), source: "old.xml")
        }
        #expect(error?.code == .versionNotSupported)
        #expect(error?.description == "VAST error 102: old.xml is VAST \(version); VAST 1 is not supported")
    }

    @Test func refusesAnotherRootWith101() throws {
        let error = #expect(throws: DecisioningError.self) {
            _ = try VASTParser().parse(Data("<html><body/></html>".utf8), source: "page.html")
        }
        #expect(error == .unexpectedRoot(source: "page.html", root: "html", expected: "<VAST>"))
        #expect(error?.code == .schemaValidation)
    }

    @Test(arguments: [
        ("{ vast: null }\n", 1),
        ("<VAST version=\"3.0\">\n<Ad>\n<InLine>\n</VAST>\n", 4),
        ("<VAST version=\"3.0\">\n<Ad><InLine><Impression>https://x.example/?a=1&b=2</Impression></InLine></Ad></VAST>", 2),
        ("", 1),
        ("\n\n\n<VAST version=\"3.0\"><Ad></VAST>", 4),
    ])
    func reportsNonXMLWith100AndTheLine(text: String, line: Int) throws {
        let error = #expect(throws: DecisioningError.self) {
            _ = try VASTParser().parse(Data(text.utf8), source: "bad.xml")
        }
        #expect(error?.code == .xmlParsing)
        guard case .malformedXML(let source, let reported, _) = error else {
            Issue.record("expected malformedXML, got \(String(describing: error))")
            return
        }
        #expect(source == "bad.xml")
        #expect(reported == line)
        #expect(error?.description.hasPrefix("VAST error 100: bad.xml is not well-formed XML: line \(line): ") == true)
    }
}
