@testable import AdDecisioning
import Foundation
import LoopbackServer
import MediaCore
import Testing

extension SerialDecisioningTests {
    /// VMAP breaks resolve at the same time under one decision deadline, and a cancelled load stops at once,
    /// against a real server on 127.0.0.1 whose slow routes never answer.
    @Suite struct DecisionDeadlineTests {
        /// A VMAP of mid-rolls at 1 s, 2 s, … whose AdTagURIs are `paths`, in order.
        static func vmap(_ base: String, _ paths: [String]) -> String {
            let breaks = paths.enumerated().map { i, path in
                """
                <vmap:AdBreak timeOffset="00:\(Self.twoDigits((i + 1) / 60)):\(Self.twoDigits((i + 1) % 60)).000" breakType="linear" breakId="b\(i)">
                <vmap:AdSource id="s\(i)"><vmap:AdTagURI templateType="vast4"><![CDATA[\(base)\(path)]]></vmap:AdTagURI></vmap:AdSource>
                </vmap:AdBreak>
                """
            }
            return "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\">\(breaks.joined())</vmap:VMAP>"
        }

        static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

        static func settings(decisionTimeout: Duration?) -> AdsLoaderSettings {
            var s = AdsLoaderSettings()
            s.firstRequestTimeout = .seconds(8)
            s.wrapperTimeout = .seconds(8)
            s.decisionTimeout = decisionTimeout
            return s
        }

        @Test func hangingAdTagURIsCostOneDeadlineNotOneEach() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/hang", .hang)
            server.route("/good.xml", .xml(VASTText.document(VASTText.inline(id: "good"))))
            // Twenty hanging tags: one deadline each, in turn, would take 20 s; their own timeouts 30 s. The bound
            // below is generous (load stretches the one deadline) and far from 20 s.
            let hanging = (1...20).map { "?\($0)" }
            server.route("/vmap.xml", .xml(Self.vmap(base, ["/hang?1", "/good.xml", "/hang?2", "/hang?3", "/good.xml?again"]
                                                            + (4...20).map { "/hang?\($0)" })))
            var settings = Self.settings(decisionTimeout: .seconds(1))
            settings.firstRequestTimeout = .seconds(30)
            settings.wrapperTimeout = .seconds(30)
            let cpuBefore = ProcessCPU.seconds()
            let start = ContinuousClock.now
            let result = try await AdsLoader(settings: settings)
                .load(AdsRequest(adTag: "\(base)/vmap.xml", contentDuration: MediaDuration(seconds: 30)))
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(950), "not before the deadline: \(elapsed)")
            #expect(elapsed < SanitizerSlack.time(.seconds(10)), "one 1 s deadline for all, not 20 s of one each: \(elapsed)")
            // The process's CPU time: meaningful because the suite is serialized and scripts/test runs it alone.
            let cpu = ProcessCPU.seconds() - cpuBefore
            #expect(cpu < 0.2, "waiting 1 s on hanging tags cost \(cpu) s of CPU")
            // The two breaks that answered play; the six that hung fail with 301, naming their URL.
            #expect(result.plan.breaks.map(\.position) == [.midroll(MediaTime(seconds: 2)), .midroll(MediaTime(seconds: 5))])
            #expect(result.plan.errors.map(\.code) == Array(repeating: .wrapperTimeout, count: 20))
            #expect(result.plan.errors.map(\.message) == hanging.map {
                "loading \(base)/hang\($0) was stopped: the decision deadline of 1 s passed"
            })
        }

        @Test func eachRequestKeepsItsOwnTimeoutWithinTheDeadline() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/hang", .hang)
            let names = (0..<20).map { "n\($0)" }
            server.route("/vmap.xml", .xml(Self.vmap(base, names.map { "/hang?\($0)" })))
            var settings = Self.settings(decisionTimeout: .seconds(60))
            settings.firstRequestTimeout = .seconds(1)
            let start = ContinuousClock.now
            let result = try await AdsLoader(settings: settings)
                .load(AdsRequest(adTag: "\(base)/vmap.xml", contentDuration: MediaDuration(seconds: 30)))
            // Twenty timeouts of 1 s, eight breaks at a time (`maximumConcurrentBreaks`): about 3 s, not 20 s in turn
            // (nor the 60 s deadline). A generous bound, far from 20 s.
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < SanitizerSlack.time(.seconds(12)), "twenty 1 s timeouts eight at a time, not 20 s in turn: \(elapsed)")
            #expect(result.plan.errors.map(\.message) == names.map { "loading \(base)/hang?\($0) timed out after 1 s" })
        }

        @Test func theDeadlineCoversTheAdTagItself() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/hang", .hang)
            let url = server.baseURL.absoluteString + "/hang"
            await #expect(throws: DecisioningError.decisionDeadline(source: url, timeout: .milliseconds(300))) {
                _ = try await AdsLoader(settings: Self.settings(decisionTimeout: .milliseconds(300))).load(AdsRequest(adTag: url))
            }
        }

        @Test(.timeLimit(.minutes(2))) func cancellingTheLoadStopsItAtOnce() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/hang", .hang)
            let url = server.baseURL.absoluteString + "/hang"
            // An hour's timeout and no deadline: only the cancel can end the load (the time limit is the bound).
            var settings = Self.settings(decisionTimeout: nil)
            settings.firstRequestTimeout = .seconds(3600)
            let task = Task { [settings] in try await AdsLoader(settings: settings).load(AdsRequest(adTag: url)) }
            while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            task.cancel()
            await #expect(throws: DecisioningError.cancelled(source: url)) { _ = try await task.value }
        }
    }
}
