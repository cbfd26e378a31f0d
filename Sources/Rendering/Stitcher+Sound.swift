import AdDecisioning
import AdScreen
import MediaCore
import VideoPipeline

// A frame's sound: which samples of which source fill the output's samples of the frame.
extension Stitcher {
    /// What a frame's sound read, for its timeline record.
    struct FrameSound {
        /// Where the read started on its source's sample clock.
        var sourceStart: Int64 = 0
        /// The silence after the end of its source's sound.
        var padded: Int64 = 0
        /// How far a new run starts from where the same source's last run ended.
        var drift: Int64 = 0
        /// The frame starts a new run of its source's sound.
        var startsRun = false
    }

    /// Reads output frame `n`'s samples `span` into `audio` from the sound `plan` names: a full-screen video's own,
    /// silence, or `source` (`key`) at `tick`, continuing its run or starting one. What it read goes into `read`.
    func readSound(of plan: FramePlan, frame n: Int64, source: MediaSource, key: SourceKey, tick: Int64,
                   span: OutputStage.SampleSpan, into audio: AudioBuffer, read: inout FrameSound) throws {
        let clock = sound.clock
        if case .fullScreenVideo(let request, let scene, let start) = plan.audio, let video = library.screenAds?.videoSources[request] {
            // A video full-screen ad over the player's scene: the output's sound is the ad's, on its own clock.
            sound.run = nil
            read.sourceStart = clock.sample(atFrame: tick)
            readCoverAudio(video, request: request, scene: scene, start: start, frame: n, count: span.count, into: audio)
            return
        }
        if plan.audio == .silence {
            audio.fill(count: span.count) { _, _ in 0 }
            sound.run = nil
            read.sourceStart = clock.sample(atFrame: tick)
            return
        }
        if sound.run == nil || sound.run!.key != key || sound.run!.lastTick + 1 != tick {
            if let run = sound.run { sound.ends[run.key] = run.sourceStart + clock.sample(atFrame: n) - clock.sample(atFrame: run.startFrame) }
            var start = clock.sample(atFrame: tick)
            // In passthrough, a source whose sound can be copied is read on the output's AAC packet grid.
            if let copyable = passthrough.copyableSound(key, source: source) { start = copyable.grid.sourceStart(output: clock.sample(atFrame: n), nominal: start) }
            read.drift = sound.ends[key].map { start - $0 } ?? 0
            sound.run = AudioRun(key: key, startFrame: n, sourceStart: start, lastTick: tick - 1)
            read.startsRun = true
        }
        sound.run!.lastTick = tick
        let position = sound.run!.sourceStart + clock.sample(atFrame: n) - clock.sample(atFrame: sound.run!.startFrame)
        read.sourceStart = position
        do throws(MediaError) {
            let real = try source.readAudio(from: position, count: span.count, into: audio)
            // Silence before the source's start (a run read up to half a packet early, onto the AAC grid) is
            // not padding: that is only what follows the end of its sound.
            read.padded = Int64(span.count - real) - min(Int64(span.count), max(0, -position))
            if real == span.count, let copyable = passthrough.copyableSound(key, source: source) {
                audio.copyableSound = CopyableSound(source: copyable, position: position)
            }
        } catch {
            throw key.ad.map { AdFailure(ad: $0, error: AdError(.mediaDisplay, "\(error)")) } ?? RenderError.content(error)
        }
    }
}
