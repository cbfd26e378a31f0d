@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// What a render draws in a banner's slot over time (`ScreenAdRun`), from creatives a loopback server answered.
@Suite struct ScreenAdRunTests {
    @Test func eachScenesBannerShowsTheLatestLoadAndNothingAfterAFailure() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("banner", PointSize(width: 393, height: 90))
        // 734x58 (landscape) is not served: the reload after the rotation fails.
        let timeline = ScreenTimeline(initial: ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)]),
                                      commands: [(MediaTime(seconds: 1), .rotate(.landscape)), (MediaTime(seconds: 2), .rotate(.portrait))])
        let driver = try ScreenAdDriver(timeline: timeline, banners: [
            BannerPlacement(scene: "main", source: .image(AdRequestTemplate(ads.url("/banner/[WIDTH]x[HEIGHT].png")))),
        ])
        let run = await ScreenAdRun.load(driver, with: ScreenAdLoader())
        func width(at seconds: Rational) -> Int? {
            guard case .image(_, let header, _)? = run.bannerCreative(of: "main", at: MediaTime(seconds: seconds))?.content else { return nil }
            return header.size.width
        }
        #expect(run.requests.count == 3)
        #expect([width(at: Rational(0)), width(at: Rational(1, 2)), width(at: Rational(1)), width(at: Rational(3, 2)), width(at: Rational(2))] == [393, 393, nil, nil, 393])
        #expect(run.bannerCreative(of: "other", at: .zero) == nil)
        #expect(run.events.filter { $0.type == .bannerViewDidFailToReceiveAd }.map(\.time) == [MediaTime(seconds: 1)])
    }

    @Test func aCommandLineValueIsAVASTDocumentByItsNameOrPrefix() {
        #expect(CreativeSource(argument: "b.png") == .image(AdRequestTemplate("b.png")))
        #expect(CreativeSource(argument: "http://h/ad.XML?w=[WIDTH]") == .vast(AdRequestTemplate("http://h/ad.XML?w=[WIDTH]")))
        #expect(CreativeSource(argument: "vast:http://h/tag?w=1") == .vast(AdRequestTemplate("http://h/tag?w=1")))
        #expect(CreativeSource(argument: "b.vast").localPath == "b.vast")
        #expect(CreativeSource(argument: "https://h/b.png").localPath == nil)
        #expect(CreativeSource(argument: "b-[WIDTH].png").localPath == nil)
        #expect(CreativeSource(argument: "file:///tmp/b.png").localPath == "/tmp/b.png")
    }
}
