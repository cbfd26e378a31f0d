import AdDecisioning
import Foundation
import LoopbackServer
import Testing

extension EndToEnd {
    /// Ad responses from strangers: a deep XML document, bodies that never end or inflate past the cap, and
    /// documents fetched over http(s) that name the user's files. No crash, bounded memory, nothing local reached.
    @Suite struct HostileInputTests {
        /// Peak memory allowed to a run that is fed a body past its cap (a render of the 320x180 test content
        /// peaks near 70 MB; the bodies below are 48 MiB and more).
        static let memoryBound = SanitizerSlack.bytes(100 * 1_000_000)

        /// A VAST document 60 000 elements deep (about 350 KB): `<VAST><Ad><x><x>…`.
        static let deepVAST: String = {
            let inner = 60_000 - 2
            return "<VAST version=\"4.2\"><Ad id=\"deep\">" + String(repeating: "<x>", count: inner)
                + String(repeating: "</x>", count: inner) + "</Ad></VAST>"
        }()

        static func inline(id: String, media: String, base: String) -> String {
            """
            <VAST version="4.2"><Ad id="\(id)"><InLine><AdSystem>e2e</AdSystem><AdTitle>\(id)</AdTitle>
              <Error>\(base)/error?code=[ERRORCODE]&amp;asset=[ASSETURI]</Error>
              <Creatives><Creative><Linear><Duration>00:00:02</Duration>
                <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="240">\(media)</MediaFile></MediaFiles>
              </Linear></Creative></Creatives>
            </InLine></Ad></VAST>
            """
        }

        static func adErrors(_ output: String) throws -> [[String: Any]] {
            try RemoteMediaTests.events(output + ".events.jsonl").filter { $0["type"] as? String == "AD_ERROR" }
        }

