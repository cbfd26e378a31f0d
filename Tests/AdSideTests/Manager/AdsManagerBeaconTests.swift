@testable import AdDecisioning
@testable import AdPlayback
import Foundation
import MediaCore
import Testing

@Suite struct AdsManagerBeaconTests {
    static let macros = "cp=[CONTENTPLAYHEAD]&ap=[ADPLAYHEAD]&bp=[BREAKPOSITION]&u=[ASSETURI]&t=[TIMESTAMP]&cb=[CACHEBUSTING]"

    /// A 2 s mid-roll at 1 s of 3 s content, reached through one wrapper.
    static func plan() -> AdPlan {
        var ad = LinearAd(id: "m", impressions: ["https://inline.example/imp?[CACHEBUSTING]", "https://wrapper.example/imp"],
                          tracking: [
                              TrackingEvent(event: .start, url: "https://t.example/start?\(macros)"),
                              TrackingEvent(event: .creativeView, url: "https://t.example/view"),
                              TrackingEvent(event: .firstQuartile, url: "https://t.example/q1"),
                              TrackingEvent(event: .midpoint, url: "https://t.example/mid"),
                              TrackingEvent(event: .thirdQuartile, url: "https://t.example/q3"),
                              TrackingEvent(event: .complete, url: "https://t.example/complete?ap=[ADPLAYHEAD]"),
                              TrackingEvent(event: .progress, offset: .time(MediaDuration(seconds: Rational(35, 100))),
                                            url: "https://t.example/p035"),
                              TrackingEvent(event: .progress, offset: .fraction(Rational(9, 10)), url: "https://t.example/p90"),
                              TrackingEvent(event: .progress, offset: .time(MediaDuration(seconds: 3)), url: "https://t.example/p3s"),
                          ])
        ad.selection = MediaSelection(chosen: MediaFile(url: "https://cdn.example/m.mp4"), candidates: [])
        return AdPlan(breaks: [AdBreak(position: .midroll(seconds(1)), tracking: [
            TrackingEvent(event: .breakStart, url: "https://vmap.example/start?bp=[BREAKPOSITION]&cp=[CONTENTPLAYHEAD]"),
            TrackingEvent(event: .breakEnd, url: "https://vmap.example/end"),
        ], ads: [ad])])
    }

    func run(seed: UInt64 = 0) throws -> SessionRun {
        var configuration = try testConfiguration(contentSeconds: 3)
        configuration.beacons.seed = seed
        return runToEnd(try PlaybackSession(plan: Self.plan(), configuration: configuration,
                                            media: FakeAdMedia(rate: tenFPS, seconds: ["m": 2]), appDelegate: nil))
    }

