import Foundation
import MediaCore

/// Raw yuv420p clips and raw Float32 audio through the real encoders and scaler, for checking that stamps and
/// tones survive them.
extension FFmpegTool {
    static let skipMessage = "/usr/bin/ffmpeg is not installed: stamps and tones not checked against x264, swscale, AAC"

    private static let quiet = ["-hide_banner", "-v", "error", "-nostdin", "-y"]

    /// Encodes raw yuv420p clips at 30 fps with libx264 (preset medium, CRF 23), through the filter graph
    /// `filter` when given (inputs `[0]`, `[1]`, … in order), and decodes the result back to raw yuv420p.
    ///
    /// - Returns: the decoded frames, all of `outputSize`.
    static func encodeAndDecode(_ inputs: [(frames: [YUVImage], size: PixelSize)], filter: String? = nil,
                                outputSize: PixelSize) throws -> [YUVImage] {
        let dir = TemporaryDirectory("stamps")
        var arguments = quiet
        for (i, input) in inputs.enumerated() {
            var raw = Data()
            for frame in input.frames { raw.append(frame.data) }
            try raw.write(to: URL(fileURLWithPath: dir.path("in\(i).yuv")))
            arguments += ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", input.size.description, "-r", "30",
                          "-i", dir.path("in\(i).yuv")]
        }
        try run(ffmpegPath, arguments + (filter.map { ["-filter_complex", $0] } ?? [])
                + ["-c:v", "libx264", "-preset", "medium", "-crf", "23", "-pix_fmt", "yuv420p", dir.path("out.mp4")])
        let out = try run(ffmpegPath, quiet + ["-i", dir.path("out.mp4"), "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let frameBytes = YUVImage.byteCount(width: outputSize.width, height: outputSize.height)
        guard out.count % frameBytes == 0 else {
            throw Failure(description: "decoded \(out.count) bytes, not a whole number of \(outputSize) frames")
        }
        return (0..<out.count / frameBytes).map {
            YUVImage(width: outputSize.width, height: outputSize.height, rawFrames: out, index: $0)
        }
    }

    /// Frames `0..<count` of the test pattern of `id` at `size`.
    static func clip(_ id: String, _ size: PixelSize, count: Int,
                     stamped: Bool = true) throws -> (frames: [YUVImage], size: PixelSize) {
        (try (0..<count).map { try YUVImage.pattern(id, size, frame: $0, stamped: stamped) }, size)
    }

    /// Encodes mono Float32 `samples` at `rate` to AAC (ffmpeg's encoder, 128 kb/s, in MP4) and decodes them back.
    static func aacRoundTrip(_ samples: [Float], rate: Int) throws -> [Float] {
        let dir = TemporaryDirectory("tones")
        try samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: dir.path("in.f32")))
        try run(ffmpegPath, quiet + ["-f", "f32le", "-ar", "\(rate)", "-ac", "1", "-i", dir.path("in.f32"),
                                     "-c:a", "aac", "-b:a", "128k", dir.path("out.m4a")])
        let data = try run(ffmpegPath, quiet + ["-i", dir.path("out.m4a"), "-f", "f32le", "-ac", "1", "-"])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
