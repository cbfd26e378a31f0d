import Foundation
import Testing

extension EndToEnd {
    /// `--start-at` on `render` and `play`, `--cue-points` on `render`, `play` and `ads inspect`, and the usage
    /// errors of both.
    @Suite struct StartAndCuePointsTests {
        static let positions = PipctlProcess.repositoryRoot
            .appendingPathComponent("Tests/AdSideTests/Fixtures/VMAP/positions.xml").path

        static func jsonLines(_ text: String) throws -> [[String: Any]] {
            try text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        /// A 2 s pre-roll (ad A), 1 s mid-rolls at 2 s and 4 s (ad B), content 6 s at 30 fps, started at 3 s.
        @Test func renderStartAtPlaysThePrerollThenTheContentFromTheStartAndOnlyTheBreaksAfterIt() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, a = try await TestClip.adA.path, b = try await TestClip.adB.path
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run([
                "render", "--content", content, "--break", "pre=\(a)", "--break", "2=\(b)", "--break", "4=\(b)",
                "--start-at", "3", "-o", output, "--preset", "ultrafast",
            ])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.hasPrefix("\(output): 180 frames (0:06) 320x180 at 30 fps, 4 segments\n"))

            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            #expect(segments.map { $0["kind"] as? String } == ["ad", "content", "ad", "content"])
            #expect(segments.map { $0["break"] as? Int } == [0, nil, 2, nil])
            #expect(segments.map { $0["outStartFrame"] as? Int } == [0, 60, 90, 120])
            #expect(segments.map { $0["srcStartTick"] as? Int } == [0, 90, 0, 120])

            let events = try Self.jsonLines(try dir.text("out.mp4.events.jsonl"))
            #expect(events.filter { $0["type"] as? String == "AD_BREAK_STARTED" }.map { $0["break"] as? Int } == [0, 2])
            let passed = events.filter { $0["reason"] as? String == "startPosition" }
            #expect(passed.map { $0["break"] as? Int } == [1])
            #expect(passed.first?["message"] as? String == "break 1 (midroll@0:00:02.000) is cued before the start position and is not played")
            #expect(passed.first?["contentTime"] as? Int == 3)

            let stamps = try await PipctlProcess.run(["stamps", output])
            #expect(stamps.standardOutput.contains("output 60–89: content 90–119\n"))
            #expect(stamps.standardOutput.hasSuffix("output 120–179: content 120–179\n"))
            let verify = try await PipctlProcess.run(["verify", output])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)")
        }

        @Test func renderStartAtWithPlayAdsAfterTheStartSkipsThePrerollToo() async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path, a = try await TestClip.adA.path, b = try await TestClip.adB.path
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run([
                "render", "--content", content, "--break", "pre=\(a)", "--break", "2=\(b)", "--break", "4=\(b)",
                "--start-at", "3", "--play-ads-after", "3", "-o", output, "--preset", "ultrafast",
            ])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            #expect(segments.map { $0["break"] as? Int } == [nil, 2, nil])
            #expect(segments.map { $0["outStartFrame"] as? Int } == [0, 30, 60])
            #expect(segments.map { $0["srcStartTick"] as? Int } == [90, 0, 120])
            let events = try Self.jsonLines(try dir.text("out.mp4.events.jsonl"))
            #expect(events.filter { $0["type"] as? String == "AD_BREAK_SKIPPED" }.map { "\($0["break"] ?? "-") \($0["reason"] ?? "-")" }
                    == ["0 playAdsAfterTime", "1 playAdsAfterTime"])
        }

        @Test(arguments: ["render", "play"])
        func aStartAtOrPastTheEndOfTheContentIsAUsageErrorNamingTheValue(command: String) async throws {
            let dir = try ScratchDirectory()
            let content = try await TestClip.content.path
            let result = try await PipctlProcess.run([command, "--content", content, "--start-at", "6.5"], directory: dir.url)
            #expect(result.exitStatus == 2)
            #expect(result.errorLines == [
                "pipctl \(command): --start-at: 6.5 is not inside the content (\(content) is 6 s long)",
                "See 'pipctl \(command) --help'.",
            ])
            #expect(dir.entries() == [])
        }

        @Test func aStartAtThatIsNotATimeIsAUsageError() async throws {
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--start-at", "soon"])
            #expect(result.exitStatus == 2)
            #expect(result.errorLines.first == "pipctl render: --start-at: \"soon\" is not a time (e.g. 90, 12.5, 1:30, 0:01:30.250)")
        }

        @Test func inspectPlacesVMAPPositionsAtTheGivenCuePoints() async throws {
            let result = try await PipctlProcess.run(["ads", "inspect", Self.positions, "--cue-points", "10,20.5",
                                                      "--content-duration", "60", "--json"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            let breaks = try #require(report["breaks"] as? [[String: Any]])
            #expect(breaks.map { $0["breakId"] as? String } == ["first", "second"])
            #expect(breaks.map { $0["offset"] as? Double } == [10, 20.5])
            #expect((report["errors"] as? [Any])?.isEmpty == true)
        }

        @Test func inspectWithoutEnoughCuePointsLeavesThePositionBreaksOutWithAnError() async throws {
            let result = try await PipctlProcess.run(["ads", "inspect", Self.positions, "--cue-points", "10", "--json"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            let breaks = try #require(report["breaks"] as? [[String: Any]])
            #expect(breaks.map { $0["breakId"] as? String } == ["first"])
            let errors = try #require(report["errors"] as? [[String: Any]])
            #expect(errors.map { $0["code"] as? Int } == [200])
            #expect((errors.first?["message"] as? String)?.hasSuffix("position #2 needs the content's ad break opportunities (cue points); 1 known") == true)
        }

        @Test(arguments: [
            ("10,x", "cue point \"x\" is not a time (e.g. 90, 12.5, 1:30, 0:01:30.250)"),
            ("10,5", "cue point \"5\" is not after the one before it (10); list them in increasing order"),
            ("10,10", "cue point \"10\" is not after the one before it (10); list them in increasing order"),
            ("-1,5", "cue point \"-1\" is negative; cue points are content times from 0"),
            ("1,,2", "cue point \"\" is not a time (e.g. 90, 12.5, 1:30, 0:01:30.250)"),
        ])
        func badCuePointsAreAUsageErrorNamingTheValue(value: String, message: String) async throws {
            for command in [["ads", "inspect", Self.positions], ["render", "--content", try await TestClip.content.path, "--ads", Self.positions]] {
                let result = try await PipctlProcess.run(command + ["--cue-points=\(value)"])
                let name = "pipctl " + (command[0] == "ads" ? "ads inspect" : "render")
                #expect(result.exitStatus == 2)
                #expect(result.errorLines == ["\(name): --cue-points: \(message)", "See '\(name) --help'."])
            }
        }
    
        @Test func inspectTextShowsRenditionsTrackingCompanionsAndOverlays() async throws {
            let fixture = PipctlProcess.repositoryRoot.appendingPathComponent("Tests/AdSideTests/Fixtures/VAST/inline-linear.xml").path
            let result = try await PipctlProcess.run(["ads", "inspect", fixture])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.contains("                       refused  application/x-mpegURL  1280x720  -            https://cdn.example/ads/master.m3u8  application/x-mpegurl is streaming (HLS/DASH), not supported yet"))
            #expect(lines.contains("                       firstQuartile   https://track.example/q1"))
            #expect(lines.contains("       companion       id              c-300x250"))
            #expect(lines.contains("       non-linear      id              nl-1"))
        }
}
}
