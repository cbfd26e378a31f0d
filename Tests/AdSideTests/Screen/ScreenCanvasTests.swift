@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

@Suite struct ScreenCanvasTests {
    static func iPhone(_ orientation: Orientation = .portrait) -> ScreenState {
        ScreenState(device: .iPhone15, orientation: orientation, scenes: [.init(id: "main", hasBanner: true)])
    }

    @Test func withoutRotationTheCanvasIsTheDisplay() {
        // 393x852 pt at 3/2: 589.5 → the even 590, 1278.
        let state = Self.iPhone()
        let canvas = ScreenCanvas(initial: state, rotates: false)
        #expect(canvas.size == PixelSize(width: 590, height: 1278))
        #expect(canvas.frame(of: state).display == PixelRect(x: 0, y: 0, width: 590, height: 1278))
    }

    @Test func aCanvasThatMayRotateCoversBothOrientationsWithTheDisplayCentred() throws {
        var state = Self.iPhone()
        let canvas = ScreenCanvas(initial: state, rotates: true)
        #expect(canvas.size == PixelSize(width: 1278, height: 1278))
        // (1278 − 590) / 2 = 344, even.
        #expect(canvas.frame(of: state).display == PixelRect(x: 344, y: 0, width: 590, height: 1278))
        _ = try state.apply(.rotate(.landscape))
        let turned = canvas.frame(of: state)
        #expect(turned.display == PixelRect(x: 0, y: 344, width: 1278, height: 590))
        // Landscape banner: 852 − 59 − 59 = 734 pt wide, ⌊15% × 393⌋ = 58 pt high, its bottom on 393 − 21 = 372:
        // x 59 → 88.5 → 88, right 793 → 1189.5 → 1190, top 314 → 471 → 472, bottom 372 → 558; moved down by 344.
        let banner = try #require(turned.layers.first { $0.kind == .banner })
        #expect(banner.rect == PixelRect(x: 88, y: 344 + 472, width: 1102, height: 86))
        #expect(turned.scenes.map(\.id) == ["main"] && turned.scenes[0].rect == turned.display)
    }

    @Test func aScriptThatRotatesOrALiveSessionGetsTheSquareCanvas() throws {
        let state = Self.iPhone()
        #expect(ScreenCanvas(initial: state, script: try SessionScript(parsing: "pip@1"), live: false).size.width == 590)
        #expect(ScreenCanvas(initial: state, script: try SessionScript(parsing: "rotate landscape@1"), live: false).size.width == 1278)
        #expect(ScreenCanvas(initial: state, script: SessionScript(), live: true).size.width == 1278)
    }

    @Test func aFoldedFoldableShowsItsOuterDisplayCentredInTheInnerDisplaysCanvas() throws {
        // Default scale 3/2. Inner 700x841 pt → 1050x1262 px; outer 411x796 pt → 616x1194, centred: x (1050 − 616)
        // / 2 = 217 → 216, y (1262 − 1194) / 2 = 34.
        var state = ScreenState(device: .foldable, scenes: [.init(id: "main")])
        let canvas = ScreenCanvas(initial: state, rotates: false)
        #expect(canvas.size == PixelSize(width: 1050, height: 1262))
        _ = try state.apply(.fold)
        #expect(canvas.frame(of: state).display == PixelRect(x: 216, y: 34, width: 616, height: 1194))
        #expect(canvas.frame(of: state).window(of: "main") == PixelRect(x: 216, y: 34, width: 616, height: 1194))
    }
}
