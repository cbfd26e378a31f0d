@testable import AdPlayback
@testable import AdScreen
import Foundation
import Testing

/// OpenRTB Native 1.2 responses and slider blocks read into typed values, and bad ones refused by JSON path.
@Suite struct NativeResponseParserTests {
    @Test func readsEveryAssetKindLinkAndTrackersOfACard() throws {
        let block = try NativeFixtures.block(NativeFixtures.slider([NativeFixtures.card("a1", crid: "c1")]))
        #expect(block.assets == [NativeAsset(id: 100, isRequired: true, content: .data(kind: .sponsored, value: "Ads"))])
        let ad = try #require(block.ads.first)
        #expect(ad.id == "a1")
        #expect(ad.creativeID == "c1")
        #expect(ad.assets.map(\.slot) == [.title, .icon, .media, .sponsored, .domain, .body, .callToAction])
        #expect(ad.assets[0] == NativeAsset(id: 1, isRequired: true, content: .title("Title")))
        #expect(ad.assets[2].content == .image(kind: .main, url: "https://img.example/a1.png", size: PointSize(width: 1200, height: 627)))
        #expect(ad.link == NativeLink(url: "https://shop.example/a1", clickTrackers: ["https://t.example/click/a1"]))
        // imptrackers, then the image-pixel impression event tracker; the JavaScript one cannot run headless.
        #expect(ad.impressionBeacons == ["https://t.example/imp/a1", "https://t.example/ev/a1"])
        #expect(ad.eventTrackers.map(\.method) == [.image, .other(2)])
    }

    @Test func aPlainOpenRTBResponseIsABlockOfOneCardNamedAfterItsSource() throws {
        let plain = #"{"native":{"ver":"1.2","assets":[{"id":1,"data":{"type":12,"value":"Go"}},{"id":2,"video":{"vasttag":"<VAST/>"}}],"link":{"url":"https://x.example/"}}}"#
        let block = try NativeResponseParser().parse(Data(plain.utf8), source: "one.json")
        #expect(block.assets.isEmpty)
        #expect(block.ads.map(\.id) == ["one.json"])
        #expect(block.ads[0].assets.map(\.slot) == [.callToAction, .media])
        #expect(block.ads[0].assets[0].content == .data(kind: .ctaText, value: "Go"))
    }

    @Test func dataTypesKeepTheSpecNumbersAndUnknownOnes() {
        #expect((1...12).map { NativeDataKind(code: $0).description }
                    == ["sponsored", "desc", "rating", "likes", "downloads", "price", "saleprice", "phone", "address", "desc2", "displayurl", "ctatext"])
        #expect((1...12).allSatisfy { NativeDataKind(code: $0).code == $0 })
        #expect(NativeDataKind(code: 777) == .other(777))
        #expect(NativeAsset(content: .data(kind: .other(NativeDataKind.ageCode), value: "18+")).slot == .age)
        #expect(NativeAsset(content: .data(kind: .price, value: "$1")).slot == nil)
    }

    @Test(arguments: [
        (#"{"ads":[{"adid":"a","assets":[],"link":{"url":"u"}},{"adid":"b","assets":[],"link":{"url":"u"}},{"adid":"c","assets":[{"img":{"url":7}}],"link":{"url":"u"}}]}"#,
         "slider.json: ads[2].assets[0].img.url: not a string"),
        (#"{"ads":[{"assets":[],"link":{"url":"u"}}]}"#, "slider.json: ads[0].adid: is missing (each card needs the bid's ad id)"),
        (#"{"ads":[{"adid":"a","assets":[{"title":{"text":"t"},"data":{"type":1,"value":"v"}}],"link":{"url":"u"}}]}"#,
         "slider.json: ads[0].assets[0]: has title and data; an asset holds exactly one"),
        (#"{"ads":[{"adid":"a","assets":[{"required":2,"title":{"text":"t"}}],"link":{"url":"u"}}]}"#,
         "slider.json: ads[0].assets[0].required: 2 is not 0 or 1"),
        (#"{"ads":[{"adid":"a","assets":[{"data":{"value":"v"}}],"link":{"url":"u"}}]}"#,
         "slider.json: ads[0].assets[0].data.type: is missing (the response must say which data asset this is)"),
        (#"{"ads":[{"adid":"a","assets":[],"link":{}}]}"#, "slider.json: ads[0].link.url: is missing"),
        (#"{"ads":[{"adid":"a","assets":[],"link":{"url":"u"},"eventtrackers":[{"event":"1","method":1,"url":"u"}]}]}"#,
         "slider.json: ads[0].eventtrackers[0].event: not a whole number"),
        (#"{"ads":[{"adid":"a","assets":[],"link":{"url":"u"}},{"adid":"a","assets":[],"link":{"url":"u"}}]}"#,
         "slider.json: ads[1].adid: \"a\" is the adid of ads[0] too"),
        (#"{"assets":{},"ads":[]}"#, "slider.json: assets: not an array"),
        (#"[1]"#, "slider.json: not an object"),
        (#"{"ads":[{"adid":"a","assets":[],"link":{"url":"u"}}"#, "slider.json: not JSON"),
    ])
    func aBadResponseNamesTheJSONPath(json: String, message: String) {
        do {
            _ = try NativeFixtures.block(json)
            Issue.record("parsed \(json)")
        } catch {
            #expect("\(error)".hasPrefix(message))
            #expect(!"\(error)".contains("\n"))
        }
    }

    @Test func cardsAssetsAndStringsAreBounded() {
        let parser = NativeResponseParser(limits: .init(maximumAds: 2, maximumAssets: 1, maximumTrackers: 1, maximumStringLength: 8))
        func error(_ json: String) -> String {
            do { _ = try parser.parse(Data(json.utf8), source: "s"); return "parsed" } catch { return error.description }
        }
        let ad = #"{"adid":"a","assets":[],"link":{"url":"u"}}"#
        #expect(error(#"{"ads":[\#(ad),\#(ad),\#(ad)]}"#) == "s: ads: 3 entries, more than the limit of 2")
        #expect(error(#"{"ads":[{"adid":"a","assets":[{"title":{"text":"a"}},{"title":{"text":"b"}}],"link":{"url":"u"}}]}"#)
                    == "s: ads[0].assets: 2 entries, more than the limit of 1")
        #expect(error(#"{"ads":[{"adid":"a","assets":[],"link":{"url":"u"},"imptrackers":["a","b"]}]}"#)
                    == "s: ads[0].imptrackers: 2 entries, more than the limit of 1")
        #expect(error(#"{"ads":[{"adid":"a","assets":[{"title":{"text":"123456789"}}],"link":{"url":"u"}}]}"#)
                    == "s: ads[0].assets[0].title.text: longer than the limit of 8 characters")
    }

    @Test func anEmptyBlockOrAnEmptyBodyIsNoFill() {
        #expect(throws: NativeError.noFill(source: "s")) { try NativeResponseParser().parse(Data(#"{"ads":[]}"#.utf8), source: "s") }
        #expect(throws: NativeError.noFill(source: "s")) { try NativeResponseParser().parse(Data(" \n".utf8), source: "s") }
        #expect(NativeError.noFill(source: "s").failureKind == .noFill)
    }
}
