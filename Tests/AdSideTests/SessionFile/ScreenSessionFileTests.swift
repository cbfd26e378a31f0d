@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

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

    /// A feed: the player at the top of the safe area, `height` points tall across its width; the rest of the
    /// window is the scene's to fill (native placements). Rotated, it keeps its height within the new safe area.
    @Test func aPlayerWithAHeightSitsAtTheTopOfTheSafeArea() throws {
        let session = try Self.read("""
        {"device": "iphone-15", "scenes": [{"id": "feed", "player": {"content": "c.mp4", "height": 221}}]}
        """)
        func content(_ screen: ScreenState) -> PixelRect? { screen.layers().first { $0.kind == .content }?.rect }
        // iPhone 15: 393 x 852 pt at 3/2 px per point, its safe area 59 pt from the top: 88.5 → 88 px, 221 pt → 332 px.
        #expect(content(session.screen) == PixelRect(x: 0, y: 88, width: 590, height: 332))
        // Landscape: the safe area is 59 pt in from each side and 21 pt short at the bottom; 221 pt still fit.
        var rotated = session.screen
        _ = try rotated.apply(.rotate(.landscape))
        let layout = try #require(rotated.sceneLayouts.first)
        #expect(rotated.playerFrame(of: layout) == PointRect(x: 59, y: 0, width: 734, height: 221))
        // Without a height the player fills the window, as before.
        let full = try Self.read(#"{"device": "iphone-15", "scenes": [{"id": "feed", "player": {"content": "c.mp4"}}]}"#)
        #expect(content(full.screen) == PixelRect(x: 0, y: 0, width: 590, height: 1278))
        #expect(Self.error(#"{"device": "iphone-15", "scenes": [{"id": "a", "player": {"content": "c.mp4", "height": 0}}]}"#)
            == "/s/session.json: scenes[0].player.height: 0 is not in 1…10000")
    }

    @Test func aSessionKnowsWhichScenesHaveAPlayer() throws {
        let two = try Self.read(#"{"device": "ipad-11", "layout": "split 1/2", "scenes": [{"id": "side", "interstitial": {"source": "i.png"}}, {"id": "main", "player": {"content": "c.mp4"}}]}"#)
        #expect(two.playerScenes == ["main"])
        #expect(ScreenSession.oneScene(device: .iPhone15).playerScenes == ["main"])
    }

    @Test func theCommandLineShortcutsAreAOneSceneSession() {
        let session = ScreenSession.oneScene(device: .iPhone15, banner: "b.xml", testMode: true)
        // `--banner` lays the banner out below the content, as the AdMob guide does; `--banner-layout overlay` over it.
        #expect(session.screen == ScreenState(device: .iPhone15, scenes: [.init(id: "main", banner: .below)]))
        #expect(session.banners == [BannerPlacement(scene: "main", source: .vast(AdRequestTemplate("b.xml")))] && session.testMode)
        #expect(ScreenSession.oneScene(device: .iPhone15, banner: "b.png", bannerLayout: .overlay).screen
            == ScreenState(device: .iPhone15, scenes: [.init(id: "main", banner: .overlay)]))
        #expect(ScreenSession.oneScene(device: .iPhone15).screen.scenes[0].banner == nil)
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
        #expect(blocks.count == 5)
        for block in blocks {
            #expect(throws: Never.self) { _ = try ScreenSession(sessionFile: Data(block.utf8), file: "SESSION.md") }
        }
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: docs.appendingPathComponent("session.schema.json"))) is [String: Any])
    }
}

/// The bundled `media/multiwindow.session.json` does what docs/RENDERING.md says: the side scene's interstitial is reloaded
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
        #expect(run.events.contains { $0.time == MediaTime(seconds: 8) && $0.columns.reason == .adTooLargeForWindow && $0.type == .log })
        #expect(seconds(.adWillPresentFullScreenContent, "side") == [Rational(10)])
        #expect(seconds(.adDidDismissFullScreenContent, "side") == [Rational(13)])
        #expect(seconds(.bannerViewDidReceiveAd, "main") == [Rational(0), Rational(8), Rational(16)])
    }
}
