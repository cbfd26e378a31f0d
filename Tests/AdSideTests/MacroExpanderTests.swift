@testable import AdDecisioning
@testable import AdPlayback
import Foundation
import MediaCore
import Testing

@Suite struct MacroExpanderTests {
    let context = MacroContext(errorCode: .noSupportedMedia, contentPlayhead: MediaTime(seconds: Rational(3_723_456, 1000)),
                               adPlayhead: MediaTime(seconds: Rational(15, 2)), timestamp: "2000-01-01T00:00:00.000Z",
                               cacheBuster: "12345678", breakPosition: .midroll, assetURI: "https://cdn.example/ad 1.mp4")

    @Test func replacesEverySupportedMacro() {
        let url = "https://t.example/e?c=[ERRORCODE]&p=[CONTENTPLAYHEAD]&a=[ADPLAYHEAD]&cb=[CACHEBUSTING]&t=[TIMESTAMP]&b=[BREAKPOSITION]&u=[ASSETURI]"
        #expect(MacroExpander.expand(url, with: context) ==
            "https://t.example/e?c=403&p=01%3A02%3A03.456&a=00%3A00%3A07.500&cb=12345678&t=2000-01-01T00%3A00%3A00.000Z&b=2&u=https%3A%2F%2Fcdn.example%2Fad%201.mp4")
    }

    @Test func recognisesEncodedBracketsAndLeavesUnknownMacros() {
        #expect(MacroExpander.expand("x?e=%5BERRORCODE%5D&z=[UNKNOWN]&q=%20", with: context) == "x?e=403&z=[UNKNOWN]&q=%20")
    }

    @Test(arguments: ["/home/user/ads/secret.mp4", "file:///home/user/ads/secret.mp4", "ads/secret.mp4"])
    func neverPutsALocalPathInASSETURI(asset: String) {
        var local = context
        local.assetURI = asset
        #expect(MacroExpander.expand("https://t.example/e?c=[ERRORCODE]&u=[ASSETURI]", with: local) == "https://t.example/e?c=403&u=-1")
    }

    @Test func writesMinusOneForAKnownMacroWithoutValue() {
        #expect(MacroExpander.expand("x?m=[MEDIAPLAYHEAD]", with: context) == "x?m=-1")
    }

    /// The documented table and the code name the same macros, in the same order.
    @Test func docsMacrosTableListsExactlyTheSupportedMacros() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/MACROS.md"), encoding: .utf8)
        let documented = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `["), let end = line.range(of: "]`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 4)..<end.lowerBound])
        }
        #expect(documented == MacroExpander.supported)
    }

    @Test(arguments: [
        ("ADCOUNT", "2"), ("BREAKMAXADS", "3"), ("BREAKMAXDURATION", "31"), ("PODSEQUENCE", "2"),
        ("PLAYERSIZE", "1280%2C720"), ("UNIVERSALADID", "ad-id.org%20CNPA0484000H%2Cother%20x"), ("CLICKTYPE", "1"),
        ("INVENTORYSTATE", "skippable%2Cautoplayed"), ("PLACEMENTTYPE", "1"), ("ADTYPE", "video"), ("SERVERSIDE", "0"),
        ("VASTVERSIONS", "2%2C3%2C5%2C6%2C7%2C8%2C11%2C12%2C13%2C14"), ("CLIENTUA", "pipctl"), ("IFA", "-1"),
        ("CLICKPOS", "-1"), ("GDPRCONSENT", "-1"),
    ])
    func expandsEachAdAndPlayerMacro(name: String, value: String) {
        let context = MacroContext(adCount: 2, breakAdCount: 3, breakDuration: MediaDuration(seconds: Rational(301, 10)),
                                   podSequence: 2, playerSize: PixelSize(width: 1280, height: 720),
                                   universalAdIds: [UniversalAdId(registry: "ad-id.org", value: "CNPA0484000H"),
                                                    UniversalAdId(registry: "other", value: "x")],
                                   clickable: true, skippable: true)
        #expect(MacroExpander.expand("x?v=[\(name)]", with: context) == "x?v=\(value)")
    }

    @Test func adMacrosAreMinusOneWithoutAnAd() {
        let url = "x?[ADCOUNT]&[PODSEQUENCE]&[CLICKTYPE]&[INVENTORYSTATE]&[UNIVERSALADID]&[PLAYERSIZE]"
        #expect(MacroExpander.expand(url, with: MacroContext()) == "x?-1&-1&-1&-1&-1&-1")
        #expect(MacroExpander.expand("x?[CLICKTYPE]&[INVENTORYSTATE]", with: MacroContext(clickable: false, skippable: false))
                    == "x?0&autoplayed")
    }
}

@Suite struct SessionMacroTests {
    /// A pod of two at 1 s (2 s and 1 s, declared 2 s and 1.5 s) on a 1920x1080 screen; every beacon URL asks for
    /// the ad and break macros.
    @Test func aSessionFillsTheAdCountPodSequenceBreakAndPlayerMacros() throws {
        let macros = "?n=[ADCOUNT]&of=[BREAKMAXADS]&seq=[PODSEQUENCE]&d=[BREAKMAXDURATION]&p=[PLAYERSIZE]&ct=[CLICKTYPE]"
        var first = testAd("a")
        first.sequence = 1
        first.declaredDuration = MediaDuration(seconds: 2)
        first.beacons.impressions = ["https://t.example/a/imp" + macros]
        first.beacons.clickThrough = "https://advertiser.example/"
        var second = testAd("b")
        second.sequence = 2
        second.declaredDuration = MediaDuration(seconds: Rational(3, 2))
        second.beacons.impressions = ["https://t.example/b/imp" + macros]
        let plan = AdPlan(breaks: [AdBreak(position: .midroll(seconds(1)),
                                           tracking: [TrackingEvent(event: .breakStart, url: "https://t.example/bs" + macros)],
                                           ads: [first, second])])
        let run = runToEnd(try PlaybackSession(plan: plan, configuration: testConfiguration(contentSeconds: 2),
                                               media: FakeAdMedia(rate: tenFPS, seconds: ["a": 2, "b": 1]), appDelegate: nil))
        #expect(run.beacons(.impression).map(\.columns.url) == [
            "https://t.example/a/imp?n=1&of=2&seq=1&d=4&p=1920%2C1080&ct=1",
            "https://t.example/b/imp?n=2&of=2&seq=2&d=4&p=1920%2C1080&ct=0",
        ])
        #expect(run.beacons(.breakStart).map(\.columns.url) == ["https://t.example/bs?n=-1&of=2&seq=-1&d=4&p=1920%2C1080&ct=-1"])
    }
}
