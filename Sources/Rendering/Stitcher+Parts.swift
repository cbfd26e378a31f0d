import AdPlayback
import MediaCore
import VideoPipeline

// The stitcher's state, in the parts that change together.
extension Stitcher {
    /// Where the frames go: the compositor that draws them, the stage that encodes (or copies) and writes them (the
    /// MP4, absent when `play` records nothing, and the frame hashes), and an HLS render's forced keyframes
    /// (segment cuts; `nil` otherwise).
    struct FrameOutput {
        let compositor: Compositor
        let stage: OutputStage
        var keyframes: KeyframeSchedule?
    }

    /// What the render records besides its frames: the timeline being built and its file (prepared with the output,
    /// so that a timeline path that cannot be written stops the render before it starts), the event log, the other
    /// observers of every event, and the breaks reported never reached because the content ended before their cue.
    struct Records {
        var timeline: TimelineBuilder
        let timelineFile: AtomicFile?
        let eventLog: EventLog?
        var observers: [any SessionEventObserver] = []
        var breaksNotReached: [Int] = []
        var finished = false
    }

    /// The output's sound as it is written: its sample clock, the run of one source being read, where each source's
    /// cursor stopped (to report the correction when it resumes), and in a normalised render (`--loudness`) each
    /// source's measurement and gain (`nil` for `off`).
    struct SoundTrack {
        let clock: SampleClock
        let normaliser: LoudnessNormaliser?
        var run: AudioRun?
        var ends: [SourceKey: Int64] = [:]
    }
}
