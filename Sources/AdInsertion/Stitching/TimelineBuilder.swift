import AdCore
import MediaCore

/// Gathers frame decisions into timeline segments: a new segment starts wherever the source, the continuity of
/// its ticks, the paused state, or the place the picture is drawn changes, for the primary player or any other.
struct TimelineBuilder {
    struct Frame {
        var kind: Timeline.Segment.Kind
        var source: String
        var sourceFps: String
        var breakIndex: Int?
        var adIndex: Int?
        var outFrame: Int64
        var tick: Int64
        var paused: Bool
        var pip: PixelRect?
        var picture: PixelRect
        var audioStart: Int64
        var sourceAudioStart: Int64
        var padded: Int64
        /// Set on the first frame of an audio run: the correction applied there.
        var drift: Int64
        var startsAudioRun: Bool
        /// On a device: the display, the scenes and the layers drawn (see `Timeline.Segment`).
        var display: PixelRect? = nil
        var scenes: [Timeline.Scene]? = nil
        var layers: [Timeline.Layer]? = nil
    }

    let rate: FrameRate
    private(set) var segments: [Timeline.Segment] = []
    private var open: Timeline.Segment?
    private var lastTick: Int64 = 0

    init(rate: FrameRate) { self.rate = rate }

    mutating func add(_ f: Frame) {
        if var current = open, continues(current, with: f) {
            current.outEndFrame = f.outFrame + 1
            if !f.paused { current.srcEndTick = f.tick + 1 }
            current.srcEnd = seconds(current.srcEndTick)
            current.audioPadded += f.padded
            open = current
        } else {
            close()
            open = Timeline.Segment(
                kind: f.kind, source: f.source, sourceFps: f.sourceFps, breakIndex: f.breakIndex, adIndex: f.adIndex,
                outStartFrame: f.outFrame, outEndFrame: f.outFrame + 1, srcStartTick: f.tick,
                srcEndTick: f.paused ? f.tick : f.tick + 1, srcStart: seconds(f.tick),
                srcEnd: seconds(f.paused ? f.tick : f.tick + 1), paused: f.paused, pip: f.pip.map(Timeline.Rect.init),
                picture: Timeline.Rect(f.picture), audioStart: f.audioStart, sourceAudioStart: f.sourceAudioStart,
                audioPadded: f.padded, audioDrift: f.startsAudioRun ? f.drift : 0)
            open?.display = f.display.map(Timeline.Rect.init)
            open?.scenes = f.scenes
            open?.layers = f.layers
        }
        lastTick = f.tick
    }

    private func continues(_ s: Timeline.Segment, with f: Frame) -> Bool {
        guard s.kind == f.kind, s.source == f.source, s.breakIndex == f.breakIndex, s.adIndex == f.adIndex,
              s.paused == f.paused, s.pip == f.pip.map(Timeline.Rect.init), s.picture == Timeline.Rect(f.picture),
              s.outEndFrame == f.outFrame, !f.startsAudioRun || f.paused,
              s.display == f.display.map(Timeline.Rect.init), s.scenes == f.scenes,
              // Another player's layer continues when its tick moved on by the frames since the segment began.
              s.layers?.map({ $0.advanced(by: f.outFrame - s.outStartFrame) }) == f.layers else { return false }
        return f.paused ? f.tick == s.srcStartTick : f.tick == lastTick + 1
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
