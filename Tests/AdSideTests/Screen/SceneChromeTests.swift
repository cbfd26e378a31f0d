@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// The system's chrome between scenes: Split View's divider and a Slide Over window's edge are layers of the
/// screen, where the arrangement leaves them, and taps pass through them.
@Suite struct SceneChromeTests {
    static func screen(_ arrangement: SceneArrangement, pointScale: PointScale? = nil) -> ScreenState {
        ScreenState(device: .iPad11, orientation: .landscape, scenes: [.init(id: "main"), .init(id: "side")],
                    arrangement: arrangement, pointScale: pointScale)
    }

    /// iPad 11" landscape at 1 px per point: 1194 wide; split 1/2 leaves (1194 − 10) / 2 = 592 each, the divider at
    /// x 592, 10 wide, the whole 834 high; 2/3 puts it at 1194 − 10 − 375 = 809 pt, 810 px on the even grid (to 819 →
    /// 820).
    @Test func splitViewHasADividerBetweenItsScenesAfterThem() {
        let half = Self.screen(.split(leading: "main", trailing: "side", .half)).layers()
        #expect(half.last == ScreenLayer(scene: "side", kind: .divider, rect: PixelRect(x: 592, y: 0, width: 10, height: 834)))
        #expect(half.filter { $0.kind == .divider }.count == 1)
        let twoThirds = Self.screen(.split(leading: "main", trailing: "side", .twoThirds)).layers()
        #expect(twoThirds.last?.rect == PixelRect(x: 810, y: 0, width: 10, height: 834))
        // Nothing else overlaps it: the two windows end and begin at its edges.
        let windows = twoThirds.filter { $0.kind == .content }.map(\.rect)
        #expect(windows.map(\.maxX).contains(810) && windows.map(\.x).contains(820))
    }

    /// Slide Over: the floating window is 320 pt at x 874; its 8 pt edge lies just before it, over the primary,
    /// drawn before the floating window's own layers, and under both the shadow the window and its edge cast.
    @Test func slideOverHasAShadowAndAnEdgeBesideTheFloatingWindow() throws {
        let layers = Self.screen(.slideOver(primary: "main", floating: "side")).layers()
        #expect(layers.map(\.kind) == [.content, .shadow, .edge, .content])
        #expect(layers[2] == ScreenLayer(scene: "side", kind: .edge, rect: PixelRect(x: 866, y: 0, width: 8, height: 834)))
        #expect(layers[3].rect.x == 874)
        // Cast by the window with its edge (x 866 to the display's right), rounded as the edge's ends, 32 pt out,
        // and drawn only on the display: from x 834 to 1194, the whole height.
        let caster = PixelRect(x: 866, y: 0, width: 328, height: 834)
        #expect(layers[1] == ScreenLayer(scene: "side", kind: .shadow, rect: PixelRect(x: 834, y: 0, width: 360, height: 834),
                                         shadow: .init(caster: caster, radius: 4, reach: 32)))
    }

    /// At another point scale the shadow's reach scales with it, and on a rotating canvas it is placed with the
    /// rest of the screen (its caster too).
    @Test func theShadowScalesAndIsPlacedOnTheCanvas() throws {
        let state = Self.screen(.slideOver(primary: "main", floating: "side"), pointScale: PointScale(Rational(1, 2)))
        let canvas = ScreenCanvas(initial: state, rotates: true)
        let frame = canvas.frame(of: state)
        let shadow = try #require(frame.layers.first { $0.kind == .shadow })
        let edge = try #require(frame.layers.first { $0.kind == .edge })
        #expect(shadow.shadow?.reach == 16)
        #expect(shadow.shadow?.caster.x == edge.rect.x)
        #expect(shadow.shadow?.caster.maxX == frame.display.maxX)
        #expect(frame.display.contains(shadow.rect) && shadow.rect.x == edge.rect.x - 16)
    }

    @Test func fullScreenAndFreeFramesHaveNoChrome() {
        let full = Self.screen(.fullScreen("main")).layers()
        let free = Self.screen(.free([.init(scene: "main", frame: PointRect(x: 0, y: 0, width: 500, height: 500)),
                                      .init(scene: "side", frame: PointRect(x: 600, y: 0, width: 500, height: 500))])).layers()
        #expect(!(full + free).contains { $0.kind.isSystemChrome })
    }

    @Test func aTapOnTheDividerOrTheEdgeLandsOnTheSceneBeneath() throws {
        var split = Self.screen(.split(leading: "main", trailing: "side", .half))
        let onDivider = try split.apply(.tap(x: 595, y: 400))
        #expect(onDivider.first == .tapped(x: 595, y: 400, layer: nil))
        var slideOver = Self.screen(.slideOver(primary: "main", floating: "side"))
        let onEdge = try slideOver.apply(.tap(x: 870, y: 400))
        #expect(onEdge.first == .tapped(x: 870, y: 400, layer: ScreenLayer(scene: "main", kind: .content,
                                                                             rect: PixelRect(x: 0, y: 0, width: 1194, height: 834))))
    }
}
