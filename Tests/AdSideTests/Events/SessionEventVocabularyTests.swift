@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import Testing

@Suite struct SessionEventVocabularyTests {
    @Test func typedFieldsWriteTheSameJSONTheStringsDid() throws {
        let skipped = SessionEvent(.adBreakSkipped(breakIndex: 1, reason: .playAdsAfterTime, cueTime: nil), time: 2, frame: 60,
                                   contentTime: 2)
        #expect(skipped.jsonLine == #"{"type":"AD_BREAK_SKIPPED","time":2,"frame":60,"contentTime":2,"break":1,"reason":"playAdsAfterTime"}"#)
        let beacon = SessionEvent(.beacon(.firstQuartile, url: "https://t.example/q", .ad(AdReference(1, 0)), code: nil),
                                  time: 2, frame: 60, contentTime: 2)
        #expect(beacon.jsonLine == #"{"type":"BEACON","time":2,"frame":60,"contentTime":2,"break":1,"ad":0,"url":"https://t.example/q","event":"firstQuartile"}"#)
    }

    @Test func aLineWithAnUnknownTypeFailsNamingTheLineAndTheType() {
        let data = Data(#"""
            {"type":"STARTED","time":0,"contentTime":0}
            {"type":"AD_WOBBLED","time":0,"contentTime":0}
            """#.utf8)
        #expect(throws: EventLogError.malformedLine(path: "old.jsonl", line: 2,
                                                    reason: #"field "type": unknown event type "AD_WOBBLED""#)) {
            try EventLogReader.decode(data, path: "old.jsonl")
        }
    }

    @Test func aLineWithAnUnknownReasonFailsNamingTheLine() {
        let data = Data(#"{"type":"LOG","time":0,"contentTime":0,"reason":"bored"}"#.utf8)
        #expect(throws: EventLogError.malformedLine(path: "r.jsonl", line: 1,
                                                    reason: #"field "reason": unknown reason "bored""#)) {
            try EventLogReader.decode(data, path: "r.jsonl")
        }
    }

    @Test func anUnknownTrackingNameIsKeptAsWritten() throws {
        let events = try EventLogReader.decode(
            Data(#"{"type":"BEACON","time":0,"contentTime":0,"url":"https://v.example/","event":"vendorPing"}"#.utf8), path: "v.jsonl")
        #expect(events.map(\.columns.event) == [.unknown("vendorPing")])
        #expect(events[0].jsonLine.contains(#""event":"vendorPing""#))
    }

    @Test func everyKnownTrackingNameRoundTripsThroughItsSpelling() {
        for name in TrackingEventName.known { #expect(TrackingEventName(name.rawValue) == name) }
        #expect(Set(TrackingEventName.known.map(\.rawValue)).count == TrackingEventName.known.count)
        #expect(TrackingEventName("FirstQuartile") == .unknown("FirstQuartile"))
    }

    @Test func theParserTypesTrackingEventsAndKeepsUnknownOnes() throws {
        let xml = """
            <VAST version="4.2"><Ad id="a"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle>
            <Impression>https://i.example/</Impression><Creatives><Creative><Linear><Duration>00:00:05</Duration>
            <TrackingEvents><Tracking event="start">https://s.example/</Tracking>
            <Tracking event="vendorPing">https://v.example/</Tracking>
            <Tracking event="progress" offset="00:00:02">https://p.example/</Tracking></TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">https://m.example/a.mp4</MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let document = try VASTParser().parse(Data(xml.utf8), source: "t.xml")
        let tracking = try #require(document.ads.first?.linearCreatives.first?.tracking)
        #expect(tracking.map(\.event) == [.start, .unknown("vendorPing"), .progress])
    }

    /// One event of every kind the log knows, each with what its kind carries.
    static let everyKind: [SessionEvent.Kind] = {
        let ad = AdReference(1, 2)
        let card = SessionEvent.NativeSubject(placement: "feed", card: 3, adID: "shoe-4")
        var kinds: [SessionEvent.Kind] = SessionEvent.AdMoment.allCases.map { .ad($0, ad) }
        kinds += SessionEvent.BreakMoment.allCases.map { .adBreak($0, breakIndex: 1) }
        kinds += SessionEvent.ScreenAdMoment.allCases.map {
            .screenAd($0, SessionEvent.ScreenAdDetails(reason: .adTooLargeForWindow, message: "m", url: "https://r.example/"))
        }
        kinds += [SessionEvent.PictureInPictureMessage.willStart, .didStart, .failedToStart("busy"), .willStop, .didStop,
                  .restoreUserInterface].map { .pictureInPicture($0) }
        kinds += [
            .adProgress(ad, adTime: 2), .click(ad, clickThrough: nil), .click(ad, clickThrough: "https://c.example/"),
            .adError(.session, code: 303, message: "no ads"), .adError(.ad(ad), code: 403, message: "no media"),
            .adBuffering(ad, url: "https://m.example/a.mp4", message: "waited 1.2 s"),
            .adBreakStarted(breakIndex: 1, cueTime: nil), .adBreakStarted(breakIndex: 1, cueTime: 4.5),
            .adBreakDeferred(breakIndex: 1, reason: .pipActive, cueTime: 4.5),
            .adBreakSkipped(breakIndex: 1, reason: .midrollsOff, cueTime: nil), .allAdsCompleted,
            .command("pip on"), .sessionEnded(.quit),
            .log(.session, reason: nil, message: "a"), .log(.adBreak(1), reason: .seek, message: "b"),
            .log(.ad(ad), reason: .fallback, message: "c"), .log(.native(card), reason: .refused, message: "d"),
            .beacon(.impression, url: "https://i.example/", .session, code: nil),
            .beacon(.error, url: "https://e.example/", .ad(ad), code: 405),
            .beacon(.breakStart, url: "https://b.example/", .adBreak(1), code: nil),
            .beacon(.clickTracking, url: "https://k.example/", .native(card), code: nil),
            .native(.loadPhase(.loading), SessionEvent.NativeSubject(placement: "feed")), .native(.loaded, card),
            .native(.failed(.noFill, message: "no ads"), card), .native(.failed(nil, message: "?"), card),
            .native(.bindingFailure(message: "headline"), card), .native(.impression, card),
            .native(.click(link: "https://l.example/"), card),
            .native(.duplicate(otherPlacement: "top", message: "left out"), card),
            .screen(.tapped(x: 1, y: 2, on: .nativeCard(card: 3, adID: "shoe-4", placement: "feed"))),
            .screen(.presented(scene: "left", .interstitial)),
        ]
        return kinds
    }()

    @Test func everyKindIsWrittenAndReadBackAsItselfAndEveryTypeHasAKind() throws {
        let events = Self.everyKind.enumerated().map { i, kind in
            SessionEvent(kind, time: Double(i) / 2, frame: Int64(i), contentTime: 1, scene: i.isMultiple(of: 2) ? "left" : nil)
        }
        let text = events.map(\.jsonLine).joined(separator: "\n")
        #expect(try EventLogReader.decode(Data(text.utf8), path: "all.jsonl") == events)
        #expect(Set(events.map(\.type)) == Set(SessionEventType.allCases))
    }

    @Test func aLineThatLacksWhatItsTypeCarriesFailsNamingTheField() {
        let lines = [
            (#"{"type":"AD_PROGRESS","time":0,"contentTime":0,"break":0,"ad":1}"#, #"missing field "adTime": AD_PROGRESS carries it"#),
            (#"{"type":"BEACON","time":0,"contentTime":0,"event":"start"}"#, #"missing field "url": BEACON carries it"#),
            (#"{"type":"LOADED","time":0,"contentTime":0,"break":0}"#, #"missing field "ad": LOADED carries it"#),
            (#"{"type":"onAdLoad","time":0,"contentTime":0}"#, #"missing field "placement": onAdLoad carries it"#),
            (#"{"type":"LOG","time":0,"contentTime":0,"ad":2,"message":"m"}"#, #"missing field "break": LOG carries it"#),
        ]
        for (line, reason) in lines {
            #expect(throws: EventLogError.malformedLine(path: "l.jsonl", line: 1, reason: reason)) {
                try EventLogReader.decode(Data(line.utf8), path: "l.jsonl")
            }
        }
    }

    @Test func aStartedWithAnAdIsTheManagersAndWithoutOneAFullScreenAdsOnItsScene() throws {
        let events = try EventLogReader.decode(Data(#"""
            {"type":"STARTED","time":0,"contentTime":0,"break":0,"ad":1}
            {"type":"STARTED","time":1,"contentTime":0,"scene":"side"}
            """#.utf8), path: "s.jsonl")
        #expect(events.map(\.kind) == [.ad(.started, AdReference(0, 1)), .screenAd(.started, SessionEvent.ScreenAdDetails())])
        #expect(events.map(\.scene) == [nil, "side"])
    }
    /// The screen-ad event names the docs give (`adDid…`, `adWill…`, `ad:…`, `bannerView…`) are the ones the log writes.
    @Test(arguments: ["SESSION.md", "SCREENS.md", "NATIVE.md"])
    func theDocsNameScreenAdEventsAsTheLogWritesThem(page: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/\(page)"), encoding: .utf8)
        let written = Set(SessionEventType.allCases.map(\.rawValue))
        let named = text.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { $0.hasPrefix("adDid") || $0.hasPrefix("adWill") || $0.hasPrefix("ad:") || $0.hasPrefix("bannerView") }
        for name in named { #expect(written.contains(name), "docs/\(page) names the event \(name), which the log never writes") }
    }
}
