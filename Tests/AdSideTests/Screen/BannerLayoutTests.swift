@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// A banner `below` the content ends the content's frame where the banner begins, as the Google Mobile Ads SwiftUI
/// example's `VStack` does; `overlay` keeps the content's whole window under the banner.
@Suite struct BannerLayoutTests {
    static func screen(_ layout: BannerLayout, _ orientation: Orientation) -> ScreenState {
        ScreenState(device: .iPhone15, orientation: orientation, scenes: [.init(id: "main", banner: layout)])
    }

    static func rect(_ screen: ScreenState, _ kind: ScreenLayer.Kind) throws -> PixelRect {
        try #require(screen.layers().first { $0.kind == kind }?.rect)
    }

    @Test(arguments: [Orientation.landscape, .portrait])
    func belowEndsTheContentWhereTheBannerBegins(orientation: Orientation) throws {
        let screen = Self.screen(.below, orientation)
        let content = try Self.rect(screen, .content), banner = try Self.rect(screen, .banner)
        #expect(content.maxY <= banner.y)
        #expect(content.maxY == banner.y)
        #expect(content.x == 0 && content.y == 0 && content.width == screen.displayRect.width)
    }

    /// Hand-derived on the iPhone 15 (393x852 pt at 3/2 px per point). Landscape: the banner is
    /// max(50, min(90, ⌊15% × 393⌋)) = 58 pt high on the bottom of the safe area (21 pt above the bottom), at
    /// y 393 − 21 − 58 = 314 pt = 471 px, 472 on the
    /// even grid. Portrait: 90 pt high, 34 pt above the bottom: y 852 − 34 − 90 = 728 pt
    /// = 1092 px.
    @Test func belowGivesTheContentTheWindowAboveTheBanner() throws {
        #expect(try Self.rect(Self.screen(.below, .landscape), .content) == PixelRect(x: 0, y: 0, width: 1278, height: 472))
        #expect(try Self.rect(Self.screen(.below, .portrait), .content) == PixelRect(x: 0, y: 0, width: 590, height: 1092))
    }

    @Test(arguments: [Orientation.landscape, .portrait])
    func overlayKeepsTheWholeWindowUnderTheBanner(orientation: Orientation) throws {
        let screen = Self.screen(.overlay, orientation)
        let content = try Self.rect(screen, .content), banner = try Self.rect(screen, .banner)
        #expect(content == screen.displayRect)
        #expect(content.maxY > banner.y)
    }

    @Test func aRotationKeepsTheContentAboveTheBanner() throws {
        var screen = Self.screen(.below, .portrait)
        _ = try screen.apply(.rotate(.landscape))
        #expect(try Self.rect(screen, .content).maxY == (try Self.rect(screen, .banner)).y)
        #expect(try Self.rect(screen, .content) == PixelRect(x: 0, y: 0, width: 1278, height: 472))
    }

    @Test func theSessionFileSaysTheLayoutAndDefaultsToOverlay() throws {
        func read(_ banner: String) throws -> ScreenSession {
            try ScreenSession(sessionFile: Data(#"{"device": "iphone-15", "orientation": "landscape", "scenes": [{"id": "main", "player": {"content": "c.mp4"}, "banner": \#(banner)}]}"#.utf8),
                              file: "/s/session.json")
        }
        #expect(try read(#"{"source": "b.png", "layout": "below"}"#).screen.scenes[0].banner == .below)
        #expect(try read(#"{"source": "b.png", "layout": "overlay"}"#).screen.scenes[0].banner == .overlay)
        #expect(try read(#"{"source": "b.png"}"#).screen.scenes[0].banner == .overlay)
        let error = #expect(throws: SessionFileError.self) { try read(#"{"source": "b.png", "layout": "under"}"#) }
        #expect(error?.description == #"/s/session.json: scenes[0].banner.layout: "under" is not one of "below", "overlay""#)
    }

    /// The bundled sessions use the guide's layout.
    @Test(arguments: ["multiwindow.session.json", "rotating-slider.session.json"])
    func theBundledSessionsPutTheirBannersBelowTheContent(name: String) throws {
        let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("media")
        let file = media.appendingPathComponent(name).path
        let session = try ScreenSession(sessionFile: Data(contentsOf: URL(fileURLWithPath: file)), file: file)
        let withBanners = session.screen.scenes.filter(\.hasBanner)
        #expect(!withBanners.isEmpty && withBanners.allSatisfy { $0.banner == .below })
    }
}
