import Foundation
import Testing

extension EndToEnd {
    /// `pipctl verify --expect GOLDEN` beyond the break frames: picture in picture, screen layers and events, each
    /// golden a copy of a real render's timeline (and event log) edited in one place, and `--expect-only`.
    @Suite struct GoldenVerifyTests {
        /// A pre-roll (ad B), then the content going to picture in picture at 1.5 s and back at 3 s.
        static var pipRender: String {
            get async throws {
                try await SharedArtifacts.shared.path(of: "golden/pip.mp4") { output in
                    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    let result = try await PipctlProcess.run(try await Self.pipArguments(output))
                    guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: "render: \(result.standardError)") }
                }
            }
        }

        static func pipArguments(_ output: String) async throws -> [String] {
            ["render", "--content", try await TestClip.content.path, "--break", "pre=\(try await TestClip.adB.path)",
             "--script", "pip on@1.5; pip off@3", "-o", output, "--preset", "ultrafast"]
        }

        /// A phone turned to landscape at 0.5 s: the screen's layers change.
        static var deviceRender: String {
            get async throws {
                try await SharedArtifacts.shared.path(of: "golden/device.mp4") { output in
                    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    let result = try await PipctlProcess.run(["render", "--content", try await TestClip.adA.path, "-o", output,
                                                              "--device", "iphone-15", "--script", "rotate landscape@0.5",
                                                              "--preset", "ultrafast"])
                    guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: "render: \(result.standardError)") }
                }
            }
        }

        static func json(_ path: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        }

        /// The same session as `pipRender`, written as HLS (fMP4 segments): the directory.
        static var pipHLSRender: String {
            get async throws {
                try await SharedArtifacts.shared.path(of: "golden/pip-hls") { output in
                    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    var arguments = try await Self.pipArguments(output)
                    let o = try #require(arguments.firstIndex(of: "-o"))
                    arguments[o] = "--hls"
                    let result = try await PipctlProcess.run(arguments)
                    guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: "render: \(result.standardError)") }
                }
            }
        }

        /// Writes `golden.timeline.json` and `golden.events.jsonl` in `dir`: the render's own, each edited by its closure.
        static func golden(of output: String, in dir: ScratchDirectory, segments edit: (inout [[String: Any]]) throws -> Void = { _ in },
                           events editEvents: (inout [[String: Any]]) throws -> Void = { _ in }) throws -> String {
            try golden(timeline: output + ".timeline.json", events: output + ".events.jsonl", in: dir, segments: edit, events: editEvents)
        }

        /// The same from a timeline and event log at any paths (an HLS render's `timeline.json` and `events.jsonl`).
        static func golden(timeline timelinePath: String, events eventsPath: String, in dir: ScratchDirectory,
                           segments edit: (inout [[String: Any]]) throws -> Void = { _ in },
                           events editEvents: (inout [[String: Any]]) throws -> Void = { _ in }) throws -> String {
            var timeline = try json(timelinePath)
            var segments = try #require(timeline["segments"] as? [[String: Any]])
            try edit(&segments)
            timeline["segments"] = segments
            let path = dir.path("golden.timeline.json")
            try JSONSerialization.data(withJSONObject: timeline).write(to: URL(fileURLWithPath: path))
            var events = try String(contentsOfFile: eventsPath, encoding: .utf8).split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            try editEvents(&events)
            let lines = try events.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
            try (lines.joined(separator: "\n") + "\n").write(toFile: dir.path("golden.events.jsonl"), atomically: true, encoding: .utf8)
            return path
        }

        static func int(_ value: Any?) throws -> Int { try #require(value as? Int) }

        /// `(x,y wxh)` of a timeline rectangle.
        static func words(_ rect: Any?) throws -> String {
            let r = try #require(rect as? [String: Int])
            return "(\(r["x"] ?? -1),\(r["y"] ?? -1) \(r["width"] ?? -1)x\(r["height"] ?? -1))"
        }

        /// The index of the last segment in the picture-in-picture window; the one after it is full screen again.
        static func lastPictureInPictureSegment(_ segments: [[String: Any]]) throws -> Int {
            let index = try #require(segments.lastIndex { $0["pip"] is [String: Any] })
            try #require(index + 1 < segments.count && segments[index + 1]["pip"] is NSNull)
            return index
        }

        @Test func aGoldenCopyOfTheSameRenderAndASecondRenderOfTheSameSessionPass() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.pipRender
            let copy = try Self.golden(of: output, in: dir)
            let same = try await PipctlProcess.run(["verify", output, "--expect", copy])
            #expect(same.exitStatus == 0, "\(same.standardOutput)")
            #expect(!same.standardOutput.contains("note: events not compared"), "\(same.standardOutput)")

            // Every aspect, events included, is reproducible: another render of the same session is its golden.
            let again = dir.path("again.mp4")
            let render = try await PipctlProcess.run(try await Self.pipArguments(again))
            try #require(render.exitStatus == 0, "\(render.standardError)")
            let result = try await PipctlProcess.run(["verify", output, "--expect", again + ".timeline.json"])
            #expect(result.exitStatus == 0, "\(result.standardOutput)")
        }

        @Test func aGoldenWhosePictureInPictureEndsHalfASecondLaterFailsNamingTheWindow() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.pipRender
            var window = "", end = 0
            // The window closes 15 frames (0.5 s) later; the content's frames, and so every stamp, stay the same.
            let golden = try Self.golden(of: output, in: dir, segments: { segments in
                let last = try Self.lastPictureInPictureSegment(segments)
                window = try Self.words(segments[last]["pip"])
                end = try Self.int(segments[last]["outEndFrame"])
                segments[last]["outEndFrame"] = end + 15
                segments[last]["srcEndTick"] = try Self.int(segments[last]["srcEndTick"]) + 15
                segments[last + 1]["outStartFrame"] = try Self.int(segments[last + 1]["outStartFrame"]) + 15
                segments[last + 1]["srcStartTick"] = try Self.int(segments[last + 1]["srcStartTick"]) + 15
            })
            let result = try await PipctlProcess.run(["verify", output, "--expect", golden])
            #expect(result.exitStatus == 1)
            let sentence = "picture in picture window 1 at \(window) ended at output frame \(end), the golden says \(end + 15)"
            #expect(result.standardOutput.contains("\n  \(sentence)\n"), "\(result.standardOutput)")
            #expect(result.errorLines.first?.hasSuffix("1 problem; first: \(sentence)") == true, "\(result.errorLines)")

            // `--sources` compares the same golden the same way.
            let fingerprints = try await PipctlProcess.run(["verify", output, "--sources", "--expect", golden], timeout: .seconds(300))
            #expect(fingerprints.exitStatus == 1)
            #expect(fingerprints.standardOutput.contains("\n  \(sentence)\n"), "\(fingerprints.standardOutput)")

            // The break frames alone are the same.
            let framesOnly = try await PipctlProcess.run(["verify", output, "--expect", golden, "--expect-only", "frames"])
            #expect(framesOnly.exitStatus == 0, "\(framesOnly.standardOutput)")
            let named = try await PipctlProcess.run(["verify", output, "--expect", golden, "--expect-only", "frames,layers",
                                                     "--expect-only", "pip"])
            #expect(named.exitStatus == 1)
            #expect(named.standardOutput.contains("\n  \(sentence)\n"), "\(named.standardOutput)")
        }

        @Test func aGoldenWithThePictureInPictureWindowInAnotherCornerFailsNamingBothPlaces() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.pipRender
            let width = try Self.int(try Self.json(output + ".timeline.json")["output"].flatMap { ($0 as? [String: Any])?["width"] })
            var here = "", there = "", start = 0
            let golden = try Self.golden(of: output, in: dir, segments: { segments in
                for s in segments.indices {
                    guard var rect = segments[s]["pip"] as? [String: Int] else { continue }
                    here = try Self.words(rect)
                    start = try Self.int(segments[s]["outStartFrame"])
                    rect["x"] = width - (rect["x"] ?? 0) - (rect["width"] ?? 0)
                    segments[s]["pip"] = rect
                    there = try Self.words(rect)
                }
            })
            try #require(here != there)
            let result = try await PipctlProcess.run(["verify", output, "--expect", golden])
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains(
                "\n  picture in picture window 1 from output frame \(start): PiP window at \(here), the golden has it at \(there)\n"),
                    "\(result.standardOutput)")
        }

        /// An HLS render is compared with a golden as an MP4 is: its own timeline (and a copy of it with its event
        /// log) passes; a copy with the picture-in-picture window in the other corner fails naming the window.
        @Test func anHLSRenderPassesItsOwnGoldenAndFailsOneWithThePictureInPictureWindowMoved() async throws {
            let dir = try ScratchDirectory()
            let hls = try await Self.pipHLSRender
            let timeline = hls + "/timeline.json", events = hls + "/events.jsonl"
            let own = try await PipctlProcess.run(["verify", hls, "--expect", timeline], timeout: .seconds(300))
            #expect(own.exitStatus == 0, "\(own.standardOutput)\(own.standardError)")
            #expect(!own.standardOutput.contains("note: events not compared"), "\(own.standardOutput)")
            let copy = try Self.golden(timeline: timeline, events: events, in: dir)
            let same = try await PipctlProcess.run(["verify", hls + "/master.m3u8", "--expect", copy], timeout: .seconds(300))
            #expect(same.exitStatus == 0, "\(same.standardOutput)\(same.standardError)")

            let width = try Self.int(try Self.json(timeline)["output"].flatMap { ($0 as? [String: Any])?["width"] })
            var here = "", there = "", start = 0
            let moved = try ScratchDirectory()
            let golden = try Self.golden(timeline: timeline, events: events, in: moved, segments: { segments in
                for s in segments.indices {
                    guard var rect = segments[s]["pip"] as? [String: Int] else { continue }
                    here = try Self.words(rect)
                    start = try Self.int(segments[s]["outStartFrame"])
                    rect["x"] = width - (rect["x"] ?? 0) - (rect["width"] ?? 0)
                    segments[s]["pip"] = rect
                    there = try Self.words(rect)
                }
            })
            try #require(here != there)
            let result = try await PipctlProcess.run(["verify", hls, "--expect", golden], timeout: .seconds(300))
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains(
                "\n  picture in picture window 1 from output frame \(start): PiP window at \(here), the golden has it at \(there)\n"),
                    "\(result.standardOutput)")
        }

        @Test func aGoldenWithAChangedScreenLayerFailsNamingTheLayer() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.deviceRender
            var before = "", after = "", name = "", position = 0
            let golden = try Self.golden(of: output, in: dir, segments: { segments in
                var layers = try #require(segments[0]["layers"] as? [[String: Any]])
                position = try #require(layers.firstIndex { $0["kind"] as? String == "content" })
                name = "content of scene \"\(try #require(layers[position]["scene"] as? String))\""
                var rect = try #require(layers[position]["rect"] as? [String: Int])
                before = try Self.words(rect)
                rect["y"] = (rect["y"] ?? 0) + 8
                after = try Self.words(rect)
                layers[position]["rect"] = rect
                segments[0]["layers"] = layers
            })
            let result = try await PipctlProcess.run(["verify", output, "--expect", golden], timeout: .seconds(300))
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains(
                "\n  screen layer \(position + 1) from output frame 0, the \(name), is at \(before), the golden has it at \(after)\n"),
                    "\(result.standardOutput)")
            let others = try await PipctlProcess.run(["verify", output, "--expect", golden, "--expect-only", "frames,pip,events"],
                                                     timeout: .seconds(300))
            #expect(others.exitStatus == 0, "\(others.standardOutput)")
        }

        @Test func aGoldenWithAnEventChangedFailsNamingTheEvent() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.pipRender
            var number = 0, frame = 0
            let golden = try Self.golden(of: output, in: dir, events: { events in
                let types = events.map { $0["type"] as? String }.filter { $0 != "LOG" }
                let index = try #require(events.firstIndex { $0["type"] as? String == "PIP_DID_START" })
                number = try #require(types.firstIndex(of: "PIP_DID_START")) + 1
                frame = try Self.int(events[index]["frame"])
                events[index]["frame"] = frame + 2
            })
            let result = try await PipctlProcess.run(["verify", output, "--expect", golden])
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains(
                "\n  event \(number): PIP_DID_START at output frame \(frame), the golden has PIP_DID_START at output frame \(frame + 2)\n"),
                    "\(result.standardOutput)")
            let framesOnly = try await PipctlProcess.run(["verify", output, "--expect", golden, "--expect-only", "frames,pip,layers"])
            #expect(framesOnly.exitStatus == 0, "\(framesOnly.standardOutput)")
        }

        @Test func eventsAskedForWithoutAGoldenEventLogAreAProblemElseANote() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.pipRender
            let golden = dir.path("golden.json")
            try FileManager.default.copyItem(atPath: output + ".timeline.json", toPath: golden)
            let quiet = try await PipctlProcess.run(["verify", output, "--expect", golden])
            #expect(quiet.exitStatus == 0, "\(quiet.standardOutput)")
            #expect(quiet.standardOutput.contains("\n  note: events not compared with the golden: "), "\(quiet.standardOutput)")
            let asked = try await PipctlProcess.run(["verify", output, "--expect", golden, "--expect-only", "events"])
            #expect(asked.exitStatus == 1)
            #expect(asked.standardOutput.contains("\n  events not compared with the golden: "), "\(asked.standardOutput)")
        }

        @Test(arguments: [
            (["--expect-only", "pip"], "pipctl verify: --expect-only needs --expect GOLDEN"),
            (["--expect", "g.json", "--expect-only", "frames,corners"],
             "pipctl verify: --expect-only: \"corners\" is not one of: frames, pip, layers, events"),
        ])
        func aBadExpectOnlyIsAUsageError(arguments: [String], message: String) async throws {
            let result = try await PipctlProcess.run(["verify", "out.mp4"] + arguments)
            #expect(result.exitStatus == 2)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines.first == message, "\(result.errorLines)")
        }
    }
}
