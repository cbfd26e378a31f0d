import Foundation
import Testing

extension EndToEnd {
    /// An ad whose codec parameters no decoder accepts: the render skips it with AD_ERROR 405 and goes on, and the
    /// same file through `probe` and `transcode` is one line naming it and `avcodec_open2`. Never a crash (the
    /// codec context that failed to open used to be freed twice).
    @Suite struct CorruptCodecTests {
        static func corruptAd(in dir: ScratchDirectory) async throws -> String {
            let good = try Data(contentsOf: URL(fileURLWithPath: try await TestClip.adB.path))
            let path = dir.path("corrupt.mp4")
            try CorruptMedia.withUnsupportedAudioObjectType(good).write(to: URL(fileURLWithPath: path))
            return path
        }

        @Test func aRenderSkipsTheAdWithAdError405AndPlaysTheRest() async throws {
            let dir = try ScratchDirectory()
            let corrupt = try await Self.corruptAd(in: dir)
            let result = try await PipctlProcess.run([
                "render", "--content", try await TestClip.content.path, "--break", "pre=\(corrupt)",
                "--break", "2=\(try await TestClip.adA.path)", "-o", dir.path("out.mp4"), "--preset", "ultrafast",
            ])
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("\n  ads: 1 played, 0 skipped, 1 failed; "), "\(result.standardOutput)")
            let events = try dir.text("out.mp4.events.jsonl").split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let adError = try #require(events.first { $0["type"] as? String == "AD_ERROR" })
            #expect(adError["code"] as? Int == 405)
            #expect(adError["message"] as? String == "\(corrupt): avcodec_open2 failed: Function not implemented")
            let verify = try await PipctlProcess.run(["verify", dir.path("out.mp4")])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)")
        }

        @Test func probeSaysInOneLineThatItCannotBeDecoded() async throws {
            let dir = try ScratchDirectory()
            let corrupt = try await Self.corruptAd(in: dir)
            let result = try await PipctlProcess.run(["probe", corrupt])
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines == ["pipctl probe: \(corrupt): avcodec_open2 failed: Function not implemented"])
        }

        @Test func transcodeSaysInOneLineThatItCannotBeDecodedAndWritesNothing() async throws {
            let dir = try ScratchDirectory()
            let corrupt = try await Self.corruptAd(in: dir)
            let result = try await PipctlProcess.run(["transcode", corrupt, "-o", dir.path("out.mp4"), "--preset", "ultrafast"])
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 1)
            #expect(result.errorLines == ["pipctl transcode: \(corrupt): avcodec_open2 failed: Function not implemented"])
            #expect(dir.entries() == ["corrupt.mp4"])
        }
    }
}
