import AdDecisioning
import AdPlayback
import Foundation
import MediaCore
import VideoPipeline

// The end of a render: the files finished and put in place together, and what the render produced.
extension Stitcher {
    /// Writes the trailer, the timeline and the event log, and moves them all into place with `alongside` (files of
    /// the caller's, such as `play`'s command log): all of them, or none when one fails.
    @discardableResult
    public func finish(alongside: [AtomicFile] = []) throws(RenderError) -> RenderResult {
        precondition(!records.finished)
        records.finished = true
        try passthrough.finish()
        let segments = records.timeline.finish()
        let stage = output.stage
        let output = Timeline.Output(
            path: request.output.path, fps: format.frameRate.perSecond.fraction, width: format.size.width,
            height: format.size.height, frames: stage.frameCount,
            duration: format.frameRate.time(ofFrame: stage.frameCount).seconds.doubleValue,
            sampleRate: format.sampleRate, channels: format.channels,
            audioSamples: sound.clock.sample(atFrame: stage.frameCount), profile: request.encoding.profile.rawValue,
            pointScale: request.device.screen?.pointScale.description)
        var result = Timeline(output: output, content: Timeline.Source(
            path: request.content.path, fps: content.nominalFrameRate.perSecond.fraction, frames: content.frameCount,
            duration: content.videoDuration.seconds.doubleValue), segments: segments)
        var passthroughSound = content.hasAudio ? stage.audioCopyRefusal.map { PassthroughSound.encoded($0) } : nil
        result.videoRuns = passthrough.runs.map { Timeline.VideoRun.runs(copied: $0.copied, frames: stage.frameCount) }
        result.loudness = sound.normaliser?.timeline
        // The content's path as given is relative to where the render ran (the ads' are absolute): made absolute,
        // so that verify and report read the timeline from any directory.
        result = result.withAbsolutePaths(in: FileManager.default.currentDirectoryPath)
        // Every file is finished under its temporary name first, then all are put in place together: a failure
        // at any point leaves every previous file at its destination exactly as it was.
        do {
            try records.timelineFile?.write(result.jsonData())
            var files: [AtomicFile] = []
            files += try stage.finishWriting()
            if let timelineFile = records.timelineFile { files.append(timelineFile) }
            if let eventLog = records.eventLog { files.append(try eventLog.finishWriting()) }
            try AtomicFile.commitAll(files + alongside)
            if let packets = stage.audioPackets { passthroughSound = .copied(packets: packets.copied, encoded: packets.encoded) }
        } catch {
            throw .output(Stitcher.outputError(error, request: request, otherwise: request.output.path))
        }
        let earlyEnds = (content.earlyEnd.map { [InputEarlyEnd(ad: nil, earlyEnd: $0)] } ?? []) + library.ads.earlyEnds
        return RenderResult(timeline: result, plan: director.adPlan, earlyEnds: earlyEnds, breaksNotReached: records.breaksNotReached,
                            passthroughRefusal: passthrough.refusal, passthroughAds: passthrough.ads,
                            passthroughNotes: passthrough.notes + passthrough.gainedSoundNotes(sound.normaliser), passthroughSound: passthroughSound)
    }

    /// Runs a whole batch render.
    public static func render(_ request: RenderRequest, control: JobControl = .none) throws(RenderError) -> RenderResult {
        let stitcher = try Stitcher(request: request, isCancelled: control.isCancelled)
        while try stitcher.step() {
            control.progress(stitcher.frameCount, max(stitcher.estimatedFrames, stitcher.frameCount))
            if control.isCancelled() { throw .interrupted }
        }
        return try stitcher.finish()
    }
}
