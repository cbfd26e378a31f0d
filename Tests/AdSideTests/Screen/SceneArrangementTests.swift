@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

/// Expected frames are worked out here from Apple's published numbers (iPad Pro 11": 834x1194 pt; Split View
/// divider 10 pt; narrow scene 375 pt on a display ≥ 1024 pt wide, else 320; Slide Over 320 pt), not by the code.
@Suite struct SceneArrangementTests {
    static let padInsets = EdgeInsets(top: 24, bottom: 20)
    static let landscape = PointSize(width: 1194, height: 834)
    static let portrait = PointSize(width: 834, height: 1194)

    static func frames(_ arrangement: SceneArrangement, _ size: PointSize) -> [PointRect] {
        arrangement.layout(displaySize: size, displayInsets: padInsets).map(\.frame)
    }

    @Test(arguments: [
        // landscape: (1194 − 10) / 2 = 592; 1194 − 10 − 375 = 809
        (SplitFraction.half, landscape, [PointRect(x: 0, y: 0, width: 592, height: 834), PointRect(x: 602, y: 0, width: 592, height: 834)]),
        (.twoThirds, landscape, [PointRect(x: 0, y: 0, width: 809, height: 834), PointRect(x: 819, y: 0, width: 375, height: 834)]),
        (.oneThird, landscape, [PointRect(x: 0, y: 0, width: 375, height: 834), PointRect(x: 385, y: 0, width: 809, height: 834)]),
        // portrait: (834 − 10) / 2 = 412; 834 − 10 − 320 = 504
        (.half, portrait, [PointRect(x: 0, y: 0, width: 412, height: 1194), PointRect(x: 422, y: 0, width: 412, height: 1194)]),
        (.twoThirds, portrait, [PointRect(x: 0, y: 0, width: 504, height: 1194), PointRect(x: 514, y: 0, width: 320, height: 1194)]),
        (.oneThird, portrait, [PointRect(x: 0, y: 0, width: 320, height: 1194), PointRect(x: 330, y: 0, width: 504, height: 1194)]),
    ])
    func splitViewMatchesTheHIGWidths(fraction: SplitFraction, size: PointSize, expected: [PointRect]) {
        #expect(Self.frames(.split(leading: "a", trailing: "b", fraction), size) == expected)
    }

    @Test func splitScenesGetTheSystemInsetsOfTheEdgesTheyTouch() {
        let layouts = SceneArrangement.split(leading: "a", trailing: "b", .half)
            .layout(displaySize: PointSize(width: 852, height: 393), displayInsets: EdgeInsets(top: 0, left: 59, bottom: 21, right: 59))
        // (852 − 10) / 2 = 421: the leading scene has the left inset only, the trailing one the right inset only.
        #expect(layouts.map(\.safeArea) == [EdgeInsets(top: 0, left: 59, bottom: 21, right: 0),
                                            EdgeInsets(top: 0, left: 0, bottom: 21, right: 59)])
        #expect(layouts[1].safeFrame == PointRect(x: 431, y: 0, width: 421 - 59, height: 393 - 21))
    }

    @Test func fullScreenSlideOverAndFreeFrames() {
        #expect(Self.frames(.fullScreen("a"), Self.landscape) == [PointRect(x: 0, y: 0, width: 1194, height: 834)])
        #expect(Self.frames(.slideOver(primary: "a", floating: "b"), Self.landscape)
            == [PointRect(x: 0, y: 0, width: 1194, height: 834), PointRect(x: 1194 - 320, y: 0, width: 320, height: 834)])
        let free = SceneArrangement.free([.init(scene: "a", frame: PointRect(x: 100, y: 100, width: 400, height: 300)),
                                          .init(scene: "b", frame: PointRect(x: 0, y: 0, width: 300, height: 834))])
        let layouts = free.layout(displaySize: Self.landscape, displayInsets: Self.padInsets)
        #expect(layouts.map(\.frame) == [PointRect(x: 100, y: 100, width: 400, height: 300), PointRect(x: 0, y: 0, width: 300, height: 834)])
        // Away from the edges a window has no insets; along the top and bottom it has the bars'.
        #expect(layouts.map(\.safeArea) == [.zero, Self.padInsets])
        #expect(free.scenesOnScreen == ["a", "b"])
    }

    @Test func freeFramesStayOnTheDisplayWhenItTurns() {
        // 600x1100 at (200, 50) on a portrait iPad; in landscape (1194x834) it shrinks to 834 high at y 0.
        let free = SceneArrangement.free([.init(scene: "a", frame: PointRect(x: 200, y: 50, width: 600, height: 1100))])
        #expect(Self.frames(free, Self.portrait) == [PointRect(x: 200, y: 50, width: 600, height: 1100)])
        #expect(Self.frames(free, Self.landscape) == [PointRect(x: 200, y: 0, width: 600, height: 834)])
        // 700 wide at x 300 on the 411-dp outer display of the foldable: 411 wide at x 0.
        let wide = SceneArrangement.free([.init(scene: "a", frame: PointRect(x: 300, y: 0, width: 700, height: 400))])
        #expect(Self.frames(wide, PointSize(width: 411, height: 796)) == [PointRect(x: 0, y: 0, width: 411, height: 400)])
    }
}
