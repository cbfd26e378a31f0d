@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// `media/slider.response.json`, the block the bundled slider session shows: five cards, one of which requires an
/// asset the guide's card has no place for.
@Suite struct BundledSliderResponseTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("media/slider.response.json").path

    @Test func fiveCardsLoadAndOnlyTheThirdFailsBindingOnAnIPhone() async throws {
        let result = try await NativeAdLoader().load(Self.path)
        #expect(result.block.ads.map(\.id) == ["bike-1", "tea-2", "app-3", "shoe-4", "game-5"])
        #expect(result.warnings.isEmpty)
        // Images are read next to the response.
        let media = try #require(result.block.ads[0].asset(.media))
        #expect(media.content == .image(kind: .main, url: (Self.path as NSString).deletingLastPathComponent + "/native-card-1.png",
                                        size: PointSize(width: 1200, height: 628)))
        // Every image it names is bundled (scripts/make-media).
        for asset in result.block.ads.flatMap(\.assets) {
            if case .image(_, let url, _) = asset.content { #expect(FileManager.default.fileExists(atPath: url), "\(url)") }
        }
        let run = try NativeScreenRun(screen: NativeSliderRunTests.screen(),
                                      placements: [NativePlacement(id: "feed", scene: "main", source: Self.path)],
                                      script: try SessionScript(parsing: "load slider@0"), frameRate: FrameRate(30),
                                      end: MediaTime(seconds: 1), measurer: MonospaceTextMeasurer())
        let outcome = await run.run { placement throws(NativeError) in try await NativeAdLoader().load(placement.source).block }
        let failures = outcome.events.filter { $0.type == .onAdBindingFailure }
        #expect(failures.map(\.ad) == ["app-3"])
        #expect(failures.first?.columns.message == "required asset id 9 (data rating) has no place in a card")
    }
}
