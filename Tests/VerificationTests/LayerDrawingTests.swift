import AdPlayback
import AdScreen
import Foundation
import MediaCore
@testable import Rendering
import Testing
@testable import Verification
import VideoPipeline

/// Verify draws a render's layers as the renderer draws them (issue 37): for each kind of layer, the screen verify
/// expects from the timeline's record (`Verifier.LayerPainter`) is, pixel for pixel, the screen the renderer draws
/// from the planner's layers for it, with the planner's references read as `MediaLibrary` reads them.
@Suite struct LayerDrawingTests {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("media").path
    static let canvas = PixelSize(width: 320, height: 240)
    static let display = PixelRect(x: 10, y: 8, width: 300, height: 224)
    static let window = PixelRect(x: 10, y: 8, width: 300, height: 224)
    static let frame: Int64 = 7
    static let banner = media + "/banner.png", interstitial = media + "/interstitial.png", cardImage = media + "/native-card-1.png"

    /// The renderer's media for the planner's references of these tests, read as `MediaLibrary` reads them: a
    /// banner's and a full-screen image's frames looped with the output's, a native image's first; a player's
    /// picture is left out on both sides (its window's letterbox black is drawn).
    struct LibraryMedia: PlannedMedia {
        let format: OutputFormat

        func source(_ path: String) throws(MediaError) -> MediaSource { try MediaSource(path: path, format: format) }

        func picture(_ reference: MediaReference, for layer: PlannedLayer) throws(MediaError) -> PlannedPicture {
            switch reference {
            case .banner(_, let frame):
                let file = try source(LayerDrawingTests.banner)
                return .picture(try file.picture(atTick: frame % file.frameCount))
            case .fullScreenImage(_, let frame):
                let file = try source(LayerDrawingTests.interstitial)
                return .picture(try file.picture(atTick: frame % file.frameCount))
            case .nativeImage:
                return .picture(try source(LayerDrawingTests.cardImage).picture(atTick: 0))
            case .player:
                return .unknown
            case .pictureInPictureBackground, .fullScreenVideo, .nativeVideo, .recorded:
                return .missing
            }
        }

        func text(_ text: PlannedText, width: Int) throws(MediaError) -> RenderedText {
            throw .invalidSetting(name: "text", value: text.text, reason: "not drawn here")
        }
    }

