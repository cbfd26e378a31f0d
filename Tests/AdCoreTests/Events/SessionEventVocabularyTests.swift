@testable import AdDecisioning
import Foundation
import Testing
@testable import AdCore

@Suite struct SessionEventVocabularyTests {
    @Test func typedFieldsWriteTheSameJSONTheStringsDid() throws {
        let event = SessionEvent(type: .adBreakSkipped, time: 2, frame: 60, contentTime: 2, breakIndex: 1,
                                 event: .firstQuartile, reason: .playAdsAfterTime)
        #expect(event.jsonLine == #"{"type":"AD_BREAK_SKIPPED","time":2,"frame":60,"contentTime":2,"break":1,"event":"firstQuartile","reason":"playAdsAfterTime"}"#)
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
            Data(#"{"type":"BEACON","time":0,"contentTime":0,"event":"vendorPing"}"#.utf8), path: "v.jsonl")
        #expect(events.map(\.event) == [.unknown("vendorPing")])
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
}
