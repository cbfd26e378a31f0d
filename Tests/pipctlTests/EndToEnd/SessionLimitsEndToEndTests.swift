import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// A session file over a limit, and a huge script with one bad command, on the built `pipctl`: exit 2 and one
    /// short line naming the file and the JSON path (issue 22).
    @Suite(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool")) struct SessionLimitsTests {
        /// Renders `session.json` holding `json` and returns the result; nothing is written at the output.
        static func render(_ json: String, in dir: ScratchDirectory) async throws -> PipctlResult {
            try json.write(toFile: dir.path("session.json"), atomically: true, encoding: .utf8)
            let result = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "-o", dir.path("out.mp4")])
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
            return result
        }

        /// The first line of standard error, and how many non-empty lines it has.
        static func firstLine(_ result: PipctlResult) -> (String, Int) {
            let lines = result.standardError.split(separator: "\n")
            return (lines.first.map(String.init) ?? "", lines.count)
        }

        @Test(arguments: [
            (#"{"device": "100000x100000", "scenes": [{"id": "a", "player": {"content": "c.mp4"}}]}"#,
             "device: 100000 points is more than the limit of 10000 points a side"),
            (#"{"device": "390x844@100000", "scenes": [{"id": "a", "player": {"content": "c.mp4"}}]}"#,
             "device: scale 100000 is outside the limit of 1/16 to 16 (at most three decimals)"),
            (#"{"device": "iphone-15", "pointScale": "1/100000", "scenes": [{"id": "a", "player": {"content": "c.mp4"}}]}"#,
             "pointScale: scale 1/100000 is outside the limit of 1/16 to 16 (at most three decimals)"),
            (#"{"device": "9000x9000", "pointScale": 2, "scenes": [{"id": "a", "player": {"content": "c.mp4"}}]}"#,
             "pointScale: the screen is 18000x18000 pixels (both orientations), outside the limit of 16x16 to 8192x8192"),
            (#"{"device": "ipad-11", "scenes": [\#((0..<17).map { #"{"id": "s\#($0)", "player": {"content": "c.mp4"}}"# }.joined(separator: ","))]}"#,
             "scenes: 17 scenes, more than the limit of 16"),
        ])
        func aSessionOverALimitExitsTwoNamingTheFileAndThePath(json: String, message: String) async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(json, in: dir)
            #expect(result.exitStatus == 2, "\(result.standardError)")
            let (line, _) = Self.firstLine(result)
            #expect(line == "pipctl render: --session: \(dir.path("session.json")): \(message)", "\(result.standardError)")
        }

        @Test func aSessionFileLargerThanTheLimitIsRefusedNamingIt() async throws {
            let dir = try ScratchDirectory()
            let json = #"{"device": "iphone-15", "scenes": [{"id": "a", "player": {"content": "c.mp4"}}]}"#
            let result = try await Self.render(json + String(repeating: " ", count: 5 << 20), in: dir)
            #expect(result.exitStatus == 2)
            #expect(Self.firstLine(result).0 == "pipctl render: --session: \(dir.path("session.json")): larger than the limit of 4194304 bytes")
        }

        /// A script just under its limit (`SessionScript.maximumBytes`) whose one bad command is 3 MB: the error
        /// quotes 200 characters of it. One byte more and the file is refused unread, in one line naming the limit.
        @Test func aLargeScriptWithOneBadCommandGivesOneShortLineAndALargerOneIsRefusedUnread() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=red:s=160x90:r=30:d=1", "-c:v", "libx264", "-preset", "ultrafast",
                                   "-pix_fmt", "yuv420p", dir.path("c.mp4")])
            let good = String(repeating: "pip on@1; pip off@2\n", count: 1_000)
            let bad = "frobnicate " + String(repeating: "z", count: 3_000_000) + "@3\n"
            let padding = String(repeating: "#", count: 4 << 20 - good.utf8.count * 2 - bad.utf8.count - 1) + "\n"
            let script = good + bad + good + padding
            #expect(script.utf8.count == 4 << 20)
            for (name, text) in [("big.script", script), ("over.script", script + "\n")] {
                try text.write(toFile: dir.path(name), atomically: true, encoding: .utf8)
            }
            let render = { (name: String) in
                try await PipctlProcess.run(["render", "--content", dir.path("c.mp4"), "--script", "@" + dir.path(name), "-o", dir.path("out.mp4")])
            }
            let result = try await render("big.script")
            #expect(result.exitStatus == 2)
            #expect(result.standardError.utf8.count < 800, "\(result.standardError.prefix(300))")
            #expect(Self.firstLine(result).0.contains("script command \"frobnicate zzz"), "\(result.standardError.prefix(300))")
            #expect(Self.firstLine(result).0.utf8.count < 600)
            let over = try await render("over.script")
            #expect(over.exitStatus == 2)
            #expect(Self.firstLine(over).0 == "pipctl render: --script: \(dir.path("over.script")): larger than the limit of 4194304 bytes")
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
        }
    }
}
