import Foundation
import Testing

extension EndToEnd {
    /// The README's main job: `pipctl render` alone renders the bundled demo into `out/`, and it verifies.
    @Suite struct DemoRenderTests {
        @Test func renderWithNoArgumentsMakesTheDemoAndItVerifies() async throws {
            let dir = try ScratchDirectory()
            let media = PipctlProcess.repositoryRoot.appendingPathComponent("media").path
            try FileManager.default.copyItem(atPath: media, toPath: dir.path("media"))
            let before = dir.entries()

            let render = try await PipctlProcess.run(["render"], directory: dir.url, timeout: .seconds(600))
            #expect(render.exitStatus == 0, "\(render.standardError)")
            #expect(render.standardError.isEmpty)
            #expect(render.standardOutput.hasPrefix("out/demo.mp4: "))
            #expect(render.standardOutput.contains("\n  ads: 5 played, 0 skipped, 0 failed; 0 decisioning errors\n"))
            let written = ["out", "out/demo.mp4", "out/demo.mp4.events.jsonl", "out/demo.mp4.timeline.json"]
            #expect(dir.entries() == (before + written).sorted())

            let verify = try await PipctlProcess.run(["verify", "out/demo.mp4"], directory: dir.url, timeout: .seconds(300))
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)")
            #expect(verify.standardOutput.hasPrefix("verify out/demo.mp4: OK — "))

            // The same render verified without its stamps, against the source files themselves.
            let sources = try await PipctlProcess.run(["verify", "out/demo.mp4", "--sources"], directory: dir.url, timeout: .seconds(300))
            #expect(sources.exitStatus == 0, "\(sources.standardOutput)")
            #expect(sources.standardOutput.hasPrefix("verify out/demo.mp4 --sources: OK — 3751 frames in 9 segments match their sources"))
        }
    }
}
