import AdDecisioning
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

extension RenderRequest {
    /// Loads and evaluates `session`'s native placements for this render, before it starts: their text measured
    /// with `font` (FreeType) at the screen's point scale, their events and layers on the output frames the
    /// render will have (the content from `contentStart` and the plan's ads at their expected lengths).
    ///
    /// - Returns: `nil` when the session has no native placement.
    /// - Throws: `RenderRequestError.font` for a font that cannot be opened, `.native` (`NativeError.unknownPlacement`)
    ///   for a native command that names no placement.
    public func loadNativeAds(_ session: ScreenSession, settings: AdsLoaderSettings,
                              content: MediaInfo) async throws(RenderRequestError) -> NativeAds? {
        guard !session.nativePlacements.isEmpty else { return nil }
        let measurer: FreeTypeTextMeasurer
        do throws(FontError) { measurer = try FreeTypeTextMeasurer(font: device.font, scale: session.screen.pointScale) } catch {
            throw .font(error)
        }
        let rate = outputFormat(content: content).frameRate
        let contentLength = (content.bestVideo?.duration ?? content.duration ?? .zero).seconds - self.content.start.seconds
        let ads = plan.breaks.flatMap(\.ads).compactMap(Stitcher.expectedDuration).reduce(Rational.zero) { $0 + $1.seconds }
        let end = MediaTime(seconds: max(.zero, contentLength) + ads)
        do throws(NativeError) {
            // A present whose ad failed covers no card: the screen ads' settled timeline says which did.
            return try await session.loadNative(script: script, settings: settings, frameRate: rate, end: end, measurer: measurer,
                                                timeline: device.screenAds?.timeline)
        } catch {
            throw .native(error)
        }
    }
}
