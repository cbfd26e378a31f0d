@testable import AdDecisioning
@testable import AdPlayback
import Foundation
import MediaCore
@testable import Rendering
import Testing
import VideoPipeline

/// The gain rule of a normalised render and the timeline's loudness records, without media.
@Suite struct LoudnessDecisionTests {
    static let long = MediaDuration(seconds: Rational(10, 1))
    static let short = MediaDuration(seconds: Rational(29, 10))

    @Test func theGainBringsTheMeasureToTheTarget() {
        let decision = LoudnessDecision(measure: .integrated(-14), target: -23)
        #expect(decision.gain == -9)
        #expect(decision.target == -23)
    }

    @Test func aSourceOfThreeSecondsOrMoreIsMeasuredIntegrated() {
        #expect(LoudnessDecision.measure(integrated: -20, maxMomentary: -18, duration: Self.long) == .integrated(-20))
        #expect(LoudnessDecision.measure(integrated: -20, maxMomentary: -18, duration: MediaDuration(seconds: Rational(3, 1))) == .integrated(-20))
    }

    @Test func aSourceUnderThreeSecondsIsMeasuredByItsMomentaryLoudness() {
        #expect(LoudnessDecision.measure(integrated: -20, maxMomentary: -18, duration: Self.short) == .momentary(-18))
    }

    @Test func silenceIsLeftAsItIs() {
        let measure = LoudnessDecision.measure(integrated: nil, maxMomentary: nil, duration: Self.long)
        #expect(measure == .silent)
        let decision = LoudnessDecision(measure: measure, target: -23)
        #expect(decision.gain == 0 && decision.target == nil)
    }

    @Test func nothingToBringItToIsZeroDecibels() {
        let decision = LoudnessDecision(measure: .integrated(-30), target: nil)
        #expect(decision.gain == 0 && decision.target == nil)
    }

    @Test func theDefaultIsContentWithAdsAndOffWithout() {
        #expect(LoudnessNormalisation.default(plan: AdPlan(breaks: [])) == .off)
        #expect(LoudnessNormalisation.default(plan: AdPlan(breaks: [AdBreak(position: .postroll, ads: [])])) == .off)
        #expect(LoudnessNormalisation.default(plan: AdPlan(breaks: [AdBreak(position: .preroll, ads: [LinearAd(id: "a")])])) == .content)
    }

    // MARK: - The timeline's records

    static let normalisation = Timeline.Normalisation(target: .lufs(-23), ceiling: -1.5, sources: [
        Timeline.SourceLoudness(source: "content.mp4", breakIndex: nil, adIndex: nil, measure: .integrated(-20.5),
                                integrated: -20.5, samplePeak: -3.2, truePeak: nil, target: -23, gain: -2.5, limited: false),
        Timeline.SourceLoudness(source: "ad.mp4", breakIndex: 0, adIndex: 1, measure: .momentary(-9),
                                integrated: -9.4, samplePeak: -0.1, truePeak: 0.2, target: -23, gain: -14, limited: true),
        Timeline.SourceLoudness(source: "mute.mp4", breakIndex: 1, adIndex: 0, measure: .silent,
                                integrated: nil, samplePeak: nil, truePeak: nil, target: nil, gain: 0, limited: false),
    ])

    /// The JSON of a timeline with `loudness` set to `value` (nil: none).
    static func timelineJSON(loudness value: Any?) throws -> Data {
        var object: [String: Any] = [
            "version": 1, "segments": [] as [Any],
            "output": ["path": "o.mp4", "fps": "30/1", "width": 320, "height": 180, "frames": 0, "duration": 0.0,
                       "sampleRate": 48000, "channels": 2, "audioSamples": 0, "profile": "delivery"],
            "content": ["path": "c.mp4", "fps": "30/1", "frames": 0, "duration": 0.0],
        ]
        if let value { object["loudness"] = value }
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test func anOldTimelineWithoutLoudnessStillDecodes() throws {
        let timeline = try Timeline.decode(try Self.timelineJSON(loudness: nil))
        #expect(timeline.loudness == nil)
        // And writes none back.
        #expect(!String(decoding: try timeline.jsonData(), as: UTF8.self).contains("loudness"))
    }

    @Test func theRecordsRoundTrip() throws {
        var timeline = try Timeline.decode(try Self.timelineJSON(loudness: nil))
        timeline.loudness = Self.normalisation
        let again = try Timeline.decode(try timeline.jsonData())
        #expect(again.loudness == Self.normalisation)
        var content = timeline
        content.loudness?.target = .content
        #expect(try Timeline.decode(try content.jsonData()).loudness?.target == .content)
    }

    @Test func aMeasureOfAnotherNameIsRefusedWithItsPath() throws {
        let value: [String: Any] = ["target": -23, "ceiling": -1.5, "sources": [
            ["source": "a.mp4", "measure": "loud", "measured": -3, "gain": 0, "limited": false],
        ]]
        let data = try Self.timelineJSON(loudness: value)
        do throws(TimelineError) { _ = try Timeline.decode(data); Issue.record("decoded") } catch {
            #expect(error.jsonPath == "loudness.sources[0].measure", "\(error)")
        }
    }

    @Test func aTargetThatIsNeitherContentNorANumberIsRefused() throws {
        let value: [String: Any] = ["target": "loud", "ceiling": -1.5, "sources": [] as [Any]]
        let data = try Self.timelineJSON(loudness: value)
        do throws(TimelineError) { _ = try Timeline.decode(data); Issue.record("decoded") } catch {
            #expect(error.jsonPath == "loudness.target", "\(error)")
        }
    }

    @Test func anAbsurdGainIsOutOfBoundsWithItsPath() {
        var bad = Self.normalisation
        bad.sources[1].gain = 1e300
        #expect(throws: TimelineError.outOfBounds(jsonPath: "loudness.sources[1].gain", reason: "1e+300 is not a gain in dB")) {
            try bad.checkBounds(segments: 5)
        }
        var target = Self.normalisation
        target.target = .lufs(900)
        #expect(throws: TimelineError.outOfBounds(jsonPath: "loudness.target", reason: "900.0 is not a loudness in LUFS")) {
            try target.checkBounds(segments: 5)
        }
        #expect(throws: Never.self) { try Self.normalisation.checkBounds(segments: 5) }
    }
}
