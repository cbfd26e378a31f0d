import AdInsertion
import Foundation
import MediaCore
import VideoPipeline

extension SessionOptions {
    /// Everything a render (or a recorded play) needs, from the command line: inputs (or the demo's), the ad plan
    /// loaded for the content's real duration, and the session's settings. A `live` session (`play`) loads its
    /// native placements as their commands apply, not before.
    func renderRequest(output: String?, format: FormatOptions, encoding: EncodingOptions, timeline: String?,
                       events: String?, frameHashes: String?, live: Bool = false,
                       context: CommandContext) async throws -> RenderRequest {
        let command = context.command
        // Refused before anything is fetched: a cache that is not a directory, or that others could change.
        do throws(MediaCacheDirectoryError) { try mediaCacheSettings.checkDirectory() } catch {
            throw UsageError(command: command, message: (mediaCache == nil ? "the media cache: " : "--media-cache: ") + "\(error)")
        }
        let inputs = try resolvedInputs()
        // Reported as the render itself reports content it cannot use: `content: PATH: what is wrong`.
        let info: MediaInfo
        do { info = try MediaProbe.probe(inputs.content) } catch { throw RenderError.content(error) }
        guard let video = info.bestVideo else { throw RenderError.content(.missingStream(path: inputs.content, kind: .video)) }
        let screen = try self.screen(command: command)
        if screen != nil, format.size != nil {
            throw UsageError(command: command, message: "--size: the output of a --device is its display (see --point-scale)")
        }
        // Ads are requested for the player the render will draw: the output format's size by the one rule, or on
        // a device the window of the player's scene.
        let window = screen.flatMap { state in
            state.layers().first { $0.kind == .content && $0.scene == state.scenes[0].id }?.rect.size
        }
            ?? OutputFormat.resolve(size: format.size, frameRate: format.frameRate, source: info).size
        let contentDuration = video.duration ?? info.duration ?? .zero
        if let startAt, startAt.seconds >= contentDuration.seconds {
            throw UsageError(command: command, message: "--start-at: \(exactDecimal(startAt.seconds)) is not inside the content "
                + "(\(inputs.content) is \(exactDecimal(contentDuration.seconds)) s long)")
        }
        let plan = try await loadPlan(ads: inputs.ads, urlMap: inputs.urlMap, contentDuration: contentDuration,
                                      window: window,
                                      context: context)
        let outputPath = output ?? (usesDemo ? "out/demo.mp4" : "out.mp4")
        if output == nil, usesDemo {
            try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
        }
        var request = RenderRequest(
            contentPath: inputs.content, plan: plan, outputPath: outputPath, size: format.size,
            frameRate: format.frameRate, sampleRate: format.sampleRate, channels: format.channels,
            encoding: encoding.settings, timelinePath: timeline, eventsPath: events, frameHashPath: frameHashes,
            ads: adsSettings, pictureInPicture: pictureInPictureSettings,
            pictureInPictureBackground: pictureInPictureBackground,
            script: try SessionOptions.loadScript(inputs.script, command: command), contentStart: startAt ?? .zero,
            // Beacons that really go out carry the real time; a log-only render stays reproducible.
            clockOrigin: sendsBeacons ? Date() : SessionConfiguration.defaultClockOrigin)
        // An ad server must see a fresh [CACHEBUSTING] per beacon and run; a log-only render stays reproducible.
        request.cacheBusting = sendsBeacons ? .random : .seeded
        request.mediaCache = mediaCacheSettings
        request.screen = screen
        request.font = font
        if let session = try screenSession(command: command) {
            request.players = try await scenePlayers(session, urlMap: inputs.urlMap, fallbackWindow: window, context: context)
            request.screenAds = try await screenAds(session, script: request.script, urlMap: inputs.urlMap,
                                                    clockOrigin: request.clockOrigin, command: command)
            if live {
                request.liveNative = try liveNative(session, urlMap: inputs.urlMap, command: command)
            } else {
                request.nativeAds = try await nativeAds(session, request: request, content: info, urlMap: inputs.urlMap,
                                                        command: command)
            }
            // What the origin policy dropped and the images that could not be fetched: the render goes on without them.
            for warning in request.nativeAds?.warnings ?? [] { context.warn(warning) }
        }
        return request
    }

    /// `--media-cache`, `--media-timeout` and `--max-media-bytes`.
    var mediaCacheSettings: MediaCacheSettings {
        var settings = MediaCacheSettings(directory: mediaCache ?? MediaCacheSettings.defaultDirectory())
        settings.timeout = mediaTimeout.duration
        settings.maximumBytes = Int64(maximumMediaBytes)
        settings.isShared = mediaCacheShared
        return settings
    }
}

