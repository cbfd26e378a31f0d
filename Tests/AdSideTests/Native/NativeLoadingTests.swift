@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// Loading a slider from a loopback ad server: phases as events, failure kinds, bounded retries, the origin rule.
@Suite struct NativeLoadingTests {
    static func json(_ text: String, status: Int = 200) -> LoopbackHTTPServer.Response {
        LoopbackHTTPServer.Response(status: status, contentType: "application/json", body: Data(text.utf8))
    }

    static func run(_ script: String, source: String, maximumRetries: Int = 3, settings: AdsLoaderSettings = AdsLoaderSettings(),
                    afterEachLoad: @escaping (Int) -> Void = { _ in }) async throws -> NativeScreenRun.Outcome {
        let run = try NativeScreenRun(screen: NativeSliderRunTests.screen(),
                                      placements: [NativePlacement(id: "feed", scene: "main", source: source, maximumRetries: maximumRetries)],
                                      script: try SessionScript(parsing: script), frameRate: NativeSliderRunTests.rate,
                                      end: MediaTime(seconds: 4), measurer: MonospaceTextMeasurer())
        let loader = NativeAdLoader(settings: settings)
        var count = 0
        return await run.run { placement throws(NativeError) in
            defer { count += 1; afterEachLoad(count) }
            return try await loader.load(placement.source).block
        }
    }

    static func phases(_ outcome: NativeScreenRun.Outcome) -> [String] {
        outcome.events.compactMap { e in
            switch e.kind {
            case .moment(.loadPhase(let phase)): "\(phase)@\(e.time.seconds)"
            case .moment(.failed(let failure?, _)): "onAdFailure(\(failure))@\(e.time.seconds)"
            case .moment(.loaded): "onAdLoad@\(e.time.seconds)"
            case .refused: "refused@\(e.time.seconds)"
            default: nil
            }
        }
    }

