import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// Ads that differ from the content (frame rate, shape, sound) are conformed to the output, which takes the
/// content's format: the frame-rate rule picks their frames, their pictures keep their shape, their sound is
/// resampled and remixed.
@Suite struct StitchConformTests {
    /// One ad of the four-rate plan, as the output shows it.
    struct AdOnScreen: Hashable, CustomStringConvertible {
        var id: String
        var sourceFps: String
        var outStart: Int64
        var frames: Int64
        /// The last source frame shown (the first is 0).
        var lastIndex: Int
        var padded: Int64

        var description: String { "\(id) \(sourceFps) at \(outStart) ×\(frames) last #\(lastIndex) padded \(padded)" }
    }

    /// The content rate, and what each 1 s ad of `2=ad24, 4=ad25, 6=ad2997, 8=ad60` becomes at that rate.
    ///
    /// Frames: `ceil(duration × F)`; the 30000/1001 ad's 30 frames last 1.001 s, one more output frame than the
    /// others. Last frame shown: tick `j` shows source frame `⌊j × Fs / F + ½⌋`, the last one held past its end.
    /// Padding: the 30000/1001 ad's 1.001 s of sound (48048 samples) was AAC-coded in whole frames of 1024 samples
    /// and decodes as 47 × 1024 = 48128 (FFmpeg 5.1 trims the encoder's priming but not its last frame's padding);
    /// the rest of its output frames is silence.
    static let rates: [(content: Int, ads: [AdOnScreen], frames: Int64)] = [
        (30, [AdOnScreen(id: "ad24", sourceFps: "24/1", outStart: 60, frames: 30, lastIndex: 23, padded: 0),
              AdOnScreen(id: "ad25", sourceFps: "25/1", outStart: 150, frames: 30, lastIndex: 24, padded: 0),
              AdOnScreen(id: "ad2997", sourceFps: "30000/1001", outStart: 240, frames: 31, lastIndex: 29, padded: 31 * 1600 - aacDecoded(48048)),
              AdOnScreen(id: "ad60", sourceFps: "60/1", outStart: 331, frames: 30, lastIndex: 58, padded: 0)], 421),
        (25, [AdOnScreen(id: "ad24", sourceFps: "24/1", outStart: 50, frames: 25, lastIndex: 23, padded: 0),
              AdOnScreen(id: "ad25", sourceFps: "25/1", outStart: 125, frames: 25, lastIndex: 24, padded: 0),
              AdOnScreen(id: "ad2997", sourceFps: "30000/1001", outStart: 200, frames: 26, lastIndex: 29, padded: 26 * 1920 - aacDecoded(48048)),
              AdOnScreen(id: "ad60", sourceFps: "60/1", outStart: 276, frames: 25, lastIndex: 58, padded: 0)], 351),
    ]

    /// The samples an AAC track of `samples` decodes to: whole frames of 1024.
    static func aacDecoded(_ samples: Int64) -> Int64 { (samples + 1023) / 1024 * 1024 }

    @Test(arguments: rates.indices)
    func adsAt24And25And2997And60FpsPlayAtTheContentsRate(_ index: Int) throws {
        let (rate, ads, frames) = Self.rates[index]
        let media = try StampedMedia.shared
        let content = rate == 30 ? media.content : media.content25
        let plan = try media.plan(["2=ad24.mp4", "4=ad25.mp4", "6=ad2997.mp4", "8=ad60.mp4"])
        let dir = try TemporaryDirectory()
        let request = media.request(plan, content: content, output: dir.path + "/out.mp4")
        let result = try Stitcher.render(request)
        let report = try StampedMedia.expectGoodRender(result, request)

        #expect(result.timeline.output.fps == "\(rate)/1")
        #expect(result.timeline.output.frames == frames)
        #expect(result.timeline.content.frames == Int64(10 * rate))
        let shown = Dictionary(report.shown.compactMap { run in run.source.map { ($0 + "@\(run.outStartFrame)", run) } },
                               uniquingKeysWith: { a, _ in a })
        let onScreen = StampedMedia.adSegments(result.timeline).map { segment in
            let id = ((segment.source as NSString).lastPathComponent as NSString).deletingPathExtension
            let run = shown["\(id)@\(segment.outStartFrame)"]
            #expect(run?.outEndFrame == segment.outEndFrame, "the pixels show \(id) over its whole segment")
            #expect(run?.firstIndex == 0)
            return AdOnScreen(id: id, sourceFps: segment.sourceFps, outStart: segment.outStartFrame,
                              frames: segment.frameCount, lastIndex: run?.lastIndex ?? -1, padded: segment.sound.padded)
        }
        #expect(onScreen == ads)
    }

