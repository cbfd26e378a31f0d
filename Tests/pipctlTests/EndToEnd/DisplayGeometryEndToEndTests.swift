import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// Pictures drawn by the display-geometry rule and exactly inside their rectangle: inputs made by the `ffmpeg`
    /// command line, transcoded losslessly by pipctl, and the output decoded again by `ffmpeg` to find where the
    /// picture landed and to check that every sample outside it is exactly black (a stripe of libswscale's
    /// overrun beside the picture fails this).
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct DisplayGeometryDrawingTests {
        static let screen = PixelSize(width: 640, height: 360)

        /// `pipctl transcode INPUT --profile lossless [--size]` into `dir`, returning the output's path.
        private func transcode(_ input: String, size: PixelSize? = nil, in dir: ScratchDirectory,
                               name: String = "out.mkv") async throws -> String {
            let out = dir.path(name)
            let result = try await PipctlProcess.run(["transcode", input, "-o", out, "--profile", "lossless"]
                                                     + (size.map { ["--size", $0.description] } ?? []))
            try #require(result.exitStatus == 0, "\(result.standardError)")
            return out
        }

        /// Checks that the picture of frame `frame` of `out` covers exactly `expected` and nothing else is drawn.
        private func expectPicture(in out: String, canvas: PixelSize = screen, at expected: PixelRect,
                                   frame: Int = 0) throws {
            let picture = try DecodedPicture(file: out, size: canvas, frame: frame)
            #expect(picture.nonBlackBounds == expected)
            let stray = picture.samplesOtherThanBlack(outside: expected)
            #expect(stray.isEmpty, "\(stray.count) samples beside the picture are not black: \(stray.prefix(8))")
        }

        @Test func theDemosPortraitAdIsPillarboxedWithoutAStripe() async throws {
            // media/ad10.mp4, 360x640: in 640x360 it is 202.5 pixels wide, so 203 (not a multiple of 16) at x 218.
            let dir = try ScratchDirectory()
            let ad = PipctlProcess.repositoryRoot.appendingPathComponent("media/ad10.mp4").path
            let cut = dir.path("ad10-start.mp4")
            try FFmpegCommand.run(["-i", ad, "-t", "0.5", "-map", "0:v", "-c", "copy", cut])
            let out = try await transcode(cut, size: Self.screen, in: dir)
            for frame in [0, 7] {
                try expectPicture(in: out, at: PixelRect(x: 218, y: 0, width: 203, height: 360), frame: frame)
            }
            // Column 420 is the picture's last and 421 the bar's first: the chroma sample they share (210) is
            // halfway between black's 128 and the picture's own beside it (209), not the bar's grey nor the picture's.
            let picture = try DecodedPicture(file: out, size: Self.screen)
            let chromaWidth = Self.screen.width / 2
            for plane in [picture.cb, picture.cr] {
                let misses = (0..<(Self.screen.height / 2)).map { row -> Int in
                    let shared = Int(plane[row * chromaWidth + 210]), inner = Int(plane[row * chromaWidth + 209])
                    return abs(2 * shared - (128 + inner))
                }
                #expect(Double(misses.reduce(0, +)) / Double(misses.count) < 4, "\(misses.prefix(16))")
                #expect(plane.indices.contains { plane[$0] != 128 && $0 % chromaWidth == 210 })
            }
        }

        @Test func anOddSizedPictureIsCentredToThePixel() async throws {
            // (testsrc, not testsrc2, which rounds its size down to even.) 641x361 in 640x360: 360 × 641/361 = 639.2, so 639 columns and one black column on the right.
            let dir = try ScratchDirectory()
            let odd = dir.path("odd.mkv")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc=size=641x361:rate=25:duration=0.2", "-c:v", "ffv1",
                                   "-pix_fmt", "yuv420p", odd])
            try expectPicture(in: try await transcode(odd, size: Self.screen, in: dir),
                              at: PixelRect(x: 0, y: 0, width: 639, height: 360))
            // In a 1280x720 screen: 720 × 641/361 = 1278.4 → 1278 columns between bars of 1: an odd offset, where
            // the chroma samples shared with the bars stay black.
            try expectPicture(in: try await transcode(odd, size: PixelSize(width: 1280, height: 720), in: dir, name: "big.mkv"),
                              canvas: PixelSize(width: 1280, height: 720), at: PixelRect(x: 1, y: 0, width: 1278, height: 720))
        }

        @Test func anAnamorphicPictureIsLetterboxedAtItsDisplayAspect() async throws {
            // 853x480 at SAR 32/27 is 1011x480 on screen: in 640x360 that is 640x304, between bars of 28.
            let dir = try ScratchDirectory()
            let anamorphic = dir.path("anamorphic.mkv")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc=size=853x480:rate=25:duration=0.2", "-vf", "setsar=32/27",
                                   "-c:v", "ffv1", "-pix_fmt", "yuv420p", anamorphic])
            try expectPicture(in: try await transcode(anamorphic, size: Self.screen, in: dir),
                              at: PixelRect(x: 0, y: 28, width: 640, height: 304))
        }

        @Test func aWebMFlaggedFourByThreeIsDrawnFourByThree() async throws {
            // 640x360 VP9 whose 4:3 is stated only by the WebM container.
            let dir = try ScratchDirectory()
            let webm = dir.path("flagged.webm")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=0.2", "-c:v", "libvpx-vp9",
                                   "-deadline", "realtime", "-aspect", "4:3", webm])
            try expectPicture(in: try await transcode(webm, size: Self.screen, in: dir),
                              at: PixelRect(x: 80, y: 0, width: 480, height: 360))
            // Without --size the canvas is the display size, 480x360, and the picture fills it.
            let own = PixelSize(width: 480, height: 360)
            try expectPicture(in: try await transcode(webm, in: dir, name: "own.mkv"), canvas: own, at: PixelRect(size: own))
        }

        /// A phone clip: 320x180 stored, `rotate=90` or `rotate=270` in its MP4 header. pipctl's picture must be
        /// the one `ffmpeg` shows with its own autorotate, and not the one turned the other way.
        @Test(arguments: [(90, 270), (270, 90)])
        func aRotatedClipIsDrawnUprightAsFFmpegShowsIt(rotate: Int, otherWay: Int) async throws {
            let dir = try ScratchDirectory()
            let plain = dir.path("plain.mp4")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=0.2", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", plain])
            func turned(_ degrees: Int) throws -> String {
                let path = dir.path("turned-\(degrees).mp4")
                try FFmpegCommand.run(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", path])
                return path
            }
            let clip = try turned(rotate), other = try turned(otherWay)
            let upright = PixelSize(width: 180, height: 320)

            // Without --size the canvas is the clip's upright size and the picture fills it.
            let out = try await transcode(clip, in: dir)
            let drawn = try DecodedPicture(file: out, size: upright).luma
            let reference = try DecodedPicture(file: clip, size: upright).luma
            let wrong = try DecodedPicture(file: other, size: upright).luma
            #expect(meanAbsoluteDifference(drawn, reference) < 1)
            #expect(meanAbsoluteDifference(drawn, wrong) > 20)

            // In a landscape screen it is pillarboxed: 360 × 9/16 = 202.5 → 203 columns at x 218.
            let boxed = try await transcode(clip, size: Self.screen, in: dir, name: "boxed.mkv")
            try expectPicture(in: boxed, at: PixelRect(x: 218, y: 0, width: 203, height: 360))
        }

        /// A display matrix that mirrors (ffmpeg 5.1 cannot write one, so the MP4's `tkhd` matrix is rewritten):
        /// pipctl's picture must be exactly the one `ffmpeg` shows with its autorotate, and not the plain one.
        @Test(arguments: [([-1, 0, 0, 1], PixelSize(width: 320, height: 180)), ([0, 1, 1, 0], PixelSize(width: 180, height: 320))])
        func aMirroredClipIsDrawnAsFFmpegShowsIt(matrix: [Int32], shown: PixelSize) async throws {
            let dir = try ScratchDirectory()
            let plain = dir.path("plain.mp4"), mirrored = dir.path("mirrored.mp4")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=0.2", "-c:v", "libx264",
                                   "-preset", "ultrafast", "-pix_fmt", "yuv420p", plain])
            try Self.rewriteTrackMatrix(of: plain, to: mirrored, matrix)
            let out = try await transcode(mirrored, in: dir)
            let drawn = try DecodedPicture(file: out, size: shown).luma
            #expect(meanAbsoluteDifference(drawn, try DecodedPicture(file: mirrored, size: shown).luma) < 1)
            if shown == PixelSize(width: 320, height: 180) {
                #expect(meanAbsoluteDifference(drawn, try DecodedPicture(file: plain, size: shown).luma) > 20)
            }
        }

        /// Copies an MP4 with one track, its `tkhd` (version 0) matrix set to `[a b; c d]` (16.16, no translation).
        static func rewriteTrackMatrix(of source: String, to destination: String, _ abcd: [Int32]) throws {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
            let tag = Array("tkhd".utf8)
            let type = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == tag })
            try #require(bytes[type + 4] == 0, "tkhd version 0")
            // type + 4: version and flags, 4 times, 8 reserved, layer, group, volume, reserved: the matrix at + 44.
            let values: [Int32] = [abcd[0] << 16, abcd[1] << 16, 0, abcd[2] << 16, abcd[3] << 16, 0, 0, 0, 1 << 30]
            for (i, value) in values.enumerated() {
                let word = UInt32(bitPattern: value)
                for b in 0..<4 { bytes[type + 44 + 4 * i + b] = UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32(b))) }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: destination))
        }

        @Test func probeReportsRotationAndBothAspects() async throws {
            let dir = try ScratchDirectory()
            let square = dir.path("square.mp4"), flagged = dir.path("flagged.mkv"), turned = dir.path("turned.mp4")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=0.2", "-vf", "setsar=1",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", square])
            try FFmpegCommand.run(["-i", square, "-c", "copy", "-aspect", "4:3", flagged])
            try FFmpegCommand.run(["-i", square, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned])

            let text = try await PipctlProcess.run(["probe", flagged]).standardOutput
            #expect(text.contains("640x360, SAR 3/4 (container; bitstream 1/1), DAR 4/3, shown 480x360, "), "\(text)")
            let json = try await PipctlProcess.run(["probe", "--json", flagged]).standardOutputData
            let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            let video = try #require((report["streams"] as? [[String: Any]])?.first { $0["kind"] as? String == "video" })
            #expect(video["sampleAspectRatio"] as? String == "3/4")
            #expect(video["containerSampleAspectRatio"] as? String == "3/4")
            #expect(video["bitstreamSampleAspectRatio"] as? String == "1/1")
            #expect(video["displayWidth"] as? Int == 480)
            #expect(video["displayHeight"] as? Int == 360)
            #expect(video["rotation"] as? Int == 0)

            let turnedText = try await PipctlProcess.run(["probe", turned]).standardOutput
            #expect(turnedText.contains("640x360, DAR 9/16, rotated 90° counterclockwise, shown 360x640, "), "\(turnedText)")
            let turnedJSON = try await PipctlProcess.run(["probe", "--json", turned]).standardOutputData
            let turnedReport = try #require(try JSONSerialization.jsonObject(with: turnedJSON) as? [String: Any])
            let turnedVideo = try #require((turnedReport["streams"] as? [[String: Any]])?.first { $0["kind"] as? String == "video" })
            #expect(turnedVideo["rotation"] as? Int == 90)
            #expect(turnedVideo["mirrored"] as? Bool == false)
            #expect(turnedVideo["displayWidth"] as? Int == 360)
            #expect(turnedVideo["displayHeight"] as? Int == 640)
        }
    }
}
