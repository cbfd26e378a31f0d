@testable import AdDecisioning
import Foundation
import MediaCore
import Testing

@Suite struct VMAPParserTests {
    func vmap(_ name: String) throws -> VMAPDocument {
        try VMAPParser().parse(DecisioningFixtures.data(name), source: name)
    }

    @Test func readsEveryBreakOfASchedule() throws {
        let doc = try vmap("VMAP/schedule.xml")
        #expect(doc.version == "1.0")
        #expect(doc.breaks.map(\.timeOffset) == [.start, .time(MediaTime(seconds: Rational(623_125, 1000))),
                                                 .fraction(Rational(1, 4)), .end])
        #expect(doc.breaks.map(\.breakId) == ["pre", "mid-time", "mid-percent", "post"])
        #expect(doc.breaks.allSatisfy { $0.breakType == "linear" })
        #expect(doc.warnings.isEmpty)
    }

    @Test func readsBreakTracking() throws {
        let pre = try vmap("VMAP/schedule.xml").breaks[0]
        #expect(pre.tracking == [
            TrackingEvent(event: .breakStart, url: "https://track.example/pre-breakStart"),
            TrackingEvent(event: .breakEnd, url: "https://track.example/pre-breakEnd"),
            TrackingEvent(event: .error, url: "https://track.example/pre-error?c=[ERRORCODE]"),
        ])
    }

    @Test func readsVASTAdDataAndTheOlderVASTData() throws {
        let doc = try vmap("VMAP/schedule.xml")
        guard case .vast(let pre) = doc.breaks[0].adSource?.content, case .vast(let mid) = doc.breaks[1].adSource?.content else {
            Issue.record("expected embedded VAST in both breaks")
            return
        }
        #expect(pre.ads.map(\.id) == ["pre-ad"])
        #expect(pre.ads[0].linearCreatives[0].skipOffset == .fraction(Rational(1, 10)))
        #expect(mid.version == "2.0")
        #expect(mid.ads.map(\.adTitle) == ["Mid-roll (VASTData)"])
        #expect(doc.breaks[0].adSource?.id == "pre-source")
        #expect(doc.breaks[0].adSource?.allowMultipleAds == true)
        #expect(doc.breaks[0].adSource?.followRedirects == true)
    }

    @Test func readsAdTagURI() throws {
        let post = try vmap("VMAP/schedule.xml").breaks[3]
        #expect(post.adSource?.content == .adTagURI("../VAST/inline-linear.xml", templateType: "vast4"))
        #expect(post.adSource?.allowMultipleAds == false)
    }

    @Test func readsRepeatAfterWithoutANamespace() throws {
        let doc = try vmap("VMAP/repeat.xml")
        #expect(doc.breaks[0].repeatAfter == MediaDuration(seconds: 30))
        #expect(doc.breaks[1].breakId == nil)
    }

    @Test(arguments: [
        ("start", BreakOffset.start as BreakOffset?),
        ("end", .end),
        ("00:00:15", .time(MediaTime(seconds: 15))),
        ("00:10:23.125", .time(MediaTime(seconds: Rational(623_125, 1000)))),
        ("01:00:00.5", .time(MediaTime(seconds: Rational(7201, 2)))),
        ("50%", .fraction(Rational(1, 2))),
        ("0%", .fraction(.zero)),
        ("100%", .fraction(.one)),
        ("#1", .position(1)),
        ("#12", .position(12)),
        ("#0", nil),
        ("101%", nil),
        ("middle", nil),
        ("", nil),
    ])
    func readsTimeOffsets(written: String, expected: BreakOffset?) {
        #expect(BreakOffset(vmap: written) == expected)
    }

    @Test func skipsABreakWithAnUnreadableTimeOffsetAndSaysWhy() throws {
        let text = """
        <VMAP version="1.0">
          <AdBreak timeOffset="soon" breakType="linear"><AdSource><AdTagURI>a.xml</AdTagURI></AdSource></AdBreak>
          <AdBreak timeOffset="start" breakType="linear"><AdSource><AdTagURI>b.xml</AdTagURI></AdSource></AdBreak>
        </VMAP>
        """
        let doc = try VMAPParser().parse(Data(text.utf8), source: "v.xml")
        #expect(doc.breaks.map(\.timeOffset) == [.start])
        #expect(doc.warnings.map(\.message) == ["v.xml: line 2: AdBreak skipped: timeOffset 'soon' is not start, end, hh:mm:ss[.mmm], n% or #n"])
    }

    @Test func marksAnEmbeddedVAST1DocumentUnusable() throws {
        let text = """
        <VMAP version="1.0"><AdBreak timeOffset="start" breakType="linear"><AdSource><VASTAdData>
        <VideoAdServingTemplate><Ad/></VideoAdServingTemplate></VASTAdData></AdSource></AdBreak></VMAP>
        """
        let source = try VMAPParser().parse(Data(text.utf8), source: "v.xml").breaks[0].adSource
        guard case .unusable(let error) = source?.content else {
            Issue.record("expected unusable, got \(String(describing: source))")
            return
        }
        #expect(error.code == .versionNotSupported)
    }

    @Test func readsCustomAdDataAsUnsupported() throws {
        let text = #"<VMAP version="1.0"><AdBreak timeOffset="start" breakType="display"><AdSource><CustomAdData templateType="other">x</CustomAdData></AdSource></AdBreak></VMAP>"#
        let doc = try VMAPParser().parse(Data(text.utf8), source: "v.xml")
        #expect(doc.breaks[0].adSource?.content == .custom(templateType: "other"))
        #expect(doc.breaks[0].breakType == "display")
    }

    @Test func refusesAnotherRoot() throws {
        #expect(throws: DecisioningError.unexpectedRoot(source: "x.xml", root: "WRONG", expected: "<VMAP>")) {
            _ = try VMAPParser().parse(Data(#"<vmap:WRONG xmlns:vmap="http://www.iab.net/vmap-1.0"/>"#.utf8), source: "x.xml")
        }
    }

    @Test func toleratesUndeclaredPrefixes() throws {
        // The dailymotion samples write xsi: without declaring it; only local names matter.
        let text = #"<vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" version="1.0"><vmap:AdBreak timeOffset="start" breakType="linear"><vmap:AdSource><vmap:VASTAdData><VAST version="3.0" xsi:noNamespaceSchemaLocation="vast.xsd"></VAST></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak></vmap:VMAP>"#
        let doc = try VMAPParser().parse(Data(text.utf8), source: "x.xml")
        guard case .vast(let vast) = doc.breaks[0].adSource?.content else {
            Issue.record("expected embedded VAST")
            return
        }
        #expect(vast.isNoFill)
    }

    @Test func tellsVASTFromVMAP() throws {
        guard case .vmap = try AdResponse.parse(DecisioningFixtures.data("VMAP/pods.xml"), source: "pods") else {
            Issue.record("pods.xml is VMAP")
            return
        }
        guard case .vast = try AdResponse.parse(DecisioningFixtures.data("VAST/no-fill.xml"), source: "no-fill") else {
            Issue.record("no-fill.xml is VAST")
            return
        }
        #expect(throws: DecisioningError.unexpectedRoot(source: "x", root: "rss", expected: "<VAST> or <VMAP>")) {
            _ = try AdResponse.parse(Data("<rss/>".utf8), source: "x")
        }
    }
}