        @Test func aSixtyThousandDeepVASTFailsAdsInspectWithError100AndNoCrash() async throws {
            let dir = try ScratchDirectory()
            let file = try dir.write(Self.deepVAST, to: "deep.xml")
            #expect(Self.deepVAST.utf8.count > 340_000)
            let result = try await PipctlProcess.run(["ads", "inspect", file])
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 1, "\(result.standardError)")
            #expect(result.standardError.contains("VAST error 100: \(file) nests elements more than 256 deep (line 1); refused"),
                    "\(result.standardError)")
        }

        @Test func aSixtyThousandDeepVASTBehindAWrapperFailsOnlyThatAdInARender() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/top.xml", .xml("""
                <VAST version="4.2"><Ad id="top"><Wrapper><AdSystem>e2e</AdSystem>
                  <VASTAdTagURI>\(base)/deep.xml</VASTAdTagURI></Wrapper></Ad></VAST>
                """))
            server.route("/deep.xml", .xml(Self.deepVAST))
            let dir = try ScratchDirectory()
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--ads", "\(base)/top.xml",
                                                      "-o", output, "--preset", "ultrafast"])
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let errors = try Self.adErrors(output)
            #expect(errors.map { $0["code"] as? Int } == [100])
            #expect((errors.first?["message"] as? String)?.contains("\(base)/deep.xml nests elements more than 256 deep") == true, "\(errors)")
        }

        @Test func anEndlessVASTBodyIsRefusedAtTheDocumentCapWithLittleMemory() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            // No length, 1 MiB at a time as fast as the client reads: endless as far as a 16 MiB cap can tell.
            server.route("/endless.xml", LoopbackHTTPServer.Response(body: Data(repeating: 0x20, count: 48 << 20),
                                                                     delivery: .drip(chunk: 1 << 20, interval: .zero)))
            let url = server.baseURL.absoluteString + "/endless.xml"
            let dir = try ScratchDirectory()
            let result = try await PeakMemory.run(["ads", "inspect", url], in: dir)
            #expect(result.exitStatus == 1, "\(result.standardError)")
            #expect(result.standardError.contains("VAST error 100: \(url) is larger than the limit of 16777216 bytes (16 MiB); the download was stopped there"),
                    "\(result.standardError)")
            #expect(result.peakBytes < Self.memoryBound, "peak RSS \(result.peakBytes) bytes")
        }

        @Test func aGzipBombVASTIsRefusedAtTheDocumentCapWithLittleMemory() async throws {
            // 256 MiB of spaces compressed by gzip(1) to a few hundred KB; libcurl inflates it as it arrives.
            let bomb = try Self.gzip(Data(repeating: 0x20, count: 256 << 20))
            #expect(bomb.count < 1_000_000)
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/bomb.xml", LoopbackHTTPServer.Response(body: bomb, headers: ["Content-Encoding": "gzip"]))
            let url = server.baseURL.absoluteString + "/bomb.xml"
            let dir = try ScratchDirectory()
            let result = try await PeakMemory.run(["ads", "inspect", url], in: dir)
            #expect(result.exitStatus == 1, "\(result.standardError)")
            #expect(result.standardError.contains("VAST error 100: \(url) is larger than the limit of 16777216 bytes"), "\(result.standardError)")
            #expect(result.peakBytes < Self.memoryBound, "peak RSS \(result.peakBytes) bytes")
        }

        @Test func mediaPastMaxMediaBytesFailsItsAdWith401WithLittleMemory() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/vast.xml", .xml(Self.inline(id: "big", media: "\(base)/big.mp4", base: base)))
            server.route("/big.mp4", LoopbackHTTPServer.Response(contentType: "video/mp4", body: Data(repeating: 0, count: 160 << 20),
                                                                 delivery: .drip(chunk: 1 << 20, interval: .zero)))
            let dir = try ScratchDirectory()
            let output = dir.path("out.mp4")
            let result = try await PeakMemory.run(["render", "--content", try await TestClip.content.path, "--ads", "\(base)/vast.xml",
                                                   "-o", output, "--preset", "ultrafast", "--media-cache", dir.path("cache"),
                                                   "--max-media-bytes", "\(128 << 20)"], in: dir)
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(try Self.adErrors(output).map { $0["code"] as? Int } == [401])
            #expect(result.peakBytes < Self.memoryBound, "peak RSS \(result.peakBytes) bytes")
        }

        @Test func aRemoteVASTsFileMediaIsRefusedWith403AndItsErrorBeaconCarriesNoPath() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            let local = try await TestClip.adA.path
            server.route("/vast.xml", .xml(Self.inline(id: "local", media: "file://" + local, base: base)))
            server.route("/error", LoopbackHTTPServer.Response(status: 204, contentType: "image/gif"))
            let dir = try ScratchDirectory()
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--ads", "\(base)/vast.xml",
                                                      "-o", output, "--preset", "ultrafast", "--send-beacons"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("ads: 0 played, 0 skipped, 1 failed"), "\(result.standardOutput)")
            let errors = try Self.adErrors(output)
            #expect(errors.map { $0["code"] as? Int } == [403])
            #expect((errors.first?["message"] as? String)?.contains("local file refused") == true, "\(errors)")
            // The ad server hears the code, never the path.
            #expect(server.requests(for: "/error").map(\.target) == ["/error?code=403&asset=-1"])
        }

        @Test func allowLocalMediaPlaysAFileInsideItsFolderAndRefusesASymlinkOutOfIt() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            let dir = try ScratchDirectory()
            let allowed = try dir.subdirectory("allowed")
            try FileManager.default.copyItem(atPath: try await TestClip.adA.path, toPath: allowed + "/ad.mp4")
            try FileManager.default.createSymbolicLink(atPath: allowed + "/escape.mp4", withDestinationPath: try await TestClip.adB.path)
            server.route("/inside.xml", .xml(Self.inline(id: "inside", media: "file://\(allowed)/ad.mp4", base: base)))
            server.route("/escape.xml", .xml(Self.inline(id: "escape", media: "file://\(allowed)/escape.mp4", base: base)))
            for (name, code) in [("inside", nil), ("escape", 403)] as [(String, Int?)] {
                let output = dir.path("\(name).mp4")
                let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--ads", "\(base)/\(name).xml",
                                                          "-o", output, "--preset", "ultrafast", "--allow-local-media", allowed])
                #expect(result.exitStatus == 0, "\(name): \(result.standardError)")
                #expect(try Self.adErrors(output).map { $0["code"] as? Int } == (code.map { [$0] } ?? []), "\(name)")
            }
            let missing = try await PipctlProcess.run(["ads", "inspect", "\(base)/inside.xml", "--allow-local-media", dir.path("nowhere")])
            #expect(missing.exitStatus == 2)
            #expect(missing.standardError.contains("--allow-local-media: \(dir.path("nowhere")) is not a directory"), "\(missing.standardError)")
        }

        @Test func aRemoteWrapperToALocalFileFailsWith301WithoutReadingIt() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            let dir = try ScratchDirectory()
            let local = try dir.write(Self.inline(id: "local", media: try await TestClip.adA.path, base: base), to: "local.xml")
            server.route("/top.xml", .xml("""
                <VAST version="4.2"><Ad id="top"><Wrapper><AdSystem>e2e</AdSystem>
                  <VASTAdTagURI>file://\(local)</VASTAdTagURI></Wrapper></Ad></VAST>
                """))
            let result = try await PipctlProcess.run(["ads", "inspect", "\(base)/top.xml", "--json"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            #expect((report["breaks"] as? [Any])?.isEmpty == true)
            let errors = try #require(report["errors"] as? [[String: Any]])
            #expect(errors.map { $0["code"] as? Int } == [301])
            #expect((errors.first?["message"] as? String)?.contains("may not reference the local file \(local)") == true, "\(errors)")
        }

        @Test func aURLMapEscapeIsRefusedNotFetched() async throws {
            let dir = try ScratchDirectory()
            _ = try dir.write("secret", to: "secret.mp4")
            let served = try dir.subdirectory("served")
            let map = try dir.write("https://cdn.pipctl.example/media/\t\(served)/\n", to: "escape.urlmap")
            let vast = try dir.write(Self.inline(id: "escape", media: "https://cdn.pipctl.example/media/..%2fsecret.mp4",
                                                 base: "https://track.pipctl.example"), to: "vast.xml")
            let result = try await PipctlProcess.run(["ads", "inspect", vast, "--url-map", map, "--json"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let text = result.standardOutput
            #expect(text.contains("--url-map refuses https://cdn.pipctl.example/media/..%2fsecret.mp4"), "\(text)")
            #expect(!text.contains(dir.path("secret.mp4")))
        }

        /// `data` compressed by the system's gzip(1).
        static func gzip(_ data: Data) throws -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/gzip")
            process.arguments = ["-c", "-9"]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let writer = Thread { input.fileHandleForWriting.write(data); try? input.fileHandleForWriting.close() }
            writer.start()
            let compressed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return compressed
        }
    }
}
