import Foundation
import MediaCore
import Testing
@testable import AdCore

/// Reading a session file into a `ScreenSession`: the screen, placements and player it gives, and errors that
/// name the JSON path of the value.
@Suite struct ScreenSessionFileTests {
    static func read(_ json: String) throws(SessionFileError) -> ScreenSession {
        try ScreenSession(sessionFile: Data(json.utf8), file: "/s/session.json")
    }

    static func error(_ json: String) -> String? {
        do { _ = try read(json); return nil } catch { return error.description }
    }

    @Test func readsTheScenesTheirPlacementsAndThePlayerWhoseSceneComesFirst() throws {
        let session = try Self.read("""
        {"device": "ipad-11", "orientation": "landscape", "testMode": true, "layout": "split 1/3",
         "scenes": [{"id": "side", "state": "foregroundActive", "interstitial": {"source": "vast:http://h/i?w=[WIDTH]", "setsScene": false}},
                    {"id": "main", "player": {"content": "c.mp4", "ads": "ads.xml"}, "banner": {"source": "http://h/b.png"}}],
         "script": ["split 1/2@1", "present interstitial side@2"]}
        """)
        #expect(session.screen.scenes.map(\.id) == ["main", "side"])
        #expect(session.screen.arrangement == .split(leading: "side", trailing: "main", .oneThird))
        #expect(session.screen.activeScene == "side" && session.screen.orientation == .landscape && session.testMode)
        #expect(session.banners == [BannerPlacement(scene: "main", source: .image(AdRequestTemplate("http://h/b.png")))])
        #expect(session.fullScreenAds == [FullScreenPlacement(scene: "side", source: .vast(AdRequestTemplate("http://h/i?w=[WIDTH]")), setsScene: false)])
        #expect(session.player == ScreenSession.Player(scene: "main", content: "c.mp4", ads: "ads.xml"))
        #expect(session.resolved("c.mp4") == "/s/c.mp4" && session.resolved("/x/c.mp4") == "/x/c.mp4")
        #expect(session.script == "split 1/2@1\npresent interstitial side@2")
    }

    @Test func everySceneMayHaveAPlayerAndTheFirstIsThePrimary() throws {
        let session = try Self.read("""
        {"device": "ipad-11", "orientation": "landscape", "layout": "split 1/2",
         "scenes": [{"id": "side", "banner": {"source": "b.png"}},
                    {"id": "left", "player": {"content": "l.mp4", "ads": "pre.xml"}},
                    {"id": "right", "player": {"content": "r.mp4", "ads": "vmap.xml"}}]}
        """)
        #expect(session.players == [ScreenSession.Player(scene: "left", content: "l.mp4", ads: "pre.xml"),
                                    ScreenSession.Player(scene: "right", content: "r.mp4", ads: "vmap.xml")])
        #expect(session.player == session.players.first)
        // The primary player's scene comes first; the layout keeps the order the file gave.
        #expect(session.screen.scenes.map(\.id) == ["left", "side", "right"])
        #expect(session.screen.arrangement == .split(leading: "side", trailing: "left", .half))
    }

    @Test func theCommandLineShortcutsAreAOneSceneSession() {
        let session = ScreenSession.oneScene(device: .iPhone15, banner: "b.xml", testMode: true)
        #expect(session.screen == ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)]))
        #expect(session.banners == [BannerPlacement(scene: "main", source: .vast(AdRequestTemplate("b.xml")))] && session.testMode)
    }

    @Test func everyErrorNamesItsJSONPath() {
        let player = #"{"id": "a", "player": {"content": "c.mp4"}}"#
        #expect(Self.error("[]") == "/s/session.json: not an object")
        #expect(Self.error(#"{"scenes": []}"#) == "/s/session.json: device: is missing")
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [\#(player), {"id": "b", "banner": {"source": 3}}]}"#)
            == "/s/session.json: scenes[1].banner.source: not a string")
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [\#(player), {"id": "a"}]}"#)
            == "/s/session.json: scenes[1].id: \"a\" names an earlier scene too")
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [\#(player), {"id": "b", "player": {"ads": "d.xml"}}]}"#)
            == "/s/session.json: scenes[1].player.content: is missing")
        #expect(Self.error(#"{"device": "iphone-15", "layout": "split 1/2", "scenes": [\#(player), {"id": "b"}]}"#)
            == "/s/session.json: layout: \"split 1/2\": device \"iphone-15\" shows one scene at a time")
        #expect(Self.error(#"{"device": "ipad-11", "layout": "full", "scenes": [\#(player), {"id": "b", "state": "foregroundInactive"}]}"#)
            == "/s/session.json: scenes[1].state: scene \"b\" is not on screen in this layout")
        #expect(Self.error(#"{"device": "ipad-11", "testMode": 1, "scenes": [\#(player)]}"#) == "/s/session.json: testMode: not true or false")
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [{"id": "a", "banner": {"source": "b.png", "size": 1}}]}"#)?
            .hasPrefix("/s/session.json: scenes[0].banner.size: unknown key") == true)
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [{"id": "a", "interstitial": {"source": "x", "kind": "popup"}}]}"#)
            == "/s/session.json: scenes[0].interstitial.kind: \"popup\" is not one of \"interstitial\", \"appOpen\", \"rewarded\"")
    }
}

/// The examples in docs/SESSION.md are session files pipctl reads.
@Suite struct SessionDocumentationTests {
    @Test func everyJSONExampleInTheSessionPageIsASessionFile() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs")
        let page = try String(contentsOf: docs.appendingPathComponent("SESSION.md"), encoding: .utf8)
        let blocks = page.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 4)
        for block in blocks {
            #expect(throws: Never.self) { _ = try ScreenSession(sessionFile: Data(block.utf8), file: "SESSION.md") }
        }
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: docs.appendingPathComponent("session.schema.json"))) is [String: Any])
    }
}

/// The bundled `media/multiwindow.session.json` does what the README says: the side scene's interstitial is reloaded
/// when Split View 1/3 makes it too large, then presented and dismissed; the banner is reloaded on each new width.
@Suite struct MultiwindowSessionTests {
    @Test func theInterstitialIsReloadedAfterTheSplitThenPresentedAndTheBannerFollowsTheWidth() async throws {
        let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("media")
        let file = media.appendingPathComponent("multiwindow.session.json").path
        let session = try ScreenSession(sessionFile: Data(contentsOf: URL(fileURLWithPath: file)), file: file)
        #expect(session.player?.scene == "main" && session.screen.arrangement == .split(leading: "side", trailing: "main", .half))
        let run = try await session.loadAds(script: try SessionScript(parsing: try #require(session.script)),
                                            settings: AdsLoaderSettings())
        func seconds(_ type: SessionEventType, _ scene: SceneID) -> [Rational] {
            run.events.filter { $0.type == type && $0.scene == scene }.map(\.time.seconds)
        }
        #expect(seconds(.adDidLoad, "side") == [Rational(0), Rational(8)])
        #expect(run.events.contains { $0.time == MediaTime(seconds: 8) && $0.reason == .adTooLargeForWindow && $0.type == .log })
        #expect(seconds(.adWillPresentFullScreenContent, "side") == [Rational(10)])
        #expect(seconds(.adDidDismissFullScreenContent, "side") == [Rational(13)])
        #expect(seconds(.bannerViewDidReceiveAd, "main") == [Rational(0), Rational(8), Rational(16)])
    }
}
