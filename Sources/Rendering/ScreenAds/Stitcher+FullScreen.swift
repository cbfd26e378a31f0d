import AdPlayback
import MediaCore
import VideoPipeline

extension Stitcher {
    /// Reads the sound of `source`, the video of full-screen request `request` covering the player's scene since output
    /// frame `start`, for output frame `frame`
    /// into `audio`, brought to the ads' loudness in a
    /// normalised render (measured once, the first time it covers): silence where its media fails, or its sound
    /// cannot be measured (the picture's failure dismisses it; the sound must not stop the render first, nor play
    /// at a loudness the render did not set).
    func readCoverAudio(_ source: MediaSource, request: Int, scene: SceneID, start: Int64, frame: Int64, count: Int,
                        into audio: AudioBuffer) {
        let clock = format.sampleClock
        do throws(MediaError) {
            if let normaliser = sound.normaliser {
                // Logged at the frame its sound starts, after that frame's own events (the presentation that started it).
                defer { for note in normaliser.takeNotes() { director.report(.noted(note, scene: scene)) } }
                try normaliser.prepare(source, fullScreen: request, scene: scene, frame: start)
            }
            _ = try source.readAudio(from: clock.sample(atFrame: frame) - clock.sample(atFrame: start),
                                     count: count, into: audio)
        } catch {
            audio.fill(count: count) { _, _ in 0 }
        }
    }
}
