@testable import AdDecisioning
import Foundation
import MediaCore
import Testing

/// A rendition named `id` (also its URL's file name).
private func rendition(_ id: String, _ w: Int?, _ h: Int?, bitrate: Int? = nil, type: String? = "video/mp4",
                       delivery: String? = "progressive", api: String? = nil) -> MediaFile {
    MediaFile(url: "https://cdn.example/\(id).mp4", delivery: delivery, type: type, width: w, height: h,
              bitrate: bitrate, id: id, apiFramework: api)
}

@Suite struct MediaSelectorTests {
    let renditions = [rendition("1080", 1920, 1080, bitrate: 4000), rendition("720", 1280, 720, bitrate: 2000),
                      rendition("480", 854, 480, bitrate: 1000), rendition("360", 640, 360, bitrate: 600),
                      rendition("240", 426, 240, bitrate: 300)]

    @Test(arguments: [
        (PixelSize(width: 640, height: 360), "360"),
        (PixelSize(width: 641, height: 360), "480"),
        (PixelSize(width: 1280, height: 720), "720"),
        (PixelSize(width: 3840, height: 2160), "1080"),
        (PixelSize(width: 320, height: 180), "240"),
        (PixelSize(width: 500, height: 500), "720"),
    ])
    func choosesTheSmallestRenditionCoveringTheWindowElseTheLargest(window: PixelSize, expected: String) {
        let (selection, failure) = MediaSelector(settings: .init(window: window)).select(renditions)
        #expect(failure == nil)
        #expect(selection.chosen?.id == expected)
        #expect(selection.candidates.count == renditions.count)
        #expect(selection.candidates.allSatisfy { $0.accepted })
    }

    @Test func ranksEveryAcceptableRenditionAsTheFallbacksAfterTheChoice() {
        let files = renditions + [rendition("unsized", nil, nil, bitrate: 9000), rendition("720low", 1280, 720, bitrate: 800)]
        let (selection, _) = MediaSelector(settings: .init(window: PixelSize(width: 640, height: 360))).select(files)
        // Covering the window, smallest first (equal sizes by bitrate), then the smaller ones largest first, then
        // those of unknown size.
        #expect(selection.preference.map { files[$0].id } == ["360", "480", "720", "720low", "1080", "240", "unsized"])
        #expect(selection.chosen?.id == selection.preference.first.map { files[$0].id })
        let (none, _) = MediaSelector(settings: .init(window: PixelSize(width: 4000, height: 3000))).select(files)
        #expect(none.preference.map { files[$0].id } == ["1080", "720", "720low", "480", "360", "240", "unsized"])
    }

