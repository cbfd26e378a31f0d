@testable import AdPlayback
import Foundation
import LoopbackServer
import MediaCore

/// A loopback ad server that answers `/PREFIX/WxH.png` with an ffmpeg-made PNG of exactly WxH pixels, so that a
/// request whose `[WIDTH]`/`[HEIGHT]` were expanded gets a creative of the size it asked for, and that counts the
/// requests it receives.
final class SizedCreativeServer {
    let server: LoopbackHTTPServer
    let directory: TemporaryDirectory

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try TemporaryDirectory()
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> String { server.baseURL.absoluteString + path }

    /// Serves a `size` PNG of `color` at `/PREFIX/WxH.png`; returns the file.
    @discardableResult
    func serveImage(_ prefix: String, _ size: PointSize, color: String = "red") throws -> String {
        let file = try Self.image(in: directory, "\(prefix)-\(size).png", size, color: color)
        server.route("/\(prefix)/\(size).png", .file(URL(fileURLWithPath: file), contentType: "image/png"))
        return file
    }

    /// The sizes requested under `/PREFIX/`, in arrival order.
    func requestedSizes(_ prefix: String) -> [String] {
        server.requests.compactMap { request -> String? in
            let path = request.target.split(separator: "?", maxSplits: 1)[0]
            guard path.hasPrefix("/\(prefix)/"), path.hasSuffix(".png") else { return nil }
            return String(path.dropFirst(prefix.count + 2).dropLast(4))
        }
    }

    /// An image of `size` pixels made by the ffmpeg command line (`.png`, `.jpg` or `.gif` by `name`).
    static func image(in directory: TemporaryDirectory, _ name: String, _ size: PointSize, color: String = "red") throws -> String {
        let file = directory.file(name)
        try FFmpegCommandLine.run(["-f", "lavfi", "-i", "color=c=\(color):s=\(size.width)x\(size.height),format=rgb24", "-frames:v", "1",
                                 "-update", "1", file])
        return file
    }
}