    @Test func firesEveryImpressionAtTheAdStartThenCreativeViewAndStart() throws {
        let run = try run()
        let atStart = run.events.filter { $0.frame == 10 }.map { $0.type == .beacon ? "BEACON \($0.columns.event!)" : $0.type.rawValue }
        #expect(atStart == ["AD_BREAK_READY", "LOADED", "CONTENT_PAUSE_REQUESTED", "AD_BREAK_STARTED", "BEACON breakStart",
                            "STARTED", "BEACON impression", "BEACON impression", "IMPRESSION", "BEACON creativeView",
                            "BEACON start"])
        let impressions = run.beacons(.impression).compactMap(\.columns.url)
        #expect(impressions.count == 2 && impressions[1] == "https://wrapper.example/imp")
        #expect(impressions[0].hasPrefix("https://inline.example/imp?") && impressions[0].count == 35)
    }

    @Test func expandsMacrosWithThePlayheadsThePositionTheAssetAndTheClock() throws {
        let start = try #require(try run().beacons(.start).first?.columns.url)
        let query = start.split(separator: "?")[1].split(separator: "&").map(String.init)
        #expect(query[0...4] == ["cp=00%3A00%3A01.000", "ap=00%3A00%3A00.000", "bp=2",
                                 "u=https%3A%2F%2Fcdn.example%2Fm.mp4", "t=2000-01-01T00%3A00%3A01.000Z"])
        #expect(query[5].hasPrefix("cb=") && query[5].count == 11 && query[5].dropFirst(3).allSatisfy(\.isNumber))
        let breakStart = try #require(try run().beacons(.breakStart).first?.columns.url)
        #expect(breakStart == "https://vmap.example/start?bp=2&cp=00%3A00%3A01.000")
    }

    @Test func firesQuartilesAndProgressOffsetsAtTheFirstFrameAtOrAfterThem() throws {
        let run = try run()
        // The ad starts at frame 10: 0.35 s → tick 4, 0.5 s → 5, 1 s → 10, 1.5 s → 15, 90% = 1.8 s → 18.
        #expect(run.beacons(.progress).map(\.columns.url) == ["https://t.example/p035", "https://t.example/p90"])
        #expect(run.beacons(.progress).map(\.frame) == [14, 28])
        #expect(run.beacons(.firstQuartile).map(\.frame) == [15])
        #expect(run.beacons(.midpoint).map(\.frame) == [20])
        #expect(run.beacons(.thirdQuartile).map(\.frame) == [25])
        #expect(run.beacons(.complete).map(\.columns.url) == ["https://t.example/complete?ap=00%3A00%3A02.000"])
        #expect(run.beacons(.complete).map(\.frame) == [30])
        #expect(run.beacons(.breakEnd).map(\.frame) == [30])
    }

    @Test func theSameInputsGiveByteIdenticalLogsAndTheSeedOnlyChangesCacheBusters() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let first = try run(seed: 7).events.map { try encoder.encode($0) }
        let second = try run(seed: 7).events.map { try encoder.encode($0) }
        #expect(first == second)
        let other = try run(seed: 8).events
        let mine = try run(seed: 7).events
        #expect(other.map(\.type) == mine.map(\.type))
        let differing = zip(mine, other).filter { $0 != $1 }
        #expect(!differing.isEmpty && differing.allSatisfy { $0.0.columns.url?.contains("cb=") == true || $0.0.columns.url?.hasPrefix("https://inline") == true })
    }
}

@Suite struct BeaconStampsTests {
    @Test func writesUTCTimestampsWithMillisecondsFromTheOriginPlusOutputTime() {
        let stamps = BeaconStamps(clockOrigin: Date(timeIntervalSince1970: 951_782_399), seed: 0)
        #expect(stamps.timestamp(at: MediaTime(seconds: Rational(12_345, 10_000))) == "2000-02-29T00:00:00.234Z")
        let early = BeaconStamps(clockOrigin: Date(timeIntervalSince1970: -1), seed: 0)
        #expect(early.timestamp(at: .zero) == "1969-12-31T23:59:59.000Z")
    }

    /// From 1600 (Foundation's calendar is Julian before October 1582; ours is proleptic Gregorian) to 4000.
    @Test func civilDatesAgreeWithFoundationsGregorianCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for day in stride(from: Int64(-135_140), through: 741_000, by: 97) {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86_400))
            let mine = BeaconStamps.civilDate(daysSinceEpoch: day)
            #expect(Int(mine.year) == parts.year && Int(mine.month) == parts.month && Int(mine.day) == parts.day, "day \(day)")
        }
    }

    @Test func cacheBustersAreEightDigitsAndRepeatForTheSameSeed() {
        var a = BeaconStamps(clockOrigin: .now, seed: 42), b = BeaconStamps(clockOrigin: .now, seed: 42)
        var c = BeaconStamps(clockOrigin: .now, seed: 43)
        let first = (0..<50).map { _ in a.nextCacheBuster() }
        #expect(first == (0..<50).map { _ in b.nextCacheBuster() })
        #expect(first != (0..<50).map { _ in c.nextCacheBuster() })
        #expect(first.allSatisfy { $0.count == 8 && $0.allSatisfy(\.isNumber) })
        #expect(Set(first).count == 50)
    }
}
