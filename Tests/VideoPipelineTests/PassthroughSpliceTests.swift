import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// A passthrough splice judged by ffmpeg: content packets copied around a mid-GOP break, only the partial GOPs and
/// the ad encoded, one H.264 track that ffmpeg decodes with no message, and the copied pictures bit-identical to the
/// source's.
@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg command-line tool as the independent peer"))
struct PassthroughSpliceTests {
    /// (GOP in frames, B-frames, content seconds, cut frame): a 2 s GOP cut at a B-frame, a 10 s GOP without
    /// B-frames cut at a P-frame.
    @Test(arguments: [(60, 3, 10, 100), (300, 0, 30, 400)])
    func aBreakInTheMiddleOfAGOPReencodesOnlyThatGOPsPartsAndCopiesTheRest(_ gop: Int, _ bframes: Int, _ seconds: Int, _ cut: Int64) throws {
        let dir = TemporaryDirectory()
        let content = dir.path("content.mp4")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=\(seconds)", "-c:v", "libx264", "-preset", "veryfast",
                              "-g", "\(gop)", "-keyint_min", "\(gop)", "-sc_threshold", "0", "-bf", "\(bframes)", "-pix_fmt", "yuv420p", content)
        let format = OutputFormat(size: PixelSize(width: 320, height: 180), frameRate: FrameRate(30), sampleRate: 48000, channels: 2)
        let writer = try MediaWriter(destination: dir.path("out.mp4"), format: format,
                                     encoding: EncodingSettings(crf: 18, preset: "veryfast", threads: 2), passthrough: content)
        let total = Int64(seconds * 30)
        let keyframes = try #require(writer.copyable?.keyframes)
        #expect(keyframes == Array(stride(from: Int64(0), to: total, by: gop)) && writer.copyable?.frames == total)
        let before = keyframes.last { $0 <= cut }!, after = keyframes.first { $0 > cut } ?? total
        // Half a second of a tone at a time, as a render writes its audio beside its frames.
        let sound = try AudioBuffer(channels: 2, sampleRate: 48000, capacity: 24000)
        sound.fill(count: 24000) { _, i in Float(sin(Double(i) * 0.05)) / 4 }
        let source = try MediaSource(path: content, format: format)
        let ad = try Compositor(size: format.size)
        try ad.fill(PixelRect(size: format.size), with: YUVColor(red: 0xC0, green: 0x30, blue: 0x30))

        try writer.copyVideo(0..<before)
        for t in before..<cut { try writer.writeVideo(try source.picture(atTick: t)) }
        for _ in 0..<45 { try writer.writeVideo(ad.picture) }
        for t in cut..<after { try writer.writeVideo(try source.picture(atTick: t)) }
        if after < total { try writer.copyVideo(after..<total) }
        #expect(writer.frameCount == total + 45)
        for _ in 0..<((total + 45) / 15) { try writer.writeAudio(sound) }
        try writer.finishWriting().commitMedia()
        let output = dir.path("out.mp4")

        // ffmpeg decodes every picture with -xerror and says nothing.
        let messages = try FFmpegTool.run("/bin/sh", ["-c", "\(FFmpegTool.ffmpegPath) -hide_banner -v error -xerror -i \(output) -f null - 2>&1"])
        #expect(messages.isEmpty, "\(String(decoding: messages, as: UTF8.self))")
        let ours = Self.hashes(try FFmpegTool.frameMD5(output)), theirs = Self.hashes(try FFmpegTool.frameMD5(content))
        #expect(ours.count == Int(total) + 45)
        // The copied runs are the source's pictures, bit for bit; the encoded ones are not copies.
        #expect(ours[0..<Int(before)] == theirs[0..<Int(before)])
        #expect(ours[(Int(after) + 45)...] == theirs[Int(after)...])
        #expect(ours[Int(before)..<Int(cut)] != theirs[Int(before)..<Int(cut)])
        // The sound is there, whole: (frames / 15) half-seconds, to within the AAC encoder's last frame.
        let samples = try FFmpegTool.decodedSampleCount(output, channels: 2)
        #expect(abs(samples - Int(total + 45) / 15 * 24000) <= 1024, "\(samples) samples")
        // The re-encoded content is the source's picture (PSNR of those frames against it), and the ad is red.
        let psnr = try Self.psnr(output, content, frames: Int(before)..<Int(cut))
        #expect(psnr > 35, "PSNR \(psnr) dB")
    }

    /// A content that cannot be copied is refused with the reason: here its size differs from the output's.
    @Test func aContentOfAnotherSizeCannotBeCopied() throws {
        let dir = TemporaryDirectory()
        try FFmpegTool.makeClip(dir.path("c.mp4"), size: "320x240", rate: "30", seconds: 1, audio: false)
        let format = OutputFormat(size: PixelSize(width: 320, height: 180), frameRate: FrameRate(30), sampleRate: 48000, channels: 2)
        let refusal = CopyRefusal.pictureSize(width: 320, height: 240, output: PixelSize(width: 320, height: 180))
        #expect(throws: MediaError.cannotCopy(path: dir.path("c.mp4"), reason: refusal)) {
            try MediaWriter(destination: dir.path("o.mp4"), format: format, encoding: EncodingSettings(), passthrough: dir.path("c.mp4"))
        }
        #expect(MediaError.cannotCopy(path: "c.mp4", reason: refusal).description == "c.mp4: cannot be copied: its pictures are 320x240, the output's 320x180")
        #expect(!FileManager.default.fileExists(atPath: dir.path("o.mp4")))
    }

    /// The MD5 column of ffmpeg's framemd5 lines.
    static func hashes(_ framemd5: String) -> [String] {
        framemd5.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// ffmpeg's average PSNR of `frames` of `a` against the same frames of `b`.
    static func psnr(_ a: String, _ b: String, frames: Range<Int>) throws -> Double {
        let select = "select=between(n\\,\(frames.lowerBound)\\,\(frames.upperBound - 1)),setpts=N"
        let text = String(decoding: try FFmpegTool.run("/bin/sh", ["-c", "\(FFmpegTool.ffmpegPath) -hide_banner -i \(a) -i \(b) -filter_complex '[0:v]\(select)[x];[1:v]\(select)[y];[x][y]psnr' -f null - 2>&1"]), as: UTF8.self)
        guard let range = text.range(of: "average:") else { throw FFmpegTool.Failure(description: text) }
        return Double(text[range.upperBound...].prefix { !$0.isWhitespace }) ?? 0
    }
}