    @Test func nothingLoadsWithoutALoadCommand() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/slider", Self.json(NativeSliderRunTests.five))
        let outcome = try await Self.run("swipe left@1", source: server.baseURL.absoluteString + "/slider")
        #expect(server.requests.isEmpty)
        #expect(Self.phases(outcome) == ["idle@0", "refused@1"])
        #expect(outcome.layers(at: MediaTime(seconds: 2)).isEmpty)
    }

    @Test func aFailedLoadIsRetriedByTheNextLoadAndSucceeds() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/slider", Self.json("busy", status: 503))
        let outcome = try await Self.run("load slider@0; load slider@1", source: server.baseURL.absoluteString + "/slider") { _ in
            server.route("/slider", Self.json(NativeSliderRunTests.five))
        }
        #expect(server.requests(for: "/slider").count == 2)
        #expect(Self.phases(outcome) == ["idle@0", "loading@0", "failed@0", "onAdFailure(httpError)@0", "loading@1", "loaded@1", "onAdLoad@1"])
        let failure = try #require(outcome.events.first { $0.type == .onAdFailure })
        #expect(failure.columns.message?.contains("/slider") == true)
        #expect(failure.columns.message?.contains("503") == true)
        // Native ads are OpenRTB Native, not VAST: the message says what failed, with no VAST error code.
        #expect(failure.columns.message == "native response: cannot load \(server.baseURL.absoluteString)/slider: HTTP status 503",
                "\(failure.columns.message ?? "")")
    }

    @Test func pastMaxRetriesALoadIsRefusedWithTheReasonAndNotSent() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/slider", Self.json("{", status: 200))
        let outcome = try await Self.run("load slider@0; load slider@1; load slider@2", source: server.baseURL.absoluteString + "/slider",
                                         maximumRetries: 1)
        #expect(server.requests(for: "/slider").count == 2)
        #expect(Self.phases(outcome) == ["idle@0", "loading@0", "failed@0", "onAdFailure(invalidResponse)@0",
                                         "loading@1", "failed@1", "onAdFailure(invalidResponse)@1", "refused@2"])
        #expect(outcome.events.last { $0.columns.reason == .refused }?.columns.message == "load slider: 2 loads failed; maxRetries 1 allows no more retries")
    }

    @Test func aTimeoutAndNoFillAreTheirOwnFailureKinds() async throws {
        let server = try LoopbackHTTPServer()
        server.route("/hang", .hang)
        server.route("/empty", Self.json(#"{"ver":"1.2","ads":[]}"#))
        var settings = AdsLoaderSettings()
        settings.firstRequestTimeout = .milliseconds(300)
        let hung = try await Self.run("load slider@0", source: server.baseURL.absoluteString + "/hang", settings: settings)
        #expect(hung.events.first { $0.type == .onAdFailure }?.columns.native.failure == .timeout)
        let empty = try await Self.run("load slider@0", source: server.baseURL.absoluteString + "/empty")
        #expect(empty.events.first { $0.type == .onAdFailure }?.columns.native.failure == .noFill)
        server.stop()
    }

    @Test func aNewRequestIsANewPlacementState() throws {
        var states = NativeLoadStates(maximumRetries: 0)
        try states.begin("https://a.example/?w=393", placement: "feed")
        states.finish("https://a.example/?w=393", succeeded: false)
        #expect(throws: NativeError.loadRefused(placement: "feed", reason: "1 loads failed; maxRetries 0 allows no more retries")) {
            try states.begin("https://a.example/?w=393", placement: "feed")
        }
        #expect(states.state(for: "https://a.example/?w=734").phase == .idle)
        try states.begin("https://a.example/?w=734", placement: "feed")
        #expect(states.state(for: "https://a.example/?w=734").phase == .loading)
        #expect(throws: NativeError.loadRefused(placement: "feed", reason: "a load is already under way")) {
            try states.begin("https://a.example/?w=734", placement: "feed")
        }
    }

    @Test func aRemoteResponseMayNotNameLocalFilesSoItsRequiredImageFailsBinding() async throws {
        let server = try LoopbackHTTPServer()
        let card = NativeFixtures.card("a0").replacingOccurrences(of: #""id":3,"img""#, with: #""id":3,"required":1,"img""#)
            .replacingOccurrences(of: "https://img.example/a0.png", with: "file:///etc/passwd")
            .replacingOccurrences(of: "https://t.example/imp/a0", with: "file:///etc/hosts")
        server.route("/slider", Self.json(NativeFixtures.slider([card])))
        let url = server.baseURL.absoluteString + "/slider"
        let result = try await NativeAdLoader().load(url)
        #expect(result.block.ads[0].asset(.media)?.refusal?.contains("may not reference the local file /etc/passwd") == true)
        #expect(result.block.ads[0].impressionTrackers.isEmpty)
        #expect(result.warnings.count == 2)
        let outcome = try await Self.run("load slider@0", source: url)
        let failure = try #require(outcome.events.first { $0.type == .onAdBindingFailure })
        #expect(failure.card == 0)
        #expect(failure.columns.message?.hasPrefix("required asset id 3 (img main) was dropped: 'file:///etc/passwd' refused: ") == true)
    }

    @Test func aLocalResponseResolvesRelativeImagesAgainstItsFolder() async throws {
        let folder = try TemporaryDirectory()
        let card = NativeFixtures.card("a0").replacingOccurrences(of: "https://img.example/a0.png", with: "images/a0.png")
        let path = try folder.write("slider.json", NativeFixtures.slider([card]))
        let result = try await NativeAdLoader().load(path)
        #expect(result.block.ads[0].asset(.media)?.content == .image(kind: .main, url: folder.file("images/a0.png"), size: PointSize(width: 1200, height: 627)))
        #expect(result.warnings.isEmpty)
    }

    /// `play` hands its outputs to the loader: an image a live response names that is one of them (by identity, so
    /// through any spelling) is not read, but is a failure naming the file and why, as an image that cannot be fetched.
    @Test func anImageThatIsAForbiddenFileIsNotReadButFails() async throws {
        let folder = try TemporaryDirectory()
        let output = try folder.write("out.mkv.events.jsonl", Data(contentsOf: URL(fileURLWithPath: SizedCreativeServer.image(
            in: folder, "a0.png", PointSize(width: 1200, height: 627)))))
        let card = NativeFixtures.card("a0").replacingOccurrences(of: "https://img.example/a0.png", with: "out.mkv.events.jsonl")
            .replacingOccurrences(of: "https://img.example/a0-icon.png", with: "a0.png")
        var loader = NativeAdLoader()
        let result = try await loader.load(try folder.write("slider.json", NativeFixtures.slider([card])))
        #expect(await loader.fetchImages(of: [result.block]).images.keys.sorted() == [folder.file("a0.png"), output])
        loader.forbiddenFiles = [FileIdentity.Named("--record", folder.file("out.mkv")),
                                 FileIdentity.Named("the event log", folder.file("./out.mkv.events.jsonl"))]
        let fetched = await loader.fetchImages(of: [result.block])
        #expect(fetched.images.keys.sorted() == [folder.file("a0.png")])
        #expect(fetched.failures == ["\(output): refused: it is the output the event log \(folder.file("./out.mkv.events.jsonl"))"])
    }
}