    /// A kind of layer: its timeline record, and the layers a planner makes for it (as `FramePlanner` does).
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var records: [Timeline.Layer]
        var planned: [PlannedLayer]
    }

    static let rect = PixelRect(x: 40, y: 60, width: 200, height: 100)
    static let area = Timeline.Layer.Area(scene: "main", rect: rect)
    static let clip = PixelRect(x: 30, y: 50, width: 150, height: 150)
    static let image = PixelRect(x: 50, y: 70, width: 120, height: 60)
    static func layer(_ content: PlannedLayer.Content, in rect: PixelRect = rect, clip: PixelRect? = nil) -> PlannedLayer {
        PlannedLayer(content, in: rect, clip: clip, scene: "main")
    }

    static let cases: [Case] = [
        Case(description: "a scene without a player", records: [.player(.init(.content, area, source: nil))], planned: [layer(.color(.black))]),
        Case(description: "the player's window", records: [.player(.init(.content, area, source: "/content.mp4"))],
             planned: [layer(.picture(.player("main", .content(tick: frame)), .letterbox))]),
        Case(description: "a banner", records: [.banner(area, source: banner)], planned: [layer(.picture(.banner("main", frame: frame), .fill))]),
        Case(description: "a full-screen image", records: [.fullScreen(area, .image(source: interstitial))],
             planned: [layer(.color(.black)), layer(.picture(.fullScreenImage(request: 0, frame: frame), .letterbox))]),
        Case(description: "a full-screen placeholder", records: [.fullScreen(area, .placeholder)], planned: [layer(.color(.fullScreenPlaceholder))]),
        Case(description: "a landing screen", records: [.overlay(area)], planned: [layer(.color(.overlay))]),
        Case(description: "a slider", records: [.slider(area, .init(placement: "p", placeholder: false))],
             planned: [layer(.color(.slider), clip: rect)]),
        Case(description: "a loading slider", records: [.slider(area, .init(placement: "p", placeholder: true))],
             planned: [layer(.color(.nativePlaceholder), clip: rect)]),
        Case(description: "a card with its image",
             records: [.card(area, .init(index: 0, adID: "a", placement: "p", clip: .init(clip), radius: 12,
                                         image: .init(rect: .init(image), radius: 6, source: cardImage)))],
             planned: [layer(.roundedRect(.card, radius: 12), clip: clip), layer(.picture(.nativeImage(url: "https://x/1.png"), .crop), in: image, clip: clip),
                       layer(.corners(.card, radius: 6), in: image, clip: clip)]),
        Case(description: "a single native ad with its image not loaded",
             records: [.native(area, .init(index: 0, adID: "a", placement: "p", clip: .init(clip), radius: 12,
                                           image: .init(rect: .init(image), radius: 6, source: nil)))],
             planned: [layer(.roundedRect(.card, radius: 12), clip: clip), layer(.color(.nativePlaceholder), in: image, clip: clip),
                       layer(.corners(.card, radius: 6), in: image, clip: clip)]),
        Case(description: "the Split View divider", records: [.divider(.init(scene: .screen, rect: rect))],
             planned: [FramePlanner.chrome(.divider, in: rect, scene: .screen)!]),
        Case(description: "a Slide Over edge", records: [.edge(area)], planned: [FramePlanner.chrome(.edge, in: rect, scene: "main")!]),
        Case(description: "a Slide Over shadow",
             records: [.shadow(area, .init(caster: PixelRect(x: 60, y: 80, width: 160, height: 60), radius: 8, reach: 20))],
             planned: [layer(.shadow(caster: PixelRect(x: 60, y: 80, width: 160, height: 60), radius: 8, reach: 20))]),
        Case(description: "the picture-in-picture backdrop and window",
             records: [.player(.init(.content, area, source: nil)),
                       .player(.init(.pip, .init(scene: "main", rect: PixelRect(x: 150, y: 100, width: 80, height: 45)), source: "/content.mp4"))],
             planned: [layer(.color(.slate)),
                       layer(.picture(.player("main", .content(tick: frame)), .letterbox), in: PixelRect(x: 150, y: 100, width: 80, height: 45))]),
    ]

    @Test(arguments: cases)
    func verifyExpectsThePixelsTheRendererDraws(_ kind: Case) throws {
        var segment = GoldenComparisonTests.segment(0, 30)
        segment.screen.display = .init(Self.display)
        segment.screen.layers = kind.records
        var timeline = GoldenComparisonTests.timeline([segment])
        timeline.output.width = Self.canvas.width
        timeline.output.height = Self.canvas.height
        var painter = try Verifier.LayerPainter(timeline: timeline, rate: FrameRate(30), timelinePath: "/t/out.mp4.timeline.json")
        let expected = try painter.paint(segment, frame: Self.frame)
        #expect(expected.unverifiable.isEmpty, "\(expected.unverifiable)")

        let compositor = try Compositor(size: Self.canvas)
        var library = LibraryMedia(format: painter.format)
        let drawn = try Stitcher.compositorLayers(FramePlanner.background(canvas: Self.canvas, display: Self.display) + kind.planned,
                                                  media: &library)
        _ = try compositor.draw(drawn)
        let rendered = try ColorProbe(compositor.picture)
        var differing: [String] = []
        for y in 0..<Self.canvas.height {
            for x in 0..<Self.canvas.width {
                let pixel = PixelRect(x: x, y: y, width: 1, height: 1)
                if expected.probe.mean(in: pixel) != rendered.mean(in: pixel), differing.count < 5 { differing.append("(\(x),\(y))") }
            }
        }
        #expect(differing.isEmpty, "\(kind): differs at \(differing)")
    }
}
