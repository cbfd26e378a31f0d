import AdScreen
import MediaCore
import VideoPipeline

extension Stitcher {
    /// `play`'s native placements for `request` (`request.liveNative`) on its screen, for the director to follow as
    /// the session plays; `nil` when it has none.
    ///
    /// - Throws: `RenderError.session` for a font that cannot be opened.
    static func liveNative(_ request: RenderRequest, format: OutputFormat) throws(RenderError) -> Director.Native? {
        guard var native = request.device.liveNative, let screen = request.device.screen else { return nil }
        // A response loaded as the session plays may name a file the session writes: that image is not read.
        native.loader.forbiddenFiles += request.writtenFiles
        do {
            let measurer = try FreeTypeTextMeasurer(font: request.device.font, scale: screen.pointScale)
            return try Director.Native.live(native, screen: screen, frameRate: format.frameRate, measurer: measurer)
        } catch let error as FontError {
            throw .session("--font: \(error)")
        } catch {
            throw .session("\(error)")
        }
    }
}
