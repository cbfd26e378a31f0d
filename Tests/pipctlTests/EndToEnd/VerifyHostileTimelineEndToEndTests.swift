import Foundation
import Testing

extension EndToEnd {
    /// `pipctl verify` handed a crafted timeline: one line naming the file and the JSON path, exit 2 (bad input, as
    /// `pipctl report` says it), at once; never a trap, an allocation the size of a number in the file, or minutes of work.
    @Suite struct VerifyHostileTimelineTests {
        /// How a test breaks the reference render's timeline (segments end at 60, 120, 180, 210, 330, 360).
        enum Crafted: String, CaseIterable, Sendable {
            case frames1e15, sampleRateZero, negativeTick, overlapping, outOfOrder, sixtyThousandSegments

            /// Edits the parsed JSON; a value of `placeholder` is written as the literal `1e15` afterwards.
            func apply(to timeline: inout [String: Any]) throws {
                var segments = try #require(timeline["segments"] as? [[String: Any]])
                var output = try #require(timeline["output"] as? [String: Any])
                switch self {
                case .frames1e15: segments[5]["outEndFrame"] = Crafted.placeholder
                case .sampleRateZero: output["sampleRate"] = 0
                case .negativeTick: segments[2]["srcStartTick"] = -3
                case .overlapping: segments[3]["outStartFrame"] = 170
                case .outOfOrder: segments.swapAt(3, 4)
                case .sixtyThousandSegments:
                    let template = segments[1]
                    segments = (0..<60_000).map { i in
                        var s = template
                        s["outStartFrame"] = i
                        s["outEndFrame"] = i + 1
                        s["srcStartTick"] = i
                        s["srcEndTick"] = i + 1
                        return s
                    }
                }
                timeline["segments"] = segments
                timeline["output"] = output
            }

            static let placeholder = 987_654_321_987

            var reason: String {
                switch self {
                case .frames1e15: "segments[5].outEndFrame: 1000000000000000 is more than the output's 360 frames"
                case .sampleRateZero: "output.sampleRate: 0 must be between 8000 and 192000 Hz"
                case .negativeTick: "segments[2].srcStartTick: -3 is negative"
                case .overlapping:
                    "segments[3].outStartFrame: 170 is not where segments[2] ends, 180 (segments overlap, leave a gap or are out of order)"
                case .outOfOrder:
                    "segments[3].outStartFrame: 210 is not where segments[2] ends, 180 (segments overlap, leave a gap or are out of order)"
                case .sixtyThousandSegments: "segments: 60000 segments are more than the output's 360 frames"
                }
            }
        }

        @Test(arguments: Crafted.allCases)
        func aCraftedTimelineIsOneLineNamingItsJSONPathAndExit2(_ crafted: Crafted) async throws {
            let dir = try ScratchDirectory()
            let output = try await RenderVerifyTests.reference + "/out.mp4"
            var timeline = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            try crafted.apply(to: &timeline)
            let text = String(decoding: try JSONSerialization.data(withJSONObject: timeline), as: UTF8.self)
                .replacingOccurrences(of: String(Crafted.placeholder), with: "1e15")
            let edited = try dir.write(text, to: "crafted.json")

            let result = try await PipctlProcess.run(["verify", output, "--timeline", edited])
            #expect(result.exitStatus == 2)
            #expect(!result.endedBySignal)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines == ["pipctl verify: \(edited): \(crafted.reason)"])
        }
    }
}
