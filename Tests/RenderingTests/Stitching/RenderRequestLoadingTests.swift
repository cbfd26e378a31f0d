import AdDecisioning
import AdScreen
import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// The library builds a render request from a session file (or content and its ads): one parse, one probe per
/// player, the ads loaded, and every input that cannot be used named by a typed error; an ads document that cannot be
/// loaded leaves its player without ads and says so, unless ads are strict.
@Suite struct RenderRequestLoadingTests {
    /// A session file `session.json` in `dir`: an iPhone 15 whose one scene, `feed`, plays `content` with `ads`;
    /// `extra` is more members of the top-level object (`"urlMap": …`), each followed by a comma.
    static func sessionFile(in dir: TemporaryDirectory, content: String, ads: String? = nil, extra: String = "") throws -> String {
        let player = ads.map { #"{"content": "\#(content)", "ads": "\#($0)"}"# } ?? #"{"content": "\#(content)"}"#
        return try dir.write("session.json", #"{\#(extra) "device": "iphone-15", "scenes": [{"id": "feed", "player": \#(player)}]}"#)
    }

    /// A one-ad VAST pre-roll of one second whose media file is `media`.
    static func vast(media: String) -> String {
        """
        <VAST version="4.1"><Ad id="a"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle>
          <Impression><![CDATA[https://track.example/imp]]></Impression>
          <Creatives><Creative><Linear><Duration>00:00:01</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(media)]]></MediaFile>
          </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
        """
    }

    /// Loading options that collect the warnings into `warnings`.
    static func loading(collecting warnings: LockedState<[RenderRequest.Warning]>) -> RenderRequest.Loading {
        var loading = RenderRequest.Loading()
        loading.warn = { warning in warnings.withLock { $0.append(warning) } }
        return loading
    }

    @Test func aSessionFileIsTheRequestOfItsPlayerWithItsAdsThroughItsOwnURLMap() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        // The ad tag and its media are remote URLs that the session's own URL map (relative to the session) finds.
        try dir.write("ads/vast.xml", Self.vast(media: "https://cdn.example/ad24.mp4"))
        try dir.write("ads.urlmap", "https://ads.example/\tads/\nhttps://cdn.example/\t\(media.directory)/\n")
        let file = try Self.sessionFile(in: dir, content: media.content.path, ads: "https://ads.example/vast.xml",
                                        extra: #""urlMap": "ads.urlmap","#)
        let warnings = LockedState<[RenderRequest.Warning]>([])
        let request = try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"), loading: Self.loading(collecting: warnings))
        #expect(request.content.path == media.content.path)
        #expect(request.output.path == dir.file("out.mp4"))
        #expect(request.device.screen?.device.name == "iphone-15")
        #expect(request.plan.errors.isEmpty, "\(request.plan.errors)")
        #expect(request.plan.breaks.flatMap(\.ads).map { $0.ad.selection?.localPath } == [media.ad24.path])
        #expect(request.device.players.isEmpty)
        #expect(warnings.withLock { $0 }.isEmpty)
        // The stitcher is handed the content's one probe.
        #expect(request.content.info?.path == media.content.path)
    }

    @Test func theCallersURLMapTakesThePlaceOfTheSessions() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        try dir.write("ads/vast.xml", Self.vast(media: "https://cdn.example/ad24.mp4"))
        try dir.write("bad.urlmap", "no tab on this line\n")
        let good = try dir.write("good.urlmap", "https://ads.example/\t\(dir.path)/ads/\nhttps://cdn.example/\t\(media.directory)/\n")
        let file = try Self.sessionFile(in: dir, content: media.content.path, ads: "https://ads.example/vast.xml",
                                        extra: #""urlMap": "bad.urlmap","#)
        var loading = RenderRequest.Loading()
        loading.urlMapFile = good
        let request = try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"), loading: loading)
        #expect(request.plan.errors.isEmpty, "\(request.plan.errors)")
        #expect(request.plan.breaks.flatMap(\.ads).map { $0.ad.selection?.localPath } == [media.ad24.path])
    }

    @Test func aMissingContentIsTheContentError() async throws {
        let dir = try TemporaryDirectory()
        // A relative content is the session's directory's.
        let file = try Self.sessionFile(in: dir, content: "missing.mp4")
        let error = await #expect(throws: RenderRequestError.self) {
            try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"))
        }
        #expect(error == .content(.fileNotFound(path: dir.file("missing.mp4"))))
        #expect(error?.description == "content: \(dir.file("missing.mp4")): no such file")
    }

    @Test func aBadURLMapIsTheURLMapErrorNamingItsLine() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        try dir.write("bad.urlmap", "# rules\nhttps://ads.example/ no tab\n")
        let file = try Self.sessionFile(in: dir, content: media.content.path, extra: #""urlMap": "bad.urlmap","#)
        let error = await #expect(throws: RenderRequestError.self) {
            try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"))
        }
        guard case .urlMap(.invalidURLMap(let map, let line, _))? = error else {
            Issue.record("a bad URL map gave \(String(describing: error))")
            return
        }
        #expect(map == dir.file("bad.urlmap"))
        #expect(line == 2)
    }

