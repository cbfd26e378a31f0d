@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// The creative fetch: request macros, image headers, and hostile responses refused like any other fetch.
@Suite struct ScreenAdLoaderTests {
    @Test func requestMacrosExpandTheSizeScaleAndSceneAndLeaveOtherNames() {
        let template = AdRequestTemplate("https://ads.example/b?w=[WIDTH]&h=%5BHEIGHT%5D&s=[SCALE]&scene=[SCENE]&ts=[TIMESTAMP]&x=[")
        let size = PointSize(width: 393, height: 90)
        #expect(template.expanded(size: size, scale: PointScale(Rational(21, 8)), scene: "split view")
                    == "https://ads.example/b?w=393&h=90&s=2.625&scene=split%20view&ts=[TIMESTAMP]&x=[")
        #expect(template.expanded(size: size, scale: PointScale(Rational(2)), scene: nil)
                    == "https://ads.example/b?w=393&h=90&s=2&scene=-1&ts=[TIMESTAMP]&x=[")
        #expect(AdRequestTemplate.decimal(Rational(1, 3)) == "0.333333")
    }

    @Test func theImageHeaderGivesTheFormatAndSizeOfFFmpegMadeImages() throws {
        let directory = try TemporaryDirectory()
        for (name, format) in [("a.png", ImageHeader.Format.png), ("a.jpg", .jpeg), ("a.gif", .gif)] {
            let file = try SizedCreativeServer.image(in: directory, name, PointSize(width: 320, height: 50))
            let header = try #require(ImageHeader(Data(contentsOf: URL(fileURLWithPath: file))))
            #expect(header == ImageHeader(format: format, size: PixelSize(width: 320, height: 50)))
        }
        #expect(ImageHeader(Data("<VAST/>".utf8)) == nil)
        #expect(ImageHeader(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00])) == nil)
    }

    @Test func anOversizedCreativeIsRefusedAtTheDocumentLimit() async throws {
        let ads = try SizedCreativeServer()
        let file = try ads.serveImage("banner", PointSize(width: 640, height: 480))
        let bytes = try #require(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        var settings = AdsLoaderSettings()
        settings.maximumDocumentBytes = bytes - 1
        let url = ads.url("/banner/640x480.png")
        await #expect(throws: ScreenAdError.fetch(.documentTooLarge(source: url, bytes: nil, limit: bytes - 1))) {
            try await ScreenAdLoader(settings: settings).load(.image(AdRequestTemplate(url)), url: url)
        }
    }

    @Test func aRemoteDocumentCannotMakeTheLoaderReadALocalImage() async throws {
        let ads = try SizedCreativeServer()
        let local = try SizedCreativeServer.image(in: ads.directory, "local.png", PointSize(width: 393, height: 90))
        ads.server.route("/vast", .xml(BannerLoadingTests.nonLinearVAST(image: "file://\(local)", base: ads.url(""))))
        let url = ads.url("/vast")
        do {
            _ = try await ScreenAdLoader().load(.vast(AdRequestTemplate(url)), url: url)
            Issue.record("a remote document's file: StaticResource was loaded")
        } catch {
            guard case .noCreative(let source, let detail) = error else { throw error }
            #expect(source == url)
            #expect(detail.contains("no NonLinear or Companion image StaticResource"))
            #expect(detail.contains("'file://\(local)' dropped: a document fetched over http(s) may only use http(s) URLs"))
        }
        // Only the document was fetched; the server never saw a second request, and nothing local was read.
        #expect(ads.server.requests.map(\.target) == ["/vast"])
    }

    @Test func aResponseThatIsNotAnImageFailsTheBanner() async throws {
        let ads = try SizedCreativeServer()
        ads.server.route("/banner.png", .xml("<html/>"))
        let url = ads.url("/banner.png")
        await #expect(throws: ScreenAdError.notAnImage(source: url)) {
            try await ScreenAdLoader().load(.image(AdRequestTemplate(url)), url: url)
        }
        let timeline = ScreenTimeline(initial: ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)]), commands: [])
        let events = try await ScreenAdDriver(timeline: timeline, banners: [BannerPlacement(scene: "main", source: .image(AdRequestTemplate(url)))])
            .run(with: ScreenAdLoader())
        #expect(events.map(\.type) == [.bannerViewDidFailToReceiveAd])
        #expect(events.first?.columns.message == "\(url): not a PNG, JPEG or GIF image")
    }

    static func wrapper(_ tag: String, impression: String) -> String {
        """
        <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>t</AdSystem>
        <Impression><![CDATA[\(impression)]]></Impression>
        <VASTAdTagURI><![CDATA[\(tag)]]></VASTAdTagURI></Wrapper></Ad></VAST>
        """
    }

    @Test func aWrapperIsFollowedAndAddsItsImpressionButMayNotPointAtALocalFile() async throws {
        let ads = try SizedCreativeServer()
        try ads.serveImage("creative", PointSize(width: 393, height: 90))
        ads.server.route("/inline", .xml(BannerLoadingTests.nonLinearVAST(image: ads.url("/creative/393x90.png"), base: ads.url(""))))
        ads.server.route("/wrapper", .xml(Self.wrapper(ads.url("/inline"), impression: ads.url("/wrapper-imp"))))
        let url = ads.url("/wrapper")
        let creative = try await ScreenAdLoader().load(.vast(AdRequestTemplate(url)), url: url)
        #expect(creative.impressions == [ads.url("/wrapper-imp"), ads.url("/imp?ts=[TIMESTAMP]")])
        #expect(creative.clickThrough == "https://advertiser.example/landing")
        #expect(ads.server.requests.map(\.target) == ["/wrapper", "/inline", "/creative/393x90.png"])
        #expect(creative.documents.isEmpty, "remote documents are no local file")

        let local = try ads.directory.write("inline.xml", BannerLoadingTests.nonLinearVAST(image: ads.url("/creative/393x90.png"), base: ads.url("")))
        ads.server.route("/hostile", .xml(Self.wrapper("file://\(local)", impression: ads.url("/wrapper-imp"))))
        let hostile = ads.url("/hostile")
        await #expect(throws: ScreenAdError.noCreative(source: hostile, detail: "\(hostile) was fetched over http(s) and may not reference the local file \(local)")) {
            try await ScreenAdLoader().load(.vast(AdRequestTemplate(hostile)), url: hostile)
        }
        #expect(ads.server.requests.count == 4)
    }

    /// The local documents a creative was read from, its wrappers' included, are inputs of the render
    /// (`RenderRequest.readFiles`), as a linear ad's are.
    @Test func aLocalWrapperChainsDocumentsAreTheCreativesDocuments() async throws {
        let folder = try TemporaryDirectory()
        _ = try SizedCreativeServer.image(in: folder, "local.png", PointSize(width: 393, height: 90))
        let inline = try folder.write("inline.xml", BannerLoadingTests.nonLinearVAST(image: "local.png", base: "http://127.0.0.1:9"))
        let wrapper = try folder.write("wrapper.xml", Self.wrapper("inline.xml", impression: "http://127.0.0.1:9/wrapper-imp"))
        let banner = try await ScreenAdLoader().load(.vast(AdRequestTemplate(wrapper)), url: wrapper)
        #expect(banner.documents == [inline, wrapper])
        #expect(banner.origin == folder.file("local.png"))
        let image = try await ScreenAdLoader().load(.image(AdRequestTemplate(folder.file("local.png"))), url: folder.file("local.png"))
        #expect(image.documents.isEmpty)
    }
}
