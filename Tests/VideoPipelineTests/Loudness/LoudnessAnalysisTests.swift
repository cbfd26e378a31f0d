import Foundation
import Testing
@testable import VideoPipeline
import MediaCore

/// A file's loudness measured through the decoder, against FFmpeg's own `ebur128` filter (libavfilter's
/// implementation, independent of libebur128) on the same file.
@Suite struct LoudnessAnalysisTests {
    /// FFmpeg's integrated loudness and true peak of `path`, from the filter's summary.
    static func ffmpegFigures(_ path: String) throws -> (integrated: Double, truePeak: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FFmpegTool.ffmpegPath)
        process.arguments = ["-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let summary = try #require(text.range(of: "Summary:").map { String(text[$0.upperBound...]) })
        func figure(_ label: String) throws -> Double {
            let line = try #require(summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) })
            return try #require(Double(line.split(separator: " ").dropFirst().first { Double($0) != nil } ?? ""))
        }
        return (try figure("I:"), try figure("Peak:"))
    }

    /// 8 s of stereo AAC: a 440 Hz tone at −26 dBFS for 4 s, then at −16 dBFS.
    static func makeSteppedTone(_ path: String) throws {
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i",
                              "aevalsrc=0.0501*sin(2*PI*440*t)*(1+2.162*gte(t\\,4)):s=48000:c=stereo:d=8",
                              "-c:a", "aac", "-b:a", "192k", path)
    }

    @Test func agreesWithFFmpegsFilterOnADecodedFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("tone.m4a")
        try Self.makeSteppedTone(path)
        let report = try LoudnessAnalysis.measure(file: path)
        let peer = try Self.ffmpegFigures(path)
        let integrated = try #require(report.whole.integrated), truePeak = try #require(report.whole.truePeak)
        #expect(abs(integrated - peer.integrated) <= 0.2, "pipctl \(integrated) LUFS, ffmpeg \(peer.integrated) LUFS")
        #expect(abs(truePeak - peer.truePeak) <= 0.5, "pipctl \(truePeak) dBTP, ffmpeg \(peer.truePeak) dBTP")
        #expect(report.sampleRate == 48_000 && report.channels == 2)
        // One short-term reading per 100 ms of sound.
        #expect(abs(report.shortTerm.count - 80) <= 1, "\(report.shortTerm.count) readings")
    }

    /// Each span is measured on its own: the quiet half and the loud half 10 dB apart, as made.
    @Test func spansAreMeasuredOnTheirOwn() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("tone.m4a")
        try Self.makeSteppedTone(path)
        let report = try LoudnessAnalysis.measure(file: path, spans: [
            MediaTime(seconds: 1)..<MediaTime(seconds: 4), MediaTime(seconds: 4)..<MediaTime(seconds: 7)])
        let quiet = try #require(report.spans[0].integrated), loud = try #require(report.spans[1].integrated)
        #expect(abs((loud - quiet) - 10) <= 0.3, "quiet \(quiet) LUFS, loud \(loud) LUFS")
        #expect(report.spans[0].duration == MediaDuration(seconds: 3) && report.spans[1].duration == MediaDuration(seconds: 3))
    }

    @Test func aFileWithoutSoundIsRefusedByName() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("picture.mp4")
        try FFmpegTool.makeClip(path, seconds: 1, audio: false)
        #expect(throws: MediaError.missingStream(path: path, kind: .audio)) { _ = try LoudnessAnalysis.measure(file: path) }
    }
}
