import CFFmpeg
import Foundation
import MediaCore

/// Writes the MD5 of every output picture in the format of FFmpeg's `framemd5` muxer (version 2), so that a
/// user can compare it with `ffmpeg -i OUT -f framemd5 -` of a lossless output, and so that two runs can be
/// compared for determinism. The file is written atomically on `finish()`.
public final class FrameHashLog {
    private let output: AtomicFile
    private let md5: MD5Context
    private let format: OutputFormat
    private var index: Int64 = 0

    public init(destination: String, format: OutputFormat) throws(MediaError) {
        self.format = format
        output = try AtomicFile.forMedia(destination)
        md5 = try MD5Context()
        let rate = format.frameRate.perSecond
        try append("""
            #format: frame checksums
            #version: 2
            #hash: MD5
            #tb 0: \(rate.denominator)/\(rate.numerator)
            #media_type 0: video
            #codec_id 0: rawvideo
            #dimensions 0: \(format.size.width)x\(format.size.height)
            #sar 0: 1/1
            #stream#, dts,        pts, duration,     size, hash

            """)
    }

    /// Hashes the visible bytes of the canvas's three planes, row by row (no stride padding), as `rawvideo` does.
    public func append(_ compositor: Compositor) throws(MediaError) { try append(compositor.picture) }

    public func append(_ picture: VideoPicture) throws(MediaError) {
        let frame = picture.frame
        let size = frame.size
        let planes = [(0, size.width, size.height), (1, (size.width + 1) / 2, (size.height + 1) / 2),
                      (2, (size.width + 1) / 2, (size.height + 1) / 2)]
        var bytes = 0
        let digest = md5.digest { update in
            for (plane, width, height) in planes {
                guard let base = frame.dataPointer(plane) else { continue }
                let stride = frame.lineSize(plane)
                for row in 0..<height { update(base + row * stride, width) }
                bytes += width * height
            }
        }
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        try append("0, \(pad(String(index), 10)), \(pad(String(index), 10)), \(pad("1", 8)), \(pad(String(bytes), 8)), \(hex)\n")
        index += 1
    }

    public func finish() throws(MediaError) {
        try output.commitMedia()
    }

    /// The finished file, still under its temporary name, for `AtomicFile.commitAll` with the other outputs.
    public func finishWriting() -> AtomicFile { output }

    private func append(_ text: String) throws(MediaError) {
        do { try output.append(Data(text.utf8)) } catch { throw .outputNotWritable(path: error.path, reason: error.reason) }
    }
}
