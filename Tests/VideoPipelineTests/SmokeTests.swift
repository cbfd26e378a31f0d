import Testing
import MediaCore
@testable import VideoPipeline

@Suite struct SmokeTests {
    @Test func badInputs() throws {
        for f in ["missing.mp4", "", "noframes.mp4", "noframes.mkv", "noframes2.mp4", "audio.m4a", "half.mp4", "halffs.mp4", "random.bin"] {
            do {
                _ = try Transcoder.run(.init(input: "/tmp/vp/" + f, output: "/tmp/vp/bad-out.mp4"))
                print("NO ERROR", f)
            } catch { print("ERR", f, "→", error) }
        }
    }
}
