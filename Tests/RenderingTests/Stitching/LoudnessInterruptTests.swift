import AdDecisioning
import Foundation
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// A normalised render measures its content before the first frame: a signal must stop that measurement between
/// its blocks, not after the whole sound (40 minutes of content held off SIGTERM for 11.4 s).
@Suite struct LoudnessInterruptTests {
    @Test func theContentsMeasurementStopsAtTheFirstBlockAfterASignal() throws {
        let media = try StampedMedia.shared
        let format = OutputFormat(size: media.content.size, frameRate: media.content.rate, sampleRate: 48000, channels: 2)
        let content = try MediaSource(path: media.content.path, format: format)
        let polls = LockedState(0)
        // The signal arrives while the first block is read: the second poll sees it.
        let control = JobControl(isCancelled: { polls.withLock { $0 += 1; return $0 > 1 } })
        #expect(throws: MediaError.interrupted) {
            _ = try LoudnessNormaliser(.lufs(-23), content: content, format: format, control: control)
        }
        // One block of 0.1 s was measured, not the content's seconds.
        #expect(polls.withLock { $0 } == 2)
    }

    @Test func aRenderStoppedWhileMeasuringIsInterrupted() throws {
        let media = try StampedMedia.shared
        var request = RenderRequest(contentPath: media.content.path, plan: AdPlan(breaks: []), outputPath: NSTemporaryDirectory() + "/never-\(UUID().uuidString).mp4")
        request.loudness = .lufs(-23)
        #expect(throws: RenderError.interrupted) {
            _ = try Stitcher(request: request, isCancelled: { true })
        }
    }
}
