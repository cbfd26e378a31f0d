import AdDecisioning
import Foundation
import Testing

extension EndToEnd {
    /// `pipctl ads inspect` on the bundled demo and on documents that fail.
    @Suite struct AdsInspectTests {
        static let media = PipctlProcess.repositoryRoot.appendingPathComponent("media")

        @Test func inspectsTheDemoVMAPOfflineAsJSON() async throws {
            let result = try await PipctlProcess.run([
                "ads", "inspect", Self.media.appendingPathComponent("demo-vmap.xml").path,
                "--url-map", Self.media.appendingPathComponent("demo.urlmap").path, "--content-duration", "60", "--json",
            ])
            #expect(result.exitStatus == 0)
            #expect(result.standardError.isEmpty)
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            #expect(report["kind"] as? String == "vmap")
            #expect((report["errors"] as? [Any])?.isEmpty == true)
            let breaks = try #require(report["breaks"] as? [[String: Any]])
            #expect(breaks.map { $0["position"] as? String } == ["preroll", "midroll", "midroll", "postroll"])
            #expect(breaks.map { $0["offset"] as? Int } == [0, 20, 40, 60])
            let ads = breaks.map { ($0["ads"] as? [[String: Any]]) ?? [] }
            #expect(ads.map { $0.map { $0["id"] as? String } } == [["ad5"], ["ad10", "ad15"], ["ad30"], ["ad5-post"]])
            let expectedFiles = [["ad5"], ["ad10", "ad15"], ["ad30"], ["ad5"]]
            for (breakAds, files) in zip(ads, expectedFiles) {
                #expect(breakAds.map { ($0["mediaFile"] as? [String: Any])?["localPath"] as? String }
                        == files.map { Self.media.appendingPathComponent("\($0).mp4").path })
            }
            // Only the ad30 break comes through a wrapper, which names the inline document it points to.
            let wrappers = ads.map { $0.map { ($0["wrappers"] as? [[String: Any]]) ?? [] } }
            #expect(wrappers.map { $0.map(\.count) } == [[0], [0, 0], [1], [0]])
            let wrapper = try #require(wrappers[2].first?.first)
            #expect(wrapper["tagURI"] as? String == "https://ads.pipctl.example/demo-inline.xml")
            #expect((wrapper["source"] as? String)?.hasPrefix("https://ads.pipctl.example/demo-wrapper.xml") == true)
        }

        /// A VMAP of three breaks (`start`, `50%`, `end`), each one inline ad of a local MP4.
        static func threeBreakVMAP() -> String {
            let breaks = [("start", "pre"), ("50%", "half"), ("end", "post")].map { offset, id in
                """
                  <vmap:AdBreak timeOffset="\(offset)" breakType="linear" breakId="\(id)">
                    <vmap:AdSource id="\(id)-source"><vmap:VASTAdData>
                      <VAST version="4.2"><Ad id="\(id)-ad"><InLine><AdSystem>test</AdSystem><AdTitle>\(id)</AdTitle>
                        <Impression>https://track.example/\(id)</Impression>
                        <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
                          <MediaFile delivery="progressive" type="video/mp4" width="640" height="360">ad.mp4</MediaFile>
                        </MediaFiles></Linear></Creative></Creatives>
                      </InLine></Ad></VAST>
                    </vmap:VASTAdData></vmap:AdSource>
                  </vmap:AdBreak>
                """
            }
            return """
            <?xml version="1.0" encoding="UTF-8"?>
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
            \(breaks.joined(separator: "\n"))
            </vmap:VMAP>

            """
        }

        @Test func aPostRollsOffsetIsTheContentDurationWhenItIsGiven() async throws {
            let dir = try ScratchDirectory()
            _ = try dir.write("placeholder", to: "ad.mp4")
            let file = try dir.write(Self.threeBreakVMAP(), to: "breaks.xml")
            let result = try await PipctlProcess.run(["ads", "inspect", file, "--content-duration", "1800", "--json"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            let breaks = try #require(report["breaks"] as? [[String: Any]])
            #expect(breaks.map { $0["position"] as? String } == ["preroll", "midroll", "postroll"])
            #expect(breaks.map { $0["offset"] as? Double } == [0, 900, 1800])

            // Without the content's duration a post-roll has no offset yet: null, not a guess.
            let unknown = try await PipctlProcess.run(["ads", "inspect", file, "--json"])
            #expect(unknown.exitStatus == 0, "\(unknown.standardError)")
            let unknownReport = try #require(try JSONSerialization.jsonObject(with: unknown.standardOutputData) as? [String: Any])
            let post = try #require((unknownReport["breaks"] as? [[String: Any]])?.first { $0["position"] as? String == "postroll" })
            #expect(post["offset"] is NSNull)
        }

        @Test func aNoFillResponseIsAnEmptyPlanWithError303() async throws {
            let dir = try ScratchDirectory()
            let file = try dir.write("<?xml version=\"1.0\"?>\n<VAST version=\"4.2\"/>\n", to: "nofill.xml")
            let result = try await PipctlProcess.run(["ads", "inspect", file, "--json"])
            #expect(result.exitStatus == 0)
            #expect(result.standardError.isEmpty)
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            #expect((report["breaks"] as? [Any])?.isEmpty == true)
            let errors = try #require(report["errors"] as? [[String: Any]])
            #expect(errors.map { $0["code"] as? Int } == [303])
            #expect((errors.first?["message"] as? String)?.contains("nofill.xml") == true)
        }

        @Test(arguments: [
            ("hello\nthis is not XML <<<\n", 1),
            ("<?xml version=\"1.0\"?>\n<VAST version=\"4.2\">\n<Ad>\n</VAST>\n", 4),
        ])
        func aDocumentThatIsNotXMLFailsWithCode100AndTheLine(text: String, line: Int) async throws {
            let dir = try ScratchDirectory()
            let file = try dir.write(text, to: "broken.xml")
            let result = try await PipctlProcess.run(["ads", "inspect", file])
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines.count == 1)
            let message = try #require(result.errorLines.first)
            #expect(message.hasPrefix("pipctl ads inspect: VAST error 100: \(file) is not well-formed XML: line \(line): "),
                    "\(message)")
        }
    }
}