    @Test func aPortraitAdIsPillarboxedInALandscapeOutput() throws {
        let media = try StampedMedia.shared
        let plan = try media.plan(["5=portrait.mp4"])
        let dir = try TemporaryDirectory()
        var request = media.request(plan, output: dir.path + "/out.mp4")
        request.format.size = PixelSize(width: 640, height: 360)
        let result = try Stitcher.render(request)
        try StampedMedia.expectGoodRender(result, request)

        // 9:16 in 640x360: the full height, 360 × 9/16 = 202.5 → 203 wide, centred at x 218 (bars of 218 and 219).
        let ad = try #require(StampedMedia.adSegments(result.timeline).first)
        #expect(ad.picture == Timeline.Rect(PixelRect(x: 218, y: 0, width: 203, height: 360)))
        #expect(ad.pip == nil)
        #expect(result.timeline.segments.filter { $0.kind == .content }.map(\.picture)
            == [Timeline.Rect(PixelRect(x: 0, y: 0, width: 640, height: 360)), Timeline.Rect(PixelRect(x: 0, y: 0, width: 640, height: 360))])
        // The pixels agree: the stamped picture is found there in the middle of the ad (the locator may trim the
        // one soft column that scaling leaves at each edge).
        let reader = try FrameReader(path: request.output.path)
        var located: (stamp: FrameStamp, picture: PixelRect)?
        while let picture = try reader.next() {
            if reader.index - 1 == ad.outStartFrame + 15 { located = picture.locateStamp(); break }
        }
        #expect(located?.stamp == (try FrameStamp(sourceID: "portrait", frameIndex: 15)))
        let found = try #require(located?.picture)
        #expect(found.y == 0 && found.height == 360)
        #expect(found.x >= 218 && found.x <= 219)
        #expect(found.x + found.width >= 420 && found.x + found.width <= 421)
    }

    @Test func aMono441kHzAdIsResampledAndUpmixedInto48kHzStereo() throws {
        let media = try StampedMedia.shared
        let plan = try media.plan(["5=mono.mp4"])
        let dir = try TemporaryDirectory()
        let request = media.request(plan, output: dir.path + "/out.mp4")
        let result = try Stitcher.render(request)
        let report = try StampedMedia.expectGoodRender(result, request)

        #expect(result.timeline.output.sampleRate == 48000)
        #expect(result.timeline.output.channels == 2)
        let audio = try #require(try MediaProbe.probe(request.output.path).bestAudio)
        #expect(audio.sampleRate == 48000)
        #expect(audio.channels == 2)
        // The ad's 1.2 s, 52920 samples at 44.1 kHz, are exactly 57600 at 48 kHz: 36 frames of 1600, none padded.
        let ad = try #require(StampedMedia.adSegments(result.timeline).first)
        #expect(ad.frameCount == 36)
        #expect(ad.sound.start == 150 * 1600)
        #expect(ad.sound.sourceStart == 0)
        #expect(ad.sound.padded == 0)
        // The verifier heard the ad's tone start and stop at its video boundaries.
        #expect(report.audioBoundaries.map(\.frame) == [150, 186])
    }
}
