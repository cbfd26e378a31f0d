import AdDecisioning
import Foundation
import LoopbackServer
import Testing

extension EndToEnd {
    /// Pictures have a size budget (docs/SECURITY.md, `PictureLimit.creatives`: 4096 px a side, 4096x2160 in all):
    /// a banner, a card image or an ad over it is a logged load failure found from its header before anything
    /// decodes it, the render goes on, peak memory stays under 400 MB and nothing is left in the temporary directory.
    @Suite struct PictureBudgetTests {
        /// What a render may use, whatever its creatives claim to be.
        static let memoryBound = SanitizerSlack.bytes(400 * 1_000_000)

        /// Writes a valid 1-bit greyscale PNG of `width`x`height`, all black (with `rgba`, 8-bit RGBA, all
        /// transparent: what a decoder expands to 4 bytes a pixel), and returns its path: the pixels are zlib of zero
        /// rows (python3's zlib; Foundation cannot deflate), so a 30000x30000 image is a few hundred KB.
        static func blackPNG(_ dir: ScratchDirectory, _ name: String, width: Int, height: Int, rgba: Bool = false) throws -> String {
            let script = """
                import struct, sys, zlib
                path, w, h, rgba = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "rgba"
                c, left, block, parts = zlib.compressobj(9), h * (1 + (4 * w if rgba else (w + 7) // 8)), bytes(1 << 22), []
                while left > 0:
                    n = min(left, len(block)); parts.append(c.compress(block[:n])); left -= n
                parts.append(c.flush())
                def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
                open(path, 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8 if rgba else 1, 6 if rgba else 0, 0, 0, 0))
                                       + chunk(b'IDAT', b''.join(parts)) + chunk(b'IEND', b''))
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, dir.path(name), String(width), String(height), rgba ? "rgba" : "grey"]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "python3 could not write \(name)")
            return dir.path(name)
        }

        /// One second of flat 320x180 content with sound.
        static func content(_ dir: ScratchDirectory) throws -> String {
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=1", "-f", "lavfi", "-i", "sine=d=1",
                                   "-shortest", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                                   dir.path("content.mp4")])
            return dir.path("content.mp4")
        }

        /// Runs `arguments` under GNU time with the temporary directory in the scratch directory's `tmp`.
        static func render(_ arguments: [String], in dir: ScratchDirectory) async throws -> PeakMemory.Result {
            let tmp = try dir.subdirectory("tmp")
            return try await PeakMemory.run(arguments, in: dir, environment: ["TMPDIR": tmp])
        }

        static func events(_ output: String) throws -> [[String: Any]] {
            try RemoteMediaTests.events(output + ".events.jsonl")
        }

        @Test(arguments: [(30000, 30000), (100_000, 1), (16000, 16000)])
        func aBannerOverTheLimitIsALoadFailureAndTheRenderGoesOn(width: Int, height: Int) async throws {
            let dir = try ScratchDirectory()
            let banner = try Self.blackPNG(dir, "banner.png", width: width, height: height)
            let output = dir.path("out.mp4")
            let result = try await Self.render(["render", "--content", try Self.content(dir), "-o", output, "--device", "iphone-15",
                                                "--banner", banner, "--preset", "ultrafast"], in: dir)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let failures = try Self.events(output).filter { $0["type"] as? String == "bannerView:didFailToReceiveAdWithError" }
            let side = "\(width)x\(height) is over the picture limit of 4096 pixels a side"
            #expect(failures.map { $0["message"] as? String } == ["\(banner): \(side)"], "\(failures)")
            #expect(!result.standardError.contains("content:"), "\(result.standardError)")
            #expect(dir.entries(in: "tmp").isEmpty, "left in the temporary directory: \(dir.entries(in: "tmp"))")
            #expect(result.peakBytes < Self.memoryBound, "peak RSS \(result.peakBytes) bytes")
        }

        @Test func aBannerThatCannotBeDecodedIsALoadFailureNamingItAndTheRenderGoesOn() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=640x100", "-frames:v", "1", dir.path("whole.png")])
            // Its signature and IHDR (640x100, within the limit), then nothing of its pixels.
            let banner = dir.path("cut.png")
            try Data(try Data(contentsOf: URL(fileURLWithPath: dir.path("whole.png"))).prefix(60)).write(to: URL(fileURLWithPath: banner))
            let output = dir.path("out.mp4")
            let result = try await Self.render(["render", "--content", try Self.content(dir), "-o", output, "--device", "iphone-15",
                                                "--banner", banner, "--preset", "ultrafast"], in: dir)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let failures = try Self.events(output).filter { $0["type"] as? String == "bannerView:didFailToReceiveAdWithError" }
            #expect(failures.count == 1, "\(failures)")
            let message = try #require(failures.first?["message"] as? String)
            #expect(message.hasPrefix("\(banner): the png image cannot be decoded: "), "\(message)")
            #expect(!message.contains("truncated") && !message.contains("pipctl-banners"), "\(message)")
            #expect(dir.entries(in: "tmp").isEmpty, "left in the temporary directory: \(dir.entries(in: "tmp"))")
        }

        /// A linear ad whose file is a one-frame `width`x`height` video (the PNG copied into QuickTime, so that
        /// ffmpeg never decodes it), its MediaFile stating `size` (width, height) or nothing.
        static func vast(_ dir: ScratchDirectory, width: Int, height: Int, stating size: Bool) throws -> String {
            let png = try blackPNG(dir, "ad.png", width: width, height: height)
            try FFmpegCommand.run(["-i", png, "-c:v", "copy", dir.path("ad.mov")])
            let attributes = size ? #" width="\#(width)" height="\#(height)""# : ""
            return try dir.write("""
                <VAST version="4.2"><Ad id="big"><InLine><AdSystem>e2e</AdSystem><AdTitle>big</AdTitle>
                  <Creatives><Creative><Linear><Duration>00:00:01</Duration>
                    <MediaFiles><MediaFile delivery="progressive" type="video/quicktime"\(attributes)>ad.mov</MediaFile></MediaFiles>
                  </Linear></Creative></Creatives>
                </InLine></Ad></VAST>
                """, to: "vast.xml")
        }

        @Test(arguments: [(16000, 16000), (8192, 8192)])
        func anAdWhoseFileIsOverTheLimitFailsWith405BeforeItDecodesAndTheRenderGoesOn(width: Int, height: Int) async throws {
            let dir = try ScratchDirectory()
            let vast = try Self.vast(dir, width: width, height: height, stating: false)
            let output = dir.path("out.mp4")
            let result = try await Self.render(["render", "--content", try Self.content(dir), "--ads", vast, "-o", output,
                                                "--preset", "ultrafast"], in: dir)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("ads: 0 played, 0 skipped, 1 failed"), "\(result.standardOutput)")
            let errors = try Self.events(output).filter { $0["type"] as? String == "AD_ERROR" }
            #expect(errors.map { $0["code"] as? Int } == [405])
            let message = try #require(errors.first?["message"] as? String)
            #expect(message.contains("\(dir.path("ad.mov")): video stream #0's coded size (avformat_open_input) \(width)x\(height) is over the picture limit of 4096 pixels a side"),
                    "\(message)")
            #expect(dir.entries(in: "tmp").isEmpty, "left in the temporary directory: \(dir.entries(in: "tmp"))")
            #expect(result.peakBytes < Self.memoryBound, "peak RSS \(result.peakBytes) bytes")
        }

        /// A `--break` file is the user's own mistake: its video over the limit is refused from the container's
        /// header before the render starts (its RGBA picture was decoded whole to probe its length for the progress
        /// line: 1.08 GB).
        @Test func aBreakFileOverTheLimitIsRefusedFromItsHeader() async throws {
            let dir = try ScratchDirectory()
            let png = try Self.blackPNG(dir, "ad.png", width: 16000, height: 16000, rgba: true)
            let ad = dir.path("ad.mov")
            try FFmpegCommand.run(["-i", png, "-c:v", "copy", ad])
            let output = dir.path("out.mp4")
            let result = try await Self.render(["render", "--content", try Self.content(dir), "--break", "pre=\(ad)", "-o", output,
                                                "--preset", "ultrafast"], in: dir)
            #expect(result.exitStatus == 2, "\(result.standardError)")
            let lines = result.standardError.split(separator: "\n").map(String.init)
            #expect(lines.first == "pipctl render: --break: invalid --break value 'pre=\(ad)': media file \(ad): video stream #0's "
                        + "coded size (avformat_open_input) 16000x16000 is over the picture limit of 4096 pixels a side", "\(lines)")
            #expect(lines.count == 2, "the message and the usage hint: \(lines)")
            #expect(!FileManager.default.fileExists(atPath: output))
            #expect(dir.entries(in: "tmp").isEmpty, "left in the temporary directory: \(dir.entries(in: "tmp"))")
            #expect(result.peakBytes < SanitizerSlack.bytes(100 * 1_000_000), "peak RSS \(result.peakBytes) bytes")
        }

        @Test func anAdWhoseMediaFileStatesASizeOverTheLimitIsNotChosenAndFailsWith403() async throws {
            let dir = try ScratchDirectory()
            let vast = try Self.vast(dir, width: 8192, height: 8192, stating: true)
            let output = dir.path("out.mp4")
            let result = try await Self.render(["render", "--content", try Self.content(dir), "--ads", vast, "-o", output,
                                                "--preset", "ultrafast"], in: dir)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let errors = try Self.events(output).filter { $0["type"] as? String == "AD_ERROR" }
            #expect(errors.map { $0["code"] as? Int } == [403])
            #expect((errors.first?["message"] as? String)?.contains("8192x8192 is over the picture limit of 4096 pixels a side") == true,
                    "\(errors)")
            #expect(result.peakBytes < Self.memoryBound, "peak RSS \(result.peakBytes) bytes")
        }

        @Test func aCardWhoseRequiredImageIsOverTheLimitFailsBindingAndTheOthersShow() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0xdddd22:s=320x180:r=30:d=1", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", dir.path("content.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=0x3366cc:s=1200x628", "-frames:v", "1", dir.path("small.png")])
            _ = try Self.blackPNG(dir, "big.png", width: 16000, height: 16000)
            let ads = ["small.png", "big.png"].enumerated().map { i, image in
                """
                {"adid": "ad\(i)", "assets": [{"id": 1, "required": 1, "title": {"text": "Card \(i)"}},
                                              {"id": 2, "required": 1, "img": {"type": 3, "url": "\(image)", "w": 1200, "h": 628}}],
                 "link": {"url": "https://shop.example/\(i)"}}
                """
            }
            _ = try dir.write(#"{"ver": "1.2", "ads": ["# + ads.joined(separator: ",") + "]}", to: "slider.json")
            let session = try dir.write("""
                {"device": "iphone-15",
                 "scenes": [{"id": "feed", "player": {"content": "content.mp4"},
                             "native": [{"id": "s", "source": "slider.json", "template": {"slots": ["title", "media"]}}]}],
                 "script": ["load slider@0"]}
                """, to: "session.json")
            let output = dir.path("out.mp4")
            let result = try await Self.render(["render", "--session", session, "-o", output, "--preset", "ultrafast"], in: dir)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let failures = try Self.events(output).filter { $0["type"] as? String == "onAdBindingFailure" }
            #expect(failures.map { $0["card"] as? Int } == [1], "\(failures)")
            #expect(failures.first?["message"] as? String
                        == "required asset id 2 (img main) was dropped: \(dir.path("big.png")): 16000x16000 is over the picture limit of 4096 pixels a side")
            #expect(dir.entries(in: "tmp").isEmpty, "left in the temporary directory: \(dir.entries(in: "tmp"))")
            #expect(result.peakBytes < Self.memoryBound, "peak RSS \(result.peakBytes) bytes")
        }
    }
}
