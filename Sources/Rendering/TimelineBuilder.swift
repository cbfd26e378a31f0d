import AdPlayback
import AdScreen
import MediaCore

/// Gathers frame decisions into timeline segments: a new segment starts wherever the source, the continuity of
/// its ticks, the paused state, or the place the picture is drawn changes, for the primary player or any other.
struct TimelineBuilder {
    /// One output frame as the timeline records it: what the primary player showed, the frame's sound, and on a
    /// device the screen.
    struct Frame {
        var outFrame: Int64
        var shown: Shown
        var audio: Audio
        /// On a device: the display, the scenes and the layers drawn (see `Timeline.Segment`).
        var screen: Screen?

        /// The primary player's picture: its source (content or ad), the tick shown, whether frozen, the
        /// picture-in-picture window and where the picture landed.
        struct Shown {
            var kind: Timeline.Segment.Kind
            var source: String
            var sourceFps: String
            var ad: AdReference?
            var tick: Int64
            var paused: Bool
            var pip: PixelRect?
            var picture: PixelRect
        }

        /// The frame's sound: where its samples start in the output and in the source, the silence padded after
        /// the source's end, and on the first frame of an audio run (`startsRun`) the correction applied there.
        struct Audio {
            var start: Int64
            var sourceStart: Int64
            var padded: Int64
            var drift: Int64
            var startsRun: Bool
        }

        struct Screen {
            var display: PixelRect
            var scenes: [Timeline.Scene]
            var layers: [Timeline.Layer]?
        }
    }

    let rate: FrameRate
    private(set) var segments: [Timeline.Segment] = []
    private var open: Timeline.Segment?
    private var lastTick: Int64 = 0

    init(rate: FrameRate) { self.rate = rate }

    mutating func add(_ f: Frame) {
        let shown = f.shown
        if var current = open, continues(current, with: f) {
            current.outEndFrame = f.outFrame + 1
            if !shown.paused { current.srcEndTick = shown.tick + 1 }
            current.srcEnd = seconds(current.srcEndTick)
            current.sound.padded += f.audio.padded
            open = current
        } else {
            close()
            let end = shown.paused ? shown.tick : shown.tick + 1
            open = Timeline.Segment(
                kind: shown.kind, source: shown.source, sourceFps: shown.sourceFps, breakIndex: shown.ad?.breakIndex,
                adIndex: shown.ad?.adIndex, outStartFrame: f.outFrame, outEndFrame: f.outFrame + 1, srcStartTick: shown.tick,
                srcEndTick: end, srcStart: seconds(shown.tick), srcEnd: seconds(end), paused: shown.paused,
                pip: shown.pip.map(Timeline.Rect.init), picture: Timeline.Rect(shown.picture), audioStart: f.audio.start,
                sourceAudioStart: f.audio.sourceStart, audioPadded: f.audio.padded, audioDrift: f.audio.startsRun ? f.audio.drift : 0)
            open?.screen.display = f.screen.map { Timeline.Rect($0.display) }
            open?.screen.scenes = f.screen?.scenes
            open?.screen.layers = f.screen?.layers
        }
        lastTick = shown.tick
    }

    private func continues(_ s: Timeline.Segment, with f: Frame) -> Bool {
        let shown = f.shown
        guard s.kind == shown.kind, s.source == shown.source, s.breakIndex == shown.ad?.breakIndex, s.adIndex == shown.ad?.adIndex,
              s.paused == shown.paused, s.pip == shown.pip.map(Timeline.Rect.init), s.picture == Timeline.Rect(shown.picture),
              s.outEndFrame == f.outFrame, !f.audio.startsRun || shown.paused,
              s.screen.display == f.screen.map({ Timeline.Rect($0.display) }), s.screen.scenes == f.screen?.scenes,
              // Another player's layer continues when its tick moved on by the frames since the segment began.
              s.screen.layers?.map({ $0.advanced(by: f.outFrame - s.outStartFrame) }) == f.screen?.layers else { return false }
        return shown.paused ? shown.tick == s.srcStartTick : shown.tick == lastTick + 1
    }

    private mutating func close() {
        if let open { segments.append(open) }
        open = nil
    }

    mutating func finish() -> [Timeline.Segment] {
        close()
        return segments
    }

    private func seconds(_ tick: Int64) -> Double { rate.time(ofFrame: tick).seconds.doubleValue }
}
