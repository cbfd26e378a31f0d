import AdPlayback
import AdScreen
import Foundation
import MediaCore
import Rendering
import VideoPipeline

extension SessionOptions {
    /// Everything a render (or a recorded play) needs, built by the library (`RenderRequest(session:…)` or
    /// `RenderRequest(content:…)`) from the command's inputs: `screen` (the session file or the device shortcuts, read
    /// once by `screenSession(command:)`), or the content and ads given (or the demo's). A `live` session (`play`)
    /// loads its native placements as their commands apply, not before.
    func renderRequest(screen: ScreenSession?, output: String?, format: FormatOptions, encoding: EncodingOptions,
                       timeline: String?, events: String?, frameHashes: String?, live: Bool = false,
                       context: CommandContext) async throws -> RenderRequest {
        let command = context.command
        // Refused before anything is fetched: a cache that is not a directory, or that others could change.
        do throws(MediaCacheDirectoryError) { try remoteMedia.settings.checkDirectory() } catch {
            throw UsageError(command: command, message: (remoteMedia.cache == nil ? "the media cache: " : "--media-cache: ") + "\(error)")
        }
        if screen != nil, format.size != nil {
            throw UsageError(command: command, message: "--size: the output of a --device is its display (see --point-scale)")
        }
        var loading = RenderRequest.Loading()
        try adRequest.decisioning.apply(to: &loading.fetching, command: command)
        loading.window = adRequest.window
        loading.cuePoints = adRequest.cuePoints
        loading.strictAds = adRequest.strictAds
        loading.size = format.size
        loading.frameRate = format.frameRate
        loading.contentStart = startAt
        // Beacons that really go out carry the real time, and an ad server must see a fresh [CACHEBUSTING] per
        // beacon and run; a log-only render stays reproducible.
        loading.clockOrigin = sendsBeacons ? Date() : BeaconClock.defaultOrigin
        loading.cacheBusting = sendsBeacons ? .random : .seeded
        loading.font = font
        loading.mode = live ? .live : .batch
        loading.warn = { warning in
            switch warning {
            case .adsNotLoaded(let error):
                context.warn("--ads: \(error); playing the content without these ads (--strict-ads makes this an error)")
            case .native(let message):
                context.warn(message)
            }
        }
        var request: RenderRequest
        do {
            if sessionFile != nil, let session = screen {
                loading.urlMapFile = adRequest.urlMap
                request = try await RenderRequest(session: session, output: outputPath(output), loading: loading)
            } else {
                let inputs = try resolvedInputs()
                loading.urlMapFile = inputs.urlMap
                request = try await RenderRequest(
                    content: inputs.content, ads: inputs.ads.map(Self.adSource),
                    script: try SessionOptions.loadScript(inputs.script, command: command), screen: screen,
                    output: outputPath(output), loading: loading)
            }
        } catch let error as RenderRequestError {
            throw commandError(error, command: command)
        }
        if output == nil, usesDemo {
            try FileManager.default.createDirectory(atPath: "out", withIntermediateDirectories: true)
        }
        request.format.sampleRate = format.sampleRate
        request.format.channels = format.channels
        request.encoding = encoding.settings
        request.output.timelinePath = timeline
        request.output.eventsPath = events
        request.output.frameHashPath = frameHashes
        request.ads = adBreaks.settings
        request.pictureInPicture = pictureInPicture.settings
        request.pictureInPictureBackground = pictureInPicture.background
        request.mediaCache = remoteMedia.settings
        return request
    }

    /// What the command reports for an input the library could not use: a usage error naming the option, or the
    /// library's error as it is (exit 1).
    private func commandError(_ error: RenderRequestError, command: String) -> any Error {
        func usage(_ message: String) -> UsageError { UsageError(command: command, message: message) }
        switch error {
        case .sessionFile, .noPlayer: return usage("--session: \(error)")
        // Reported as the render itself reports content it cannot use: `content: PATH: what is wrong`.
        case .content(let error): return RenderError.content(error)
        case .contentStart(let start, let content, let duration):
            return usage("--start-at: \(exactDecimal(start.seconds)) is not inside the content "
                + "(\(content) is \(exactDecimal(duration.seconds)) s long)")
        case .urlMap(let error): return usage("--url-map: \(error.message)")
        case .ads(let error): return error
        case .breaks(let error): return error.isUserError ? usage("--break: \(error.message)") : error
        case .script(let error): return usage("--script: \(error)")
        case .screenAds(let error): return usage("\(sessionFile.map { "--session: \($0)" } ?? "--banner"): \(error)")
        case .font(let error): return usage("--font: \(error)")
        case .native(let error): return usage("\(error)")
        }
    }
}

extension SessionOptions.RemoteMedia {
    /// `--media-cache`, `--media-cache-shared`, `--media-timeout` and `--max-media-bytes`.
    var settings: MediaCacheSettings {
        var settings = MediaCacheSettings(directory: cache ?? MediaCacheSettings.defaultDirectory())
        settings.timeout = timeout.duration
        settings.maximumBytes = Int64(maximumBytes)
        settings.isShared = cacheShared
        return settings
    }
}
