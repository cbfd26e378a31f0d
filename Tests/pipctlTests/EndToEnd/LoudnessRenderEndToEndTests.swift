import AdDecisioning
import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `render --loudness`: content at −23 LUFS and an ad at −14 LUFS (stamped clips from `pipctl testsrc`, brought
    /// to those levels by the ffmpeg tool), the output's ad measured by the ffmpeg tool's own `ebur128` filter (an
    /// independent reader), and `verify`'s loudness check.
    @Suite struct LoudnessRenderTests {
        /// A stamped clip of `seconds` whose sound is brought to `lufs` by the ffmpeg tool (its video copied).
        static func clip(_ id: String, seconds: Int, tone: Int, lufs: Double) async throws -> String {
            try await SharedArtifacts.shared.path(of: "loudness-\(id).mp4") { path in
                let raw = path + ".raw.mp4"
                let made = try await PipctlProcess.run(["testsrc", "-o", raw, "--duration", "\(seconds)", "--size", "320x180",
                                                         "--fps", "30", "--sample-rate", "48000", "--channels", "2",
                                                         "--id", id, "--tone", "\(tone)", "--preset", "ultrafast"])
                guard made.exitStatus == 0 else { throw SharedArtifacts.Failure(description: made.standardError) }
                let measured = try ffmpegFigures(raw).integrated
                try FFmpegCommand.run(["-i", raw, "-c:v", "copy", "-af", "volume=\(lufs - measured)dB", "-c:a", "aac",
                                       "-b:a", "256k", path])
            }
        }

        static var content: String { get async throws { try await clip("quiet", seconds: 8, tone: 440, lufs: -23) } }
        static var loudAd: String { get async throws { try await clip("loud", seconds: 4, tone: 880, lufs: -14) } }
        static var shortAd: String { get async throws { try await clip("brief", seconds: 2, tone: 1320, lufs: -14) } }

        /// The ffmpeg tool's integrated loudness and true peak of `path`'s sound, samples `[from, to)` when given.
        static func ffmpegFigures(_ path: String, samples: Range<Int64>? = nil) throws -> (integrated: Double, truePeak: Double) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FFmpegCommand.path)
            let trim = samples.map { "atrim=start_sample=\($0.lowerBound):end_sample=\($0.upperBound)," } ?? ""
            process.arguments = ["-hide_banner", "-nostats", "-i", path, "-vn", "-af", trim + "ebur128=peak=true", "-f", "null", "-"]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let summary = try #require(text.range(of: "Summary:").map { String(text[$0.upperBound...]) }, "\(text)")
            func figure(_ label: String) throws -> Double {
                let line = try #require(summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) })
                return try #require(Double(line.split(separator: " ").dropFirst().first { Double($0) != nil } ?? ""))
            }
            return (try figure("I:"), try figure("Peak:"))
        }

        /// The output samples of the segments of `kind` (`ad`/`content`) in the timeline (the first run of them).
        static func samples(of kind: String, timeline: [String: Any]) throws -> Range<Int64> {
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            let mine = segments.filter { $0["kind"] as? String == kind }
            let first = try #require(mine.first)
            let start = try #require(first["outStartFrame"] as? Int)
            var end = try #require(first["outEndFrame"] as? Int)
            for s in mine.dropFirst() where s["outStartFrame"] as? Int == end { end = s["outEndFrame"] as? Int ?? end }
            let clock = SampleClock(sampleRate: 48000, frameRate: FrameRate(30))
            return clock.sample(atFrame: Int64(start))..<clock.sample(atFrame: Int64(end))
        }

        static func json(_ path: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        }

        static func events(_ path: String) throws -> [[String: Any]] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        static func render(_ dir: ScratchDirectory, ad: String, _ extra: [String]) async throws -> PipctlResult {
            try await PipctlProcess.run(["render", "--content", try await content, "--break", "3=\(ad)",
                                         "-o", dir.path("out.mp4"), "--preset", "ultrafast"] + extra)
        }

        /// The issue's check: by default (ads present) the ad is brought to the content's −23 LUFS, as the ffmpeg
        /// tool measures the ad's segment of the output, and no sample passes −1 dBTP; verify agrees.
        @Test func anAdAtMinus14IsBroughtToTheContentsMinus23() async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(dir, ad: try await Self.loudAd, [])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            let ad = try Self.ffmpegFigures(dir.path("out.mp4"), samples: try Self.samples(of: "ad", timeline: timeline))
            #expect(abs(ad.integrated - -23) <= 1, "the ad's segment reads \(ad.integrated) LUFS")
            #expect(ad.truePeak <= -1, "the ad's segment peaks at \(ad.truePeak) dBTP")
            let loudness = try #require(timeline["loudness"] as? [String: Any])
            #expect(loudness["target"] as? String == "content")
            let sources = try #require(loudness["sources"] as? [[String: Any]])
            let adRecord = try #require(sources.first { $0["break"] as? Int == 0 })
            #expect(adRecord["measure"] as? String == "integrated")
            #expect(abs((adRecord["gain"] as? Double ?? 0) - -9) < 0.5, "\(adRecord)")
            #expect(adRecord["limited"] as? Bool == false)
            #expect(sources.first { $0["break"] == nil }?["gain"] as? Double == 0)

            let verify = try await PipctlProcess.run(["verify", dir.path("out.mp4")])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
            #expect(verify.standardOutput.contains("loudness: break 0 ad 0"), "\(verify.standardOutput)")
            let json = try await PipctlProcess.run(["verify", "--json", dir.path("out.mp4")])
            let report = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any])
            let checked = try #require((report["loudness"] as? [String: Any])?["segments"] as? [[String: Any]])
            #expect(checked.count == 1)
            let measured = try #require(checked.first?["measured"] as? Double), target = try #require(checked.first?["target"] as? Double)
            #expect(abs(measured - target) <= 1 && checked.first?["ok"] as? Bool == true, "\(checked)")
            #expect(abs(measured - ad.integrated) <= 0.2, "verify reads \(measured), ffmpeg \(ad.integrated) LUFS")
        }

        /// The limiter's ceiling leaves room for the AAC encoder: the bundled `ad5.mp4` played six times, each play
        /// on another alignment to the encoder's frames, raised to −11 LUFS so that the limiter holds its peaks at
        /// the ceiling, reads at most −1 dBTP in every play as the ffmpeg tool measures the output (1024 samples clear
        /// of the cuts, as verify measures). At 128 kbit/s under a −1.5 dBTP ceiling, a play read −0.4 dBTP.
        @Test func aLimitedAdStaysUnderMinusOneDBTPAfterTheEncoderAtEveryAlignment() async throws {
            let dir = try ScratchDirectory()
            let ad = PipctlProcess.repositoryRoot.appendingPathComponent("media/ad5.mp4").path
            let breaks = (1...6).flatMap { ["--break", "\($0)=\(ad)"] }
            let result = try await PipctlProcess.run(["render", "--content", try await Self.content, "--loudness", "-11",
                                                      "-o", dir.path("out.mp4"), "--preset", "ultrafast"] + breaks)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            let sources = try #require((timeline["loudness"] as? [String: Any])?["sources"] as? [[String: Any]])
            #expect(sources.filter { $0["break"] != nil && $0["limited"] as? Bool == true }.count == 6, "\(sources)")
            let segments = try #require(timeline["segments"] as? [[String: Any]]).filter { $0["kind"] as? String == "ad" }
            try #require(segments.count == 6)
            let clock = SampleClock(sampleRate: 48000, frameRate: FrameRate(30))
            for segment in segments {
                let start = clock.sample(atFrame: Int64(try #require(segment["outStartFrame"] as? Int)))
                let end = clock.sample(atFrame: Int64(try #require(segment["outEndFrame"] as? Int)))
                let peak = try Self.ffmpegFigures(dir.path("out.mp4"), samples: (start + 1024)..<(end - 1024)).truePeak
                #expect(peak <= -1, "break \(segment["break"] ?? "?"): \(peak) dBTP")
            }
            let verify = try await PipctlProcess.run(["verify", dir.path("out.mp4")])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
        }

        /// A video interstitial's sound replaces the paused content's, so it is brought to the content's loudness as
        /// a linear ad is, by default (the session's only ad is full-screen): the timeline records it by its request
        /// and scene, the event log says why its gain is large, and the ffmpeg tool reads the span it covers at
        /// −23 ±1 LUFS, under −1 dBTP. Before, it played at its own −14 LUFS.
        @Test func aVideoInterstitialsSoundIsBroughtToTheContentsLoudness() async throws {
            let dir = try ScratchDirectory()
            try FileManager.default.copyItem(atPath: try await Self.content, toPath: dir.path("content.mp4"))
            try FileManager.default.copyItem(atPath: try await Self.loudAd, toPath: dir.path("ad.mp4"))
            _ = try dir.write("""
                <VAST version="4.2"><Ad><InLine><AdSystem>e2e</AdSystem><AdTitle>loud interstitial</AdTitle>
                <Impression><![CDATA[http://127.0.0.1:9/impression]]></Impression>
                <Creatives><Creative><Linear><Duration>00:00:04</Duration>
                <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[ad.mp4]]></MediaFile></MediaFiles>
                </Linear></Creative></Creatives></InLine></Ad></VAST>
                """, to: "vast.xml")
            _ = try dir.write("""
                {"device": "iphone-15", "orientation": "landscape",
                 "scenes": [{"id": "main", "player": {"content": "content.mp4"}, "interstitial": {"source": "vast:vast.xml", "kind": "interstitial"}}],
                 "script": ["present interstitial main@2", "dismiss main@6.5"]}
                """, to: "session.json")
            let result = try await PipctlProcess.run(["render", "--session", dir.path("session.json"), "-o", dir.path("out.mp4"),
                                                      "--preset", "ultrafast", "--media-cache", dir.path("cache")])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            let loudness = try #require(timeline["loudness"] as? [String: Any], "no loudness in \(timeline.keys)")
            #expect(loudness["target"] as? String == "content")
            let sources = try #require(loudness["sources"] as? [[String: Any]])
            let record = try #require(sources.first { $0["fullScreen"] != nil }, "\(sources)")
            #expect((record["fullScreen"] as? [String: Any])?["scene"] as? String == "main", "\(record)")
            #expect(record["break"] == nil && (record["source"] as? String)?.hasSuffix("ad.mp4") == true, "\(record)")
            #expect(abs((record["gain"] as? Double ?? 0) - -9) < 0.5, "\(record)")
            // The span the video covers (from 2 s for its 4 s), a packet clear of each cut.
            let covered = try Self.ffmpegFigures(dir.path("out.mp4"), samples: (2 * 48000 + 1024)..<(6 * 48000 - 1024))
            #expect(abs(covered.integrated - -23) <= 1, "the interstitial's span reads \(covered.integrated) LUFS")
            #expect(covered.truePeak <= -1, "the interstitial's span peaks at \(covered.truePeak) dBTP")
            let logs = try Self.events(dir.path("out.mp4.events.jsonl")).filter { $0["reason"] as? String == "loudnessGainLarge" }
            #expect(logs.isEmpty, "a gain of 9 dB is not large: \(logs)")

            // Verify measures the span the interstitial covered, as it does a linear ad's play.
            let verify = try await PipctlProcess.run(["verify", "--json", dir.path("out.mp4")])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: verify.standardOutputData) as? [String: Any])
            let checked = try #require((report["loudness"] as? [String: Any])?["segments"] as? [[String: Any]])
            let play = try #require(checked.first { $0["fullScreen"] != nil }, "\(checked)")
            #expect(play["outStartFrame"] as? Int == 60 && play["ok"] as? Bool == true, "\(play)")
            #expect(abs((play["measured"] as? Double ?? 0) - covered.integrated) <= 0.3, "verify \(play), ffmpeg \(covered.integrated) LUFS")
            // A record whose target was edited fails, naming the full-screen ad.
            var edited = timeline
            var records = sources
            records[try #require(records.firstIndex { $0["fullScreen"] != nil })]["target"] = -10.0
            var editedLoudness = loudness
            editedLoudness["sources"] = records
            edited["loudness"] = editedLoudness
            try JSONSerialization.data(withJSONObject: edited).write(to: URL(fileURLWithPath: dir.path("out.mp4.timeline.json")))
            let failed = try await PipctlProcess.run(["verify", dir.path("out.mp4")])
            #expect(failed.exitStatus == 1, "\(failed.standardOutput)")
            #expect(failed.standardOutput.contains("loudness: the full-screen ad of request 0 over scene \"main\" (frames 60–"),
                    "\(failed.standardOutput)")
        }

        /// Content with a channel count other than 1, 2 or 6 (FFmpeg's 2.1 and 7.1 here) renders normalised by
        /// default, and verify measures its ad; both used to stop at "no BS.1770 channel map".
        @Test(arguments: [3, 8])
        func contentOfAnyChannelCountIsNormalised(channels: Int) async throws {
            let dir = try ScratchDirectory()
            let made = try await PipctlProcess.run(["testsrc", "-o", dir.path("content.mp4"), "--duration", "4", "--size", "320x180",
                                                     "--fps", "30", "--channels", "\(channels)", "--id", "c\(channels)", "--tone", "440",
                                                     "--preset", "ultrafast"])
            try #require(made.exitStatus == 0, "\(made.standardError)")
            let result = try await PipctlProcess.run(["render", "--content", dir.path("content.mp4"), "--break", "2=\(try await Self.loudAd)",
                                                      "-o", dir.path("out.mp4"), "--preset", "ultrafast"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            #expect((timeline["output"] as? [String: Any])?["channels"] as? Int == channels)
            let sources = try #require((timeline["loudness"] as? [String: Any])?["sources"] as? [[String: Any]])
            #expect(sources.count == 2 && sources.allSatisfy { $0["measured"] is Double }, "\(sources)")
            let verify = try await PipctlProcess.run(["verify", dir.path("out.mp4")])
            #expect(verify.exitStatus == 0 && verify.standardOutput.contains("loudness: break 0 ad 0"), "\(verify.standardOutput)")
        }

        /// A number brings the content and the ad to it; a gain over 10 dB (−14 → −26) gets a `LOG` line.
        @Test func aNumberBringsEverySourceToItAndALargeGainIsLogged() async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(dir, ad: try await Self.loudAd, ["--loudness", "-26"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            let ad = try Self.ffmpegFigures(dir.path("out.mp4"), samples: try Self.samples(of: "ad", timeline: timeline))
            let content = try Self.ffmpegFigures(dir.path("out.mp4"), samples: try Self.samples(of: "content", timeline: timeline))
            #expect(abs(ad.integrated - -26) <= 1, "ad \(ad.integrated) LUFS")
            #expect(abs(content.integrated - -26) <= 1, "content \(content.integrated) LUFS")
            #expect((timeline["loudness"] as? [String: Any])?["target"] as? Double == -26)
            let logs = try Self.events(dir.path("out.mp4.events.jsonl")).filter { $0["reason"] as? String == "loudnessGainLarge" }
            #expect(logs.count == 1, "\(logs)")
            #expect(logs.first?["type"] as? String == "LOG" && logs.first?["break"] as? Int == 0)
        }

        /// A boost that would pass full scale (−23 → −8 LUFS, +15 dB on a tone with a click every second) is held
        /// under −1 dBTP by the limiter, as the ffmpeg tool reads the output, and the timeline says it acted.
        @Test func aLargeBoostIsLimitedUnderMinusOneDBTP() async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(dir, ad: try await Self.loudAd, ["--loudness", "-8"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            let content = try Self.ffmpegFigures(dir.path("out.mp4"), samples: try Self.samples(of: "content", timeline: timeline))
            #expect(content.truePeak <= -1, "the content peaks at \(content.truePeak) dBTP")
            let sources = try #require((timeline["loudness"] as? [String: Any])?["sources"] as? [[String: Any]])
            let record = try #require(sources.first { $0["break"] == nil })
            #expect(record["limited"] as? Bool == true, "\(record)")
            #expect(record["truePeak"] is Double, "\(record)")
        }

        /// `off` leaves the sound as it was: the ad's segment keeps its −14 LUFS and the timeline has no records.
        @Test func offLeavesTheSoundAsItWas() async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(dir, ad: try await Self.loudAd, ["--loudness", "off"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            #expect(timeline["loudness"] == nil)
            let ad = try Self.ffmpegFigures(dir.path("out.mp4"), samples: try Self.samples(of: "ad", timeline: timeline))
            #expect(abs(ad.integrated - -14) <= 0.5, "ad \(ad.integrated) LUFS")
            let verify = try await PipctlProcess.run(["verify", "--json", dir.path("out.mp4")])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)")
            let report = try #require(try JSONSerialization.jsonObject(with: verify.standardOutputData) as? [String: Any])
            #expect(report["loudness"] == nil)
        }

        /// An ad under 3 s is measured by its momentary loudness, and the render says so (timeline and `LOG`).
        @Test func aShortAdIsMeasuredByItsMomentaryLoudness() async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(dir, ad: try await Self.shortAd, [])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            let sources = try #require((timeline["loudness"] as? [String: Any])?["sources"] as? [[String: Any]])
            let adRecord = try #require(sources.first { $0["break"] as? Int == 0 })
            #expect(adRecord["measure"] as? String == "momentary", "\(adRecord)")
            let logs = try Self.events(dir.path("out.mp4.events.jsonl")).filter { $0["reason"] as? String == "loudnessShortSource" }
            #expect(logs.count == 1 && logs.first?["break"] as? Int == 0, "\(logs)")
        }

        /// With `--passthrough`, the content's sound (0 dB) is still copied and the ad's (−9 dB) encoded, and the
        /// summary says why.
        @Test func passthroughEncodesTheGainedAdsSoundAndSaysWhy() async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(dir, ad: try await Self.loudAd, ["--passthrough", "on"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("passthrough: ad 0 of break 0: sound encoded, not copied: its loudness gain is -9."),
                    "\(result.standardOutput)")
            #expect(result.standardOutput.contains("AAC packets copied"), "\(result.standardOutput)")
            #expect(!result.standardOutput.contains("passthrough: content: sound encoded"), "\(result.standardOutput)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            let ad = try Self.ffmpegFigures(dir.path("out.mp4"), samples: try Self.samples(of: "ad", timeline: timeline))
            #expect(abs(ad.integrated - -23) <= 1, "ad \(ad.integrated) LUFS")
        }

        /// Verify measures the output itself: a timeline whose ad target was edited to −10 LUFS fails, naming the
        /// segment, the measured and the target values.
        @Test func verifyFailsOnAWrongTarget() async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(dir, ad: try await Self.loudAd, [])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            var timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            var loudness = try #require(timeline["loudness"] as? [String: Any])
            var sources = try #require(loudness["sources"] as? [[String: Any]])
            let i = try #require(sources.firstIndex { $0["break"] as? Int == 0 })
            sources[i]["target"] = -10.0
            loudness["sources"] = sources
            timeline["loudness"] = loudness
            try JSONSerialization.data(withJSONObject: timeline).write(to: URL(fileURLWithPath: dir.path("out.mp4.timeline.json")))
            let verify = try await PipctlProcess.run(["verify", dir.path("out.mp4")])
            #expect(verify.exitStatus == 1, "\(verify.standardOutput)")
            let line = verify.standardOutput.split(separator: "\n").first { $0.contains("loudness: break 0 ad 0") }
            #expect(line?.contains("target -10.0 LUFS") == true && line?.contains("integrated -2") == true, "\(verify.standardOutput)")
        }

        /// Verify's report of `out.mp4` as JSON, and its exit status.
        static func verifyJSON(_ dir: ScratchDirectory) async throws -> (status: Int32, report: [String: Any], text: String) {
            let verify = try await PipctlProcess.run(["verify", "--json", dir.path("out.mp4")], timeout: .seconds(300))
            let report = try #require(try JSONSerialization.jsonObject(with: verify.standardOutputData) as? [String: Any],
                                      "\(verify.standardError)")
            return (verify.exitStatus, report, verify.standardOutput + verify.standardError)
        }

        /// The loudness check of verify's JSON report for the ad of break 0.
        static func adCheck(_ report: [String: Any]) throws -> [String: Any] {
            let segments = try #require((report["loudness"] as? [String: Any])?["segments"] as? [[String: Any]], "\(report)")
            return try #require(segments.first { $0["break"] as? Int == 0 }, "\(segments)")
        }

        /// An ad of the loud clip with its sound at `volume` dB plus a DC offset of `dc` (full scale 1), or cut to
        /// `seconds` (its picture and its sound), made by the ffmpeg tool.
        static func variant(_ dir: ScratchDirectory, _ name: String, volume: Double = 0, dc: Double = 0,
                            seconds: Double? = nil) async throws -> String {
            let path = dir.path(name + ".mp4")
            let cut = seconds.map { ["-t", "\($0)"] } ?? []
            _ = try FFmpegCommand.run(["-v", "error", "-y", "-i", try await loudAd] + cut + ["-c:v", "copy",
                                       "-af", "volume=\(volume)dB,aeval=val(0)+\(dc)|val(1)+\(dc):c=same", "-c:a", "aac", "-b:a", "256k", path])
            return path
        }

        /// A DC offset is not heard (BS.1770's K-weighting removes it), so the gain is computed without it; but it
        /// is in every sample, so the true-peak limiter sees it and holds the whole ad down: +19 dB on an ad whose
        /// DC then stood near full scale left it 15.8 LU under its target, and verify failed the render. The render
        /// now measures what the limiter left (`reached`), and verify checks that.
        @Test func aDCOffsetAdIsCheckedAtTheLoudnessTheLimiterLeft() async throws {
            let dir = try ScratchDirectory()
            let ad = try await Self.variant(dir, "dc", volume: -20, dc: 0.5)
            let result = try await Self.render(dir, ad: ad, [])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try Self.json(dir.path("out.mp4.timeline.json"))
            let sources = try #require((timeline["loudness"] as? [String: Any])?["sources"] as? [[String: Any]])
            let record = try #require(sources.first { $0["break"] as? Int == 0 })
            let target = try #require(record["target"] as? Double), reached = try #require(record["reached"] as? Double, "\(record)")
            #expect(record["limited"] as? Bool == true)
            #expect(reached < target - 5, "\(record)")
            let verify = try await Self.verifyJSON(dir)
            #expect(verify.status == 0, "\(verify.text)")
            let check = try Self.adCheck(verify.report)
            #expect(check["reached"] as? Double == reached)
            #expect(abs((check["measured"] as? Double ?? 0) - reached) <= 1, "\(check)")
        }

        /// A target at full scale cannot be met under the ceiling: the limiter holds the ad down, the timeline says
        /// how far, and verify checks that; −60, the lowest target accepted, verifies as it is.
        @Test(arguments: ["0", "-60"])
        func theEndsOfTheTargetRangeVerify(target: String) async throws {
            let dir = try ScratchDirectory()
            let result = try await Self.render(dir, ad: try await Self.loudAd, ["--loudness", target])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let verify = try await Self.verifyJSON(dir)
            #expect(verify.status == 0, "\(verify.text)")
            let check = try Self.adCheck(verify.report)
            #expect((check["reached"] != nil) == (target == "0"), "\(check)")
        }

        /// An ad whose sound lasts a tenth of a second is measured by its momentary loudness from its first sample,
        /// as the render measured it (verify used to leave its first 1024 samples out, a fifth of it); a play that
        /// short (3 frames) has no true peak of its own to judge, only its cuts' ringing.
        @Test func aTenthOfASecondVerifies() async throws {
            let dir = try ScratchDirectory()
            let ad = try await Self.variant(dir, "brief", seconds: 0.1)
            let result = try await Self.render(dir, ad: ad, [])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let verify = try await Self.verifyJSON(dir)
            #expect(verify.status == 0, "\(verify.text)")
            let check = try Self.adCheck(verify.report)
            #expect(check["truePeak"] == nil, "\(check)")
        }

        @Test(arguments: ["loud", "5", "-80", "-70", "-60.5", "nan", ""])
        func aBadLoudnessIsOneLineAndExitTwo(value: String) async throws {
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run(["render", "--content", try await Self.content, "--loudness", value,
                                                      "-o", dir.path("out.mp4")])
            #expect(result.exitStatus == 2)
            let first = result.standardError.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("pipctl render: --loudness: "), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
        }
    }
}
