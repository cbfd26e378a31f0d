import AdPlayback
import MediaCore
import VideoPipeline

extension Stitcher {
    /// `play`'s native placements for `request` (`request.liveNative`) on its screen; `nil` when it has none.
    ///
    /// - Throws: `RenderError.session` for a font that cannot be opened.
    static func liveNative(_ request: RenderRequest, format: OutputFormat) throws(RenderError) -> LiveNativeRun? {
        guard var native = request.device.liveNative, let screen = request.device.screen else { return nil }
        // A response loaded as the session plays may name a file the session writes: that image is not read.
        native.loader.forbiddenFiles += request.writtenFiles
        do {
            let measurer = try FreeTypeTextMeasurer(font: request.device.font, scale: screen.pointScale)
            return try LiveNativeRun(native, screen: screen, frameRate: format.frameRate, measurer: measurer)
        } catch let error as FontError {
            throw .session("--font: \(error)")
        } catch {
            throw .session("\(error)")
        }
    }

    /// Before `decision`'s frame is drawn, in `play`: the native placements follow the commands the session applied
    /// at this frame (loads begin in the background; answers and images that arrived are taken), and their events
    /// of this frame are scheduled with the others. Nothing here waits.
    func updateLiveNative(_ decision: FrameDecision) {
        guard let liveNative = liveNative else { return }
        let events = liveNative.step(frame: decision.frame, applied: director.screen?.takeNativeCommands() ?? [])
        let images = liveNative.takeImages()
        library.native?.add(images, origins: images.keys.reduce(into: [:]) { origins, url in origins[url] = liveNative.origin(of: url) })
        director.schedule(native: events)
    }

    /// What `play`'s native fetches warned of since the last call (origin policy drops, images not fetched).
    public func takeNativeWarnings() -> [String] { liveNative?.takeWarnings() ?? [] }
}
