import Foundation
import LoopbackServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `render` against ad servers that fail: the content plays without the ads that could not be had, unless
    /// `--strict-ads`; the wrapper options of `ads inspect` work on `render` too; Ctrl-C during decisioning stops
    /// at once.
    @Suite struct DecisioningTests {
        @Test func anAdsDocumentThatCannotBeFetchedPlaysTheContentWithoutAds() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let url = server.baseURL.absoluteString + "/missing.xml"
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--ads", url,
                                                      "-o", dir.path("out.mp4"), "--preset", "ultrafast"])
            #expect(result.exitStatus == 0)
            #expect(result.errorLines.contains(
                "pipctl render: warning: --ads: VAST error 301: cannot load \(url): HTTP status 404; playing the content without these ads (--strict-ads makes this an error)"))
            let events = try String(contentsOfFile: dir.path("out.mp4.events.jsonl"), encoding: .utf8)
            #expect(events.contains(#""type":"AD_ERROR","time":0,"frame":0,"contentTime":0,"code":301,"message":"cannot load \#(url): HTTP status 404""#))
            #expect(dir.entries().contains("out.mp4"))
        }

        /// docs/SECURITY.md: a remote document's non-http(s) beacon is dropped with one warning in `ads inspect` and
        /// one `LOG` in the render's event log.
        @Test func aRefusedTrackingURLOfARemoteDocumentIsLoggedWhereTheRenderDropsIt() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/empty.xml", .xml(#"<VAST version="4.2"><Error>file:///tmp/err?c=[ERRORCODE]</Error></VAST>"#))
            let dir = try ScratchDirectory()
            let url = server.baseURL.absoluteString + "/empty.xml"
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--ads", url,
                                                      "-o", dir.path("out.mp4"), "--preset", "ultrafast"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let events = try String(contentsOfFile: dir.path("out.mp4.events.jsonl"), encoding: .utf8)
            let logged = events.split(separator: "\n").filter { $0.contains(#""reason":"originPolicy""#) }
            #expect(logged.count == 1, "\(events)")
            #expect(logged.first?.contains(#""type":"LOG","time":0,"frame":0"#) == true, "\(events)")
            #expect(logged.first?.contains("\(url): 'file:///tmp/err?c=[ERRORCODE]' dropped") == true, "\(events)")
        }

        @Test func strictAdsMakesItAFailureThatWritesNothing() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/garbage.xml", .xml("this is not XML"))
            let dir = try ScratchDirectory()
            let url = server.baseURL.absoluteString + "/garbage.xml"
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--ads", url,
                                                      "-o", dir.path("out.mp4"), "--strict-ads"])
            #expect(result.exitStatus == 1)
            #expect(result.errorLines.count == 1)
            #expect(result.errorLines.first?.hasPrefix("pipctl render: VAST error 100: \(url) is not well-formed XML: line 1") == true)
            #expect(dir.entries() == [])
        }

        @Test func renderTakesTheWrapperLimitOfAdsInspect() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            let wrapper = """
                <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>t</AdSystem><VASTAdTagURI>\(base)/inline.xml</VASTAdTagURI>
                <Error>\(base)/err?code=[ERRORCODE]</Error><Impression>\(base)/imp</Impression></Wrapper></Ad></VAST>
                """
            server.route("/wrapper.xml", .xml(wrapper))
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path,
                                                      "--ads", "\(base)/wrapper.xml", "--max-wrappers", "0",
                                                      "-o", dir.path("out.mp4"), "--preset", "ultrafast"])
            #expect(result.exitStatus == 0)
            let events = try String(contentsOfFile: dir.path("out.mp4.events.jsonl"), encoding: .utf8)
            #expect(events.contains(#""type":"AD_ERROR","time":0,"frame":0,"contentTime":0,"code":302"#))
            #expect(events.contains("err?code=302"))
            // The wrapper was read; the document it points to never was.
            #expect(server.requests.map(\.target) == ["/wrapper.xml"])
        }

        @Test(arguments: [SIGINT, SIGTERM])
        func aSignalDuringDecisioningStopsAtOnce(signal: Int32) async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/hang", .hang)
            let dir = try ScratchDirectory()
            let render = try PipctlProcess(["render", "--content", try await TestClip.content.path,
                                            "--ads", server.baseURL.absoluteString + "/hang", "-o", dir.path("out.mp4"),
                                            "--decision-timeout", "3600"])
            try await waitUntil("pipctl render has asked for its ads") { !server.requests.isEmpty }
            render.send(signal)
            // The deadline is an hour: only the signal can end the wait (the watchdog is a bound against a hang).
            let result = try await render.result(timeout: .seconds(300))
            #expect(!result.endedBySignal)
            #expect(result.exitStatus == 128 + signal)
            #expect(result.errorLines == ["pipctl render: \(signal == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)")"])
            #expect(dir.entries() == [])
        }
    }
}
