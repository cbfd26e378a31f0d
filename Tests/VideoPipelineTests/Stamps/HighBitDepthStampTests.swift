import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// Stamps of sources that are not 8-bit 4:2:0: 10- and 12-bit, 4:2:2 and 4:4:4 (ProRes, yuv420p10 H.264,
/// FFV1), and RGB, made by ffmpeg from a stamped 8-bit clip and read through their 8-bit luma.
@Suite(.enabled(if: FFmpegTool.isAvailable)) struct HighBitDepthStampTests {
    /// One conversion by the `ffmpeg` command line: the pixel format asked for, the encoder and the container.
    struct Conversion: Sendable, CustomTestStringConvertible {
        var pixelFormat: String
        var codec: [String]
        var container: String
        var testDescription: String { "\(pixelFormat) (\(codec[1]))" }
    }

    static let conversions = [
        Conversion(pixelFormat: "yuv420p10le", codec: ["-c:v", "libx264", "-preset", "ultrafast"], container: "mp4"),
        Conversion(pixelFormat: "yuv422p10le", codec: ["-c:v", "prores_ks"], container: "mov"),
        Conversion(pixelFormat: "yuv444p10le", codec: ["-c:v", "libx264", "-preset", "ultrafast"], container: "mp4"),
        Conversion(pixelFormat: "yuv444p12le", codec: ["-c:v", "ffv1"], container: "mkv"),
        Conversion(pixelFormat: "yuv422p", codec: ["-c:v", "libx264", "-preset", "ultrafast"], container: "mp4"),
        Conversion(pixelFormat: "bgr0", codec: ["-c:v", "ffv1"], container: "mkv"),
    ]

    @Test(arguments: conversions)
    func everyFrameStampReadsAfterConversion(_ conversion: Conversion) throws {
        let dir = TemporaryDirectory()
        let source = dir.path("deep.mp4")
        _ = try TestSourceGenerator.generate(.init(output: source, duration: MediaDuration(seconds: 1),
                                                   size: PixelSize(width: 320, height: 180), frameRate: FrameRate(25),
                                                   sourceID: "deep", encoding: EncodingSettings(preset: "ultrafast")))
        let converted = dir.path("converted.\(conversion.container)")
        try FFmpegTool.run(FFmpegTool.ffmpegPath, ["-hide_banner", "-v", "error", "-y", "-i", source] + conversion.codec
                           + ["-pix_fmt", conversion.pixelFormat, "-c:a", "copy", converted])
        // ffprobe, not our own probe, says the file really holds that format.
        let format = String(decoding: try FFmpegTool.run(FFmpegTool.ffprobePath, [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=pix_fmt", "-of", "csv=p=0", converted]),
            as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(format == conversion.pixelFormat)
        #expect(try StampScan.scan(converted).summary == "output 0–24: deep 0–24")
    }
}
