import Foundation
import Testing
@testable import VideoPipeline

/// Tones and clicks measured after a real AAC encode and decode, through the ffmpeg command-line tool.
@Suite(.enabled(if: FFmpegTool.isAvailable, Comment(rawValue: FFmpegTool.skipMessage)))
struct ToneRobustnessTests {
    @Test(arguments: [44_100, 48_000])
    func findsTonesTheirChangeAndClicksAfterAAC(rate: Int) throws {
        let boundary = rate + 12_345
        let a = try TestTone(frequency: 440, sampleRate: rate, channels: 1)
        let b = try TestTone(frequency: 660, sampleRate: rate, channels: 1)
        let original = a.planar(startSample: 0, count: boundary)[0] + b.planar(startSample: 0, count: 2 * rate)[0]
        let decoded = try FFmpegTool.aacRoundTrip(original, rate: rate)
        #expect(abs(decoded.count - original.count) < 2048)
        let analyzer = ToneAnalyzer(sampleRate: rate)
        let estimate = try #require(analyzer.estimateTone(in: decoded[0..<rate]))
        #expect(abs(estimate - 440) < 1)
        let afterChange = decoded[(boundary + 2_000)..<(boundary + 3_000)]
        #expect(analyzer.dominantTone(in: afterChange, candidates: [440, 660]) == 660)
        let change = try #require(analyzer.changePoint(in: decoded[(boundary - rate / 2)..<(boundary + rate / 2)],
                                                       from: 440, to: 660))
        #expect(abs(change - boundary) <= rate / 200)
        let clicks = analyzer.clickOnsets(in: decoded[...])
        #expect(clicks.count == 4)
        #expect(zip(clicks, [0, rate, boundary, boundary + rate]).allSatisfy { abs($0 - $1) <= rate / 1000 })
    }
}
