import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

extension Verifier {
    /// What a segment's audio should be: its source's tone, or silence (paused, or a source without audio).
    typealias Sound = VerifyFinding.Sound

    /// Tones this close (in Hz) are one tone: two files made with the same `--tone` measure a few hundredths of a
    /// hertz apart, and as two candidates neither would ever win (`ToneAnalyzer.dominantTone`).
    static let sameToneTolerance = 3.0

    /// Checks that every segment sounds like its source and that every change of sound sits within one video frame
    /// of its video boundary.
    ///
    /// Sources are told apart by their stamps; their tones only say whether the audio belongs with the video. So
    /// two different sources with the same tone are one sound here: the segments must sound like it, and the
    /// boundary between them, which no tone can place, is noted as not checked rather than called wrong. A source
    /// whose audio ends before its video (a one-frame ad, a short audio track) is silence for its `audioPadded`
    /// samples, and the change at the next boundary is measured from that silence.
    static func audio(_ path: String, timeline: Timeline, rate: FrameRate, sources: inout SourceCatalog,
                      problems: inout [VerifyFinding], notes: inout [String]) throws(Failure) -> [VerifyReport.AudioBoundary] {
        let format = OutputFormat(size: PixelSize(width: timeline.output.width, height: timeline.output.height),
                                  frameRate: rate, sampleRate: timeline.output.sampleRate, channels: 1)
        let clock = format.sampleClock
        let analyzer = ToneAnalyzer(sampleRate: format.sampleRate)
        let output: MediaSource
        do { output = try MediaSource(path: path, format: format) } catch { throw .media(error) }
        guard output.hasAudio else {
            problems.append(.init(.audioMissing))
            return []
        }
        var sounds: [Sound] = []
        var ids: [String] = []
        var tones: [Double] = []
        for segment in timeline.segments {
            ids.append(try sources.describe(segment.source, outputRate: rate).id)
            if segment.paused { sounds.append(.silence); continue }
            guard let measured = try sources.tone(segment.source, format: format) else { sounds.append(.silence); continue }
            let tone = tones.first { abs($0 - measured) <= sameToneTolerance } ?? measured
            if !tones.contains(tone) { tones.append(tone) }
            sounds.append(.tone(tone))
        }
        let candidates = tones.sorted()
        let perFrame = Int(clock.samples(fromFrame: 0, toFrame: 1))
        let buffer: AudioBuffer
        do { buffer = try AudioBuffer(channels: 1, sampleRate: format.sampleRate, capacity: format.sampleRate) } catch {
            throw .media(error)
        }
        func read(_ start: Int64, _ count: Int) throws(Failure) -> [Float] {
            do { _ = try output.readAudio(from: max(0, start), count: count, into: buffer) } catch { throw .media(error) }
            return buffer.samples(channel: 0)
        }
        func sound(of samples: ArraySlice<Float>) -> Sound? {
            if let hz = analyzer.dominantTone(in: samples, candidates: candidates) { return .tone(hz) }
            let rms = (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, samples.count))).squareRoot()
            return rms < ToneAnalyzer.silenceRMS * 4 ? .silence : nil
        }
        /// Samples of segment `k` that carry its sound (all of a silent one; a tone's until its padding starts).
        func audible(_ k: Int) -> Int64 {
            let segment = timeline.segments[k]
            let length = clock.sample(atFrame: segment.outEndFrame) - clock.sample(atFrame: segment.outStartFrame)
            return sounds[k] == .silence ? length : max(0, length - segment.sound.padded)
        }
        // Silence after a tone shorter than this is not looked for: a splice's correction is at most a sample or two.
        let millisecond = Int64(max(1, format.sampleRate / 1000))

        var boundaries: [VerifyReport.AudioBoundary] = []
        // A full-screen video ad's sound replaces the covered player's: what it plays is not the segment's source.
        let dubbed = timeline.segments.map { if case .fullScreen(_, .video)? = $0.fullScreenCover { true } else { false } }
        for (i, segment) in timeline.segments.enumerated() {
            let start = clock.sample(atFrame: segment.outStartFrame)
            let end = clock.sample(atFrame: segment.outEndFrame)
            if dubbed[i] {
                notes.append("the sound of output frames \(segment.outStartFrame)–\(segment.outEndFrame - 1) is a full-screen video ad's: not checked")
                continue
            }
            // The boundary with the previous segment, when the sound changes there.
            if i > 0, !dubbed[i - 1] {
                let previous = timeline.segments[i - 1]
                let padded = sounds[i - 1] != .silence && previous.sound.padded >= millisecond
                let before = padded ? Sound.silence : sounds[i - 1]
                if before == sounds[i] {
                    if case .tone(let hz) = before, ids[i - 1] != ids[i] {
                        notes.append("the audio change at output frame \(segment.outStartFrame) (\(name(segment))) was not checked: \(ids[i - 1]) and \(ids[i]) both sound a \(Int(hz.rounded())) Hz tone")
                    }
                } else {
                    // The window reaches back only into the sound `before` (the padding's silence, or the previous
                    // segment's audible part) and forward only into this segment's own sound.
                    let lead = Int(min(Int64(2 * perFrame), padded ? previous.sound.padded : audible(i - 1)))
                    let trail = Int(min(Int64(2 * perFrame), audible(i)))
                    let window = try read(start - Int64(lead), lead + trail)
                    let found = changePoint(window[..<(lead + trail)], from: before, to: sounds[i], analyzer: analyzer)
                    let offset = found.map { Int64($0) - Int64(lead) }
                    let ok = offset.map { abs($0) <= Int64(perFrame) } ?? false
                    boundaries.append(VerifyReport.AudioBoundary(
                        frame: segment.outStartFrame, expectedSample: start, foundSample: offset.map { start + $0 },
                        offsetFrames: offset.map { Double($0) / Double(perFrame) }, ok: ok))
                    if !ok {
                        problems.append(.init(offset.map {
                            .audioChange(frame: segment.outStartFrame, segment: .init(segment), offsetFrames: Double($0) / Double(perFrame))
                        } ?? .audioChangeNotFound(frame: segment.outStartFrame, segment: .init(segment))))
                    }
                }
            }
            // The middle of the segment (before any padding) must sound like its source.
            let audible = end - start - (sounds[i] == .silence ? 0 : segment.sound.padded)
            guard audible >= Int64(3 * perFrame) else { continue }
            let length = Int(min(Int64(format.sampleRate / 2), audible / 2))
            let samples = try read(start + (audible - Int64(length)) / 2, length)
            let heard = sound(of: samples[..<length])
            if heard != sounds[i] {
                problems.append(.init(.audioSource(first: segment.outStartFrame, last: segment.outEndFrame - 1, segment: .init(segment),
                                                   heard: heard, expected: sounds[i])))
            }
        }
        return boundaries
    }

    /// Where `samples` change from one sound to the other, as an index into `samples`.
    static func changePoint(_ samples: ArraySlice<Float>, from: Sound, to: Sound, analyzer: ToneAnalyzer) -> Int? {
        switch (from, to) {
        case (.tone(let a), .tone(let b)):
            return analyzer.changePoint(in: samples, from: a, to: b).map { $0 - samples.startIndex }
        case (.silence, .tone), (.tone, .silence):
            // The first (or last) sample of sound, with 1 ms windows.
            let window = max(1, analyzer.sampleRate / 1000)
            let loud = stride(from: samples.startIndex, to: samples.endIndex - window, by: window).map { i in
                (samples[i..<(i + window)].reduce(0) { $0 + Double($1 * $1) } / Double(window)).squareRoot() > ToneAnalyzer.silenceRMS * 4
            }
            if case .silence = from {
                return loud.firstIndex(of: true).map { $0 * window }
            }
            return loud.lastIndex(of: true).map { ($0 + 1) * window }
        case (.silence, .silence):
            return nil
        }
    }
}