    @Test func explainsEveryCandidate() {
        let files = renditions + [rendition("webm", 640, 360, type: "video/webm"), rendition("flash", 640, 360, type: "video/x-ms-wmv"),
                                  rendition("hls", 1280, 720, type: "application/x-mpegURL", delivery: "streaming"),
                                  rendition("vpaid", 640, 360, type: "application/javascript", api: "VPAID")]
        let (selection, _) = MediaSelector(settings: .init(maximumBitrate: 1500)).select(files)
        #expect(selection.chosen?.id == "360")
        #expect(selection.candidates.map(\.reason) == [
            "bitrate 4000 kbit/s above the maximum 1500",
            "bitrate 2000 kbit/s above the maximum 1500",
            "acceptable, not the best fit for 640x360 (fallback 2)",
            "best fit: the smallest rendition covering 640x360",
            "acceptable, not the best fit for 640x360 (fallback 3)",
            "acceptable, not the best fit for 640x360 (fallback 1)",
            "type video/x-ms-wmv is not allowed",
            "application/x-mpegurl is streaming (HLS/DASH), not supported yet",
            "VPAID creative (apiFramework VPAID) is not played",
        ])
        #expect(selection.candidates.map(\.accepted) == [false, false, true, true, true, true, false, false, false])
    }

    @Test func breaksSizeTiesOnTheHighestBitrateUnderTheCap() {
        let files = [rendition("a", 640, 360, bitrate: 500), rendition("b", 640, 360, bitrate: 900), rendition("c", 640, 360, bitrate: 1200),
                     rendition("d", 640, 360, bitrate: 900)]
        #expect(MediaSelector(settings: .init(maximumBitrate: 1000)).select(files).0.chosen?.id == "b")
        #expect(MediaSelector().select(files).0.chosen?.id == "c")
    }

    @Test func usesMaxBitrateWhenNoBitrateIsGiven() {
        let adaptive = MediaFile(url: "https://cdn.example/a.mp4", delivery: "progressive", type: "video/mp4", width: 640,
                                 height: 360, minBitrate: 500, maxBitrate: 2500)
        let (selection, failure) = MediaSelector(settings: .init(maximumBitrate: 2000)).select([adaptive])
        #expect(selection.chosen == nil)
        #expect(failure?.code == .noSupportedMedia)
        #expect(selection.candidates[0].reason == "bitrate 2500 kbit/s above the maximum 2000")
    }

    @Test func guessesAMissingTypeFromTheExtension() {
        let untyped = MediaFile(url: "https://cdn.example/ad.MOV?x=1", width: 640, height: 360)
        let unknown = MediaFile(url: "https://cdn.example/ad", width: 640, height: 360)
        let (selection, _) = MediaSelector().select([unknown, untyped])
        #expect(selection.chosen == untyped)
        #expect(selection.candidates[0].reason == "no type, and none can be guessed from the URL")
    }

    @Test func prefersSizedRenditionsAndFallsBackToUnsizedOnes() {
        let unsized = rendition("unsized", nil, nil, bitrate: 5000)
        #expect(MediaSelector().select([unsized, rendition("small", 320, 180)]).0.chosen?.id == "small")
        let (selection, _) = MediaSelector().select([rendition("u1", nil, nil, bitrate: 300), rendition("u2", 0, 0, bitrate: 800)])
        #expect(selection.chosen?.id == "u2")
        #expect(selection.candidates[1].reason == "chosen: no rendition states its size")
    }

    @Test func reports403WhenNothingFitsAnd901WhenAllAreVPAID() {
        let (_, refused) = MediaSelector().select([rendition("wmv", 640, 360, type: "video/x-ms-wmv")])
        #expect(refused?.code == .noSupportedMedia)
        #expect(refused?.reason == "none of 1 MediaFile(s) can be played: type video/x-ms-wmv is not allowed")
        let (_, vpaid) = MediaSelector().select([rendition("js", 640, 360, type: "application/javascript", api: "VPAID"),
                                                 rendition("swf", 640, 360, type: "application/x-shockwave-flash")])
        #expect(vpaid?.code == .vpaid)
    }

    @Test func honoursTheAllowedTypes() {
        let files = [rendition("mp4", 1280, 720), rendition("webm", 640, 360, type: "video/webm; codecs=\"vp9\"")]
        let onlyWebM = MediaSelector(settings: .init(allowedMIMETypes: ["video/webm"])).select(files).0
        #expect(onlyWebM.chosen?.id == "webm")
        #expect(onlyWebM.candidates[0].reason == "type video/mp4 is not allowed")
    }

    @Test func selectsDuringLoadingWithTheWindowFromTheSettings() async throws {
        var settings = AdsLoaderSettings()
        settings.mediaSelection.window = PixelSize(width: 1280, height: 720)
        let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: DecisioningFixtures.path("VAST/inline-linear.xml")))
        let ad = try #require(result.plan.breaks.first?.ads.first)
        #expect(ad.state == .available)
        #expect(ad.ad.selection?.chosen?.id == "hd")
        #expect(ad.ad.selection?.candidates.map(\.accepted) == [true, true, true, true, false])
    }
}
