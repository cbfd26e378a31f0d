import AdInsertion
import Foundation
import MediaCore
import VideoPipeline

extension SessionOptions {
    /// The session on a device: read from `--session`, or the one scene the shortcuts (`--device`,
    /// `--orientation`, `--point-scale`, `--banner`, `--test-mode`) describe; `nil` without a device.
    ///
    /// - Throws: `UsageError` for a shortcut without `--device`, an option the session file takes the place of,
    ///   or a session file that cannot be read or used (its message names the JSON path).
    func screenSession(command: String) throws(UsageError) -> ScreenSession? {
        if let sessionFile {
            let given: [(Bool, String)] = [
                (content != nil, "--content"), (ads != nil, "--ads/--break"), (script != nil, "--script"),
                (device != nil, "--device"), (orientation != nil, "--orientation"), (pointScale != nil, "--point-scale"),
                (banner != nil, "--banner"), (testMode, "--test-mode"),
            ]
            if let name = given.first(where: \.0)?.1 {
                throw UsageError(command: command, message: "\(name): the --session file says this; give one or the other")
            }
            do throws(SessionFileError) {
                let session = try ScreenSession(contentsOfSessionFile: sessionFile)
                guard session.player != nil else {
                    throw SessionFileError(file: sessionFile, path: "scenes", "no scene has a player (its content)")
                }
                return session
            } catch {
                throw UsageError(command: command, message: "--session: \(error)")
            }
        }
        guard let device else {
            for (given, name) in [(orientation != nil, "--orientation"), (pointScale != nil, "--point-scale"),
                                  (banner != nil, "--banner"), (testMode, "--test-mode")] where given {
                throw UsageError(command: command, message: "\(name) needs --device")
            }
            return nil
        }
        return .oneScene(device: device, orientation: orientation, pointScale: pointScale, banner: banner, testMode: testMode)
    }

    /// The content, ads and script of the `--session` file's player, with paths resolved against its directory.
    func sessionInputs(command: String) throws(UsageError) -> (content: String, ads: Ads?, urlMap: String?, script: ScriptSource?)? {
        guard sessionFile != nil, let session = try screenSession(command: command), let player = session.player else { return nil }
        return (session.resolved(player.content), Self.ads(of: player, in: session), urlMap ?? session.urlMap.map(session.resolved),
                session.script.map(ScriptSource.text))
    }

    /// A session file player's `ads`: a URL, or a path resolved against the session's directory.
    static func ads(of player: ScreenSession.Player, in session: ScreenSession) -> Ads? {
        player.ads.map { text -> Ads in
            let lower = text.lowercased()
            if (lower.hasPrefix("http://") || lower.hasPrefix("https://")), let url = URL(string: text) { return .document(.url(url)) }
            return .document(.file(path: session.resolved(text)))
        }
    }

    /// The players of the session's other scenes (after the primary), each with its plan loaded for its own
    /// content and requested for its own scene's window (media selection, `[PLAYERSIZE]`).
    func scenePlayers(_ session: ScreenSession, urlMap: String?, fallbackWindow: PixelSize,
                      context: CommandContext) async throws -> [RenderRequest.ScenePlayer] {
        var players: [RenderRequest.ScenePlayer] = []
        for player in session.players.dropFirst() {
            let content = session.resolved(player.content)
            let info: MediaInfo
            do { info = try MediaProbe.probe(content) } catch { throw RenderError.content(error) }
            guard let video = info.bestVideo else { throw RenderError.content(.missingStream(path: content, kind: .video)) }
            let window = session.screen.layers().first { $0.kind == .content && $0.scene == player.scene }?.rect.size
            let plan = try await loadPlan(ads: Self.ads(of: player, in: session), urlMap: urlMap,
                                          contentDuration: video.duration ?? info.duration ?? .zero,
                                          window: window ?? fallbackWindow, context: context)
            players.append(RenderRequest.ScenePlayer(scene: player.scene, contentPath: content, plan: plan))
        }
        return players
    }

    /// The session's banners and full-screen ads loaded for real: requested at the start and whenever the
    /// script changes a banner's width or makes a full-screen ad too large, under the ad fetches' limits
    /// (`--url-map`, deadlines, origin policy); `nil` when the session has none and is not in test mode.
    func screenAds(_ session: ScreenSession, script: SessionScript, urlMap: String?, clockOrigin: Date,
                   command: String) async throws -> ScreenAdRun? {
        guard !session.banners.isEmpty || !session.fullScreenAds.isEmpty || session.testMode else { return nil }
        var settings = AdsLoaderSettings()
        settings.urlMap = try SessionOptions.loadURLMap(urlMap, command: command)
        try decisioning.apply(to: &settings, command: command)
        do {
            return try await session.loadAds(script: script, settings: settings, clockOrigin: clockOrigin)
        } catch {
            throw UsageError(command: command, message: "\(sessionFile.map { "--session: \($0)" } ?? "--banner"): \(error)")
        }
    }

    /// The session's native placements for `play`, loaded as their commands apply under the ad fetches' limits;
    /// `nil` when it has none.
    func liveNative(_ session: ScreenSession, urlMap: String?, command: String) throws -> LiveNativePlacements? {
        guard !session.nativePlacements.isEmpty else { return nil }
        return session.liveNative(settings: try nativeSettings(urlMap: urlMap, command: command))
    }

    /// The ad fetches' limits for native loads: `--url-map` and the decisioning options.
    private func nativeSettings(urlMap: String?, command: String) throws -> AdsLoaderSettings {
        var settings = AdsLoaderSettings()
        settings.urlMap = try SessionOptions.loadURLMap(urlMap, command: command)
        try decisioning.apply(to: &settings, command: command)
        return settings
    }

    /// The session's native placements loaded and evaluated for `request` (`load slider` commands of its script),
    /// under the ad fetches' limits; `nil` when it has none.
    func nativeAds(_ session: ScreenSession, request: RenderRequest, content: MediaInfo, urlMap: String?,
                   command: String) async throws -> NativeAds? {
        guard !session.nativePlacements.isEmpty else { return nil }
        let settings = try nativeSettings(urlMap: urlMap, command: command)
        do {
            return try await request.loadNativeAds(session, settings: settings, content: content)
        } catch let error as FontError {
            throw UsageError(command: command, message: "--font: \(error)")
        } catch let error as NativeError {
            throw UsageError(command: command, message: "\(error)")
        }
    }
}
