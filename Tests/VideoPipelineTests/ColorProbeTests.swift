import MediaCore
import Testing
import VideoPipeline

/// `ColorProbe`, the mean colours `verify` compares screen layers by, on pictures made by the `ffmpeg` command line.
@Suite(.enabled(if: FFmpegTool.isAvailable, "needs the ffmpeg tool")) struct ColorProbeTests {
    static func close(_ a: YUVColor?, _ b: YUVColor, within tolerance: Int = 3) -> Bool {
        guard let a else { return false }
        return abs(Int(a.y) - Int(b.y)) <= tolerance && abs(Int(a.u) - Int(b.u)) <= tolerance && abs(Int(a.v) - Int(b.v)) <= tolerance
    }

    /// A 64x16 picture, its left half 0xcc3333 and its right half 0x3366cc: as an RGB PNG (converted by libswscale
    /// in the probe) and as yuv420p (read as it is).
    @Test(arguments: ["png", "y4m"])
    func eachHalfOfATwoColourPictureMeansItsOwnColour(_ container: String) throws {
        let dir = TemporaryDirectory()
        let file = dir.path("split.\(container)")
        try FFmpegTool.run(FFmpegTool.ffmpegPath, ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0xcc3333:s=32x16[a];color=c=0x3366cc:s=32x16[b];[a][b]hstack",
                            "-frames:v", "1"] + (container == "y4m" ? ["-pix_fmt", "yuv420p"] : ["-pix_fmt", "rgb24"]) + [file])
        let reader = try FrameReader(path: file)
        let probe = try ColorProbe(try #require(try reader.next()))
        let red = YUVColor(red: 0xCC, green: 0x33, blue: 0x33), blue = YUVColor(red: 0x33, green: 0x66, blue: 0xCC)
        #expect(Self.close(probe.mean(in: PixelRect(x: 0, y: 0, width: 32, height: 16)), red), "\(String(describing: probe.mean(in: PixelRect(x: 0, y: 0, width: 32, height: 16))))")
        #expect(Self.close(probe.mean(in: PixelRect(x: 32, y: 0, width: 32, height: 16)), blue))
        // A rectangle over both halves means both; one that runs off the picture is clipped to it.
        let both = try #require(probe.mean(in: PixelRect(x: 16, y: 0, width: 32, height: 16)))
        #expect(!Self.close(both, red, within: 10) && !Self.close(both, blue, within: 10))
        #expect(Self.close(probe.mean(in: PixelRect(x: 48, y: -8, width: 40, height: 40)), blue))
        // No whole chroma sample: nothing to say.
        #expect(probe.mean(in: PixelRect(x: 70, y: 0, width: 8, height: 8)) == nil)
        #expect(probe.mean(in: PixelRect(x: 3, y: 3, width: 1, height: 4)) == nil)
        // The probe keeps its own picture: the reader moving on (to the end) does not change it.
        _ = try reader.next()
        #expect(Self.close(probe.mean(in: PixelRect(x: 0, y: 0, width: 32, height: 16)), red))
    }
}