    @Test func anAdsDocumentThatCannotBeLoadedLeavesAPlanWithItsErrorAndAWarning() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        try dir.write("broken.xml", "<VAST version=\"4.1\"><Ad>")
        let file = try Self.sessionFile(in: dir, content: media.content.path, ads: "broken.xml")
        let warnings = LockedState<[RenderRequest.Warning]>([])
        let request = try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"), loading: Self.loading(collecting: warnings))
        let collected = warnings.withLock { $0 }
        guard collected.count == 1, case .adsNotLoaded(let error) = collected[0] else {
            Issue.record("warnings: \(collected)")
            return
        }
        #expect(error.code == .xmlParsing)
        #expect(error.message.contains(dir.file("broken.xml")), "\(error)")
        #expect(request.plan.breaks.isEmpty)
        #expect(request.plan.errors == [error.adError])
    }

    @Test func withStrictAdsAnAdsDocumentThatCannotBeLoadedIsTheAdsError() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        try dir.write("broken.xml", "<VAST version=\"4.1\"><Ad>")
        let file = try Self.sessionFile(in: dir, content: media.content.path, ads: "broken.xml")
        let warnings = LockedState<[RenderRequest.Warning]>([])
        var loading = Self.loading(collecting: warnings)
        loading.strictAds = true
        let error = await #expect(throws: RenderRequestError.self) {
            try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"), loading: loading)
        }
        guard case .ads(let failure)? = error else {
            Issue.record("strict ads gave \(String(describing: error))")
            return
        }
        #expect(failure.code == .xmlParsing)
        #expect(warnings.withLock { $0 }.isEmpty)
    }

    @Test func aSessionWithoutAPlayerIsRefusedNamingItsScenes() async throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("session.json", #"{"device": "iphone-15", "scenes": [{"id": "feed"}]}"#)
        let error = await #expect(throws: RenderRequestError.self) {
            try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"))
        }
        #expect(error == .sessionFile(SessionFileError(file: file, path: "scenes", "no scene has a player (its content)")))
        #expect(error?.description == "\(file): scenes: no scene has a player (its content)")
    }

    @Test func aSessionFileThatIsNotJSONIsTheSessionFileError() async throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("session.json", "{")
        let error = await #expect(throws: RenderRequestError.self) {
            try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"))
        }
        guard case .sessionFile(let failure)? = error else {
            Issue.record("a broken session file gave \(String(describing: error))")
            return
        }
        #expect(failure.file == file)
        #expect(failure.message.hasPrefix("not JSON"))
    }

    @Test func aContentStartOutsideTheContentIsRefused() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let file = try Self.sessionFile(in: dir, content: media.content.path)
        var loading = RenderRequest.Loading()
        loading.contentStart = MediaTime(seconds: 10)
        let error = await #expect(throws: RenderRequestError.self) {
            try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"), loading: loading)
        }
        guard case .contentStart(let start, let content, let duration)? = error else {
            Issue.record("a start at the end gave \(String(describing: error))")
            return
        }
        #expect(start == MediaTime(seconds: 10))
        #expect(content == media.content.path)
        #expect(duration.seconds == Rational(10))
        loading.contentStart = MediaTime(seconds: 4)
        let request = try await RenderRequest(sessionFile: file, output: dir.file("out.mp4"), loading: loading)
        #expect(request.content.start == MediaTime(seconds: 4))
    }

    @Test func eachOtherPlayerIsProbedAndPlannedInItsOwnScene() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let session = { (side: String) in
            try dir.write("session.json", """
                {"device": "ipad-11", "orientation": "landscape", "layout": "split 1/2", "scenes": [
                  {"id": "main", "state": "foregroundActive", "player": {"content": "\(media.content.path)"}},
                  {"id": "side", "player": {"content": "\(side)", "ads": "side.xml"}}]}
                """)
        }
        try dir.write("side.xml", Self.vast(media: media.ad25.path))
        let request = try await RenderRequest(sessionFile: try session(media.content25.path), output: dir.file("out.mp4"))
        #expect(request.device.players.map(\.scene) == ["side"])
        #expect(request.device.players.map(\.contentPath) == [media.content25.path])
        #expect(request.device.players.first?.plan.breaks.flatMap(\.ads).map { $0.ad.selection?.localPath } == [media.ad25.path])
        #expect(request.plan.breaks.isEmpty)

        let error = await #expect(throws: RenderRequestError.self) {
            try await RenderRequest(sessionFile: try session("side.mp4"), output: dir.file("out.mp4"))
        }
        #expect(error == .content(.fileNotFound(path: dir.file("side.mp4"))))
    }

    @Test func quickBreaksWithAMissingFileAreTheBreaksError() async throws {
        let media = try StampedMedia.shared
        let dir = try TemporaryDirectory()
        let breaks = [try QuickBreak(parsing: "2=\(dir.file("gone.mp4"))")]
        let error = await #expect(throws: RenderRequestError.self) {
            try await RenderRequest(content: media.content.path, ads: .breaks(breaks), output: dir.file("out.mp4"))
        }
        guard case .breaks(let failure)? = error else {
            Issue.record("a missing break file gave \(String(describing: error))")
            return
        }
        #expect(failure.isUserError)
        #expect(failure.message.contains("\(dir.file("gone.mp4")) does not exist"), "\(failure)")
        let request = try await RenderRequest(content: media.content.path, ads: .breaks([try QuickBreak(parsing: "2=\(media.ad24.path)")]),
                                              output: dir.file("out.mp4"))
        #expect(request.plan.breaks.count == 1)
        #expect(request.device.screen == nil)
    }
}
