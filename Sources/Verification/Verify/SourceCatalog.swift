import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// What the verifier knows of each source a timeline names: its stamp id, frame rate, frame count and tone.
struct SourceCatalog {
    struct Source {
        var path: String
        var id: String
        var rate: FrameRate
        /// How many frames its video decodes to.
        var frames: Int64
        /// When each of them starts: which frame an output tick shows.
        var timing: SourceFrames
        /// Whether the file declares its frame rate (otherwise `rate` is the output's, as the render took it).
        var declaresRate: Bool
        /// The video stream's duration, when the file declares it.
        var duration: MediaDuration?
        /// The source's test tone; `nil` when it has no audio (or no tone).
        var tone: Double??
    }

    let baseDirectories: [String]
    private var known: [String: Source] = [:]

    init(baseDirectories: [String]) { self.baseDirectories = baseDirectories }

    /// The source a timeline names, found as written, or relative to the timeline's directory, with when each of
    /// its frames starts (`SourceFrames`, read once per source).
    ///
    /// - Parameter outputRate: the render's rate, the nominal rate of a file that declares none (as the renderer
    ///   takes it).
    mutating func describe(_ path: String, outputRate: FrameRate) throws(Verifier.Failure) -> Source {
        if let source = known[path] { return source }
        let resolved = resolve(path)
        let info: MediaInfo
        let timing: SourceFrames
        do {
            info = try MediaProbe.probe(resolved)
            timing = try SourceFrames.read(resolved, outputRate: outputRate)
        } catch {
            throw .media(error)
        }
        guard let first = timing.firstStamp, let video = info.bestVideo else { throw .unstampedSource(path: resolved) }
        let rate = video.frameRate ?? outputRate
        let source = Source(path: resolved, id: first.sourceID, rate: rate, frames: Int64(timing.count), timing: timing,
                            declaresRate: video.frameRate != nil, duration: video.duration ?? info.duration, tone: nil)
        known[path] = source
        return source
    }

    /// The source's tone, estimated from its first second of audio (at the output's sample rate, mono).
    mutating func tone(_ path: String, format: OutputFormat) throws(Verifier.Failure) -> Double? {
        var source = try describe(path, outputRate: format.frameRate)
        if let tone = source.tone { return tone }
        var tone: Double?
        do {
            let media = try MediaSource(path: source.path, format: format)
            if media.hasAudio {
                let buffer = try AudioBuffer(channels: 1, sampleRate: format.sampleRate, capacity: format.sampleRate)
                let real = try media.readAudio(from: 0, count: format.sampleRate, into: buffer)
                tone = ToneAnalyzer(sampleRate: format.sampleRate).estimateTone(in: buffer.samples(channel: 0)[..<max(real, 1)])
            }
        } catch {
            throw .media(error)
        }
        source.tone = .some(tone)
        known[path] = source
        return tone
    }

    private func resolve(_ path: String) -> String {
        if FileManager.default.fileExists(atPath: path) || path.hasPrefix("/") { return path }
        for base in baseDirectories {
            let candidate = URL(fileURLWithPath: base).appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return path
    }
}

extension SourceCatalog.Source {
    /// How many output ticks at `rate` start before the source ends (by its frames at `sourceRate` or by its
    /// declared duration, whichever is longer): no segment of it reaches further.
    func ticks(at rate: FrameRate, sourceRate: FrameRate) -> Int64 {
        let byFrames = (Rational(frames) * rate.perSecond / sourceRate.perSecond).ceiling
        return max(byFrames, duration.map { rate.frameCount(in: $0) } ?? 0)
    }
}
