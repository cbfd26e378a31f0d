import AdPlayback
import Foundation
import MediaCore

extension ScreenSession {
    /// The session of the session file at `path`, its size checked before it is read whole.
    ///
    /// - Parameter isCancelled: asked while a FIFO waits for its writer or its data (`BoundedRead`); `true` ends
    ///   the wait with an error.
    /// - Throws: `SessionFileError` for a file that cannot be read, is larger than
    ///   `SessionFileLimits.maximumFileBytes`, or that `init(sessionFile:file:)` refuses.
    public init(contentsOfSessionFile path: String, isCancelled: () -> Bool = { false }) throws(SessionFileError) {
        let data: Data
        do throws(BoundedRead.Failure) {
            data = try BoundedRead.contents(ofFile: path, limit: SessionFileLimits.maximumFileBytes, isCancelled: isCancelled)
        } catch {
            throw SessionFileError(file: path, path: "", error.description)
        }
        try self.init(sessionFile: data, file: path)
    }

    /// The session a session file describes (docs/SESSION.md, docs/session.schema.json).
    ///
    /// - Throws: `SessionFileError` naming the JSON path of the first value that is missing, of the wrong type,
    ///   unknown, or that does not fit the device (a scene off screen that says it is in the foreground, a split
    ///   layout on a device without multitasking).
    public init(sessionFile data: Data, file: String) throws(SessionFileError) {
        guard data.count <= SessionFileLimits.maximumFileBytes else {
            throw SessionFileError(file: file, path: "", "\(data.count) bytes, more than the limit of \(SessionFileLimits.maximumFileBytes) bytes")
        }
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw SessionFileError(file: file, path: "", "not JSON (\((error as NSError).localizedDescription))")
        }
        let reader = JSONPathReader(file: file)
        let top = try reader.object(root, "")
        try reader.only(top, ["$schema", "device", "orientation", "fold", "pointScale", "testMode", "layout", "scenes", "script", "urlMap"], "")
        let deviceName = try reader.string(top["device"], "device")
        let device: Device
        do throws(ScreenError) { device = try Device(parsing: deviceName) } catch {
            throw SessionFileError(file: file, path: "device", error.description)
        }
        try reader.checkCustom(device)
        let orientation = try top["orientation"].map { v throws(SessionFileError) in
            try reader.choice(v, "orientation", Orientation.self)
        } ?? Device.naturalOrientation(of: device.name)
        let fold = try top["fold"].map { v throws(SessionFileError) in try reader.choice(v, "fold", FoldState.self) } ?? .unfolded
        var pointScale: PointScale?
        if let value = top["pointScale"] {
            let text = (value as? NSNumber).map { "\($0)" } ?? (value as? String) ?? ""
            guard let scale = PointScale(parsing: text) else {
                throw SessionFileError(file: file, path: "pointScale", "not a positive number (e.g. 1, 1.5, \"3/2\")")
            }
            try reader.checkScale(scale.pixelsPerPoint, "pointScale")
            pointScale = scale
        }
        let testMode = try top["testMode"].map { v throws(SessionFileError) in try reader.bool(v, "testMode") } ?? false
        let sceneValues = try reader.array(top["scenes"], "scenes")
        guard !sceneValues.isEmpty else { throw SessionFileError(file: file, path: "scenes", "a session has at least one scene") }
        guard sceneValues.count <= SessionFileLimits.maximumScenes else {
            throw SessionFileError(file: file, path: "scenes", "\(sceneValues.count) scenes, more than the limit of \(SessionFileLimits.maximumScenes)")
        }

        var scenes: [ScreenState.Scene] = [], banners: [BannerPlacement] = [], fullScreenAds: [FullScreenPlacement] = []
        var natives: [NativePlacement] = []
        var players: [Player] = [], playerHeights: [SceneID: Int] = [:], states: [(SceneID, SceneActivationState, String)] = [], frames: [SceneArrangement.FreeFrame] = []
        for (i, value) in sceneValues.enumerated() {
            let at = "scenes[\(i)]"
            let scene = try reader.object(value, at)
            try reader.only(scene, ["id", "state", "frame", "player", "banner", "interstitial", "native"], at)
            let idText = try reader.string(scene["id"], at + ".id")
            guard !idText.isEmpty else { throw SessionFileError(file: file, path: at + ".id", "is empty") }
            let id = SceneID(idText)
            guard !scenes.contains(where: { $0.id == id }) else {
                throw SessionFileError(file: file, path: at + ".id", "\"\(id.description.excerpt)\" names an earlier scene too")
            }
            if let state = scene["state"] { states.append((id, try reader.choice(state, at + ".state", SceneActivationState.self), at + ".state")) }
            if let frame = scene["frame"] { frames.append(.init(scene: id, frame: try reader.rect(frame, at + ".frame"))) }
            if let value = scene["player"] {
                let p = try reader.object(value, at + ".player")
                guard players.count < SessionFileLimits.maximumPlayers else {
                    throw SessionFileError(file: file, path: at + ".player", "more than the limit of \(SessionFileLimits.maximumPlayers) players")
                }
                try reader.only(p, ["content", "ads", "height"], at + ".player")
                if let height = p["height"] {
                    let points = try reader.int(height, at + ".player.height")
                    guard (1...10_000).contains(points) else {
                        throw SessionFileError(file: file, path: at + ".player.height", "\(points) is not in 1…10000")
                    }
                    playerHeights[id] = points
                }
                players.append(Player(scene: id, content: try reader.string(p["content"], at + ".player.content"),
                                ads: try p["ads"].map { v throws(SessionFileError) in try reader.string(v, at + ".player.ads") }))
            }
            var bannerLayout: BannerLayout?
            if let value = scene["banner"] {
                let (source, setsScene) = try reader.placement(value, at + ".banner", extra: ["layout"])
                banners.append(BannerPlacement(scene: id, source: source, setsScene: setsScene))
                bannerLayout = try (value as? [String: Any])?["layout"].map { v throws(SessionFileError) in
                    try reader.choice(v, at + ".banner.layout", BannerLayout.self)
                } ?? .overlay
            }
            if let value = scene["interstitial"] {
                let (source, setsScene) = try reader.placement(value, at + ".interstitial", extra: ["kind"])
                let kind = try (value as? [String: Any])?["kind"].map { v throws(SessionFileError) in
                    try reader.choice(v, at + ".interstitial.kind", FullScreenAd.Kind.self)
                } ?? .interstitial
                fullScreenAds.append(FullScreenPlacement(scene: id, kind: kind, source: source, setsScene: setsScene))
            }
            if let value = scene["native"] {
                natives += try reader.nativePlacements(value, at + ".native", scene: id, taken: natives)
                guard natives.count <= SessionFileLimits.maximumNativePlacements else {
                    throw SessionFileError(file: file, path: at + ".native",
                                           "more than the limit of \(SessionFileLimits.maximumNativePlacements) native placements in a session")
                }
            }
            scenes.append(ScreenState.Scene(id: id, banner: bannerLayout, playerHeight: playerHeights[id]))
        }
        let ids = scenes.map(\.id)
        let arrangement = try reader.arrangement(top["layout"], ids: ids, frames: frames, device: device)
        if arrangement.map({ if case .free = $0 { false } else { true } }) ?? true, !frames.isEmpty {
            throw SessionFileError(file: file, path: "scenes[\(ids.firstIndex(of: frames[0].scene)!)].frame",
                                   "a frame needs \"layout\": \"free\"")
        }
        // The primary player's scene first, where the render has always drawn the player.
        if let player = players.first, let index = scenes.firstIndex(where: { $0.id == player.scene }) {
            scenes.insert(scenes.remove(at: index), at: 0)
        }
        let chosen = arrangement ?? (scenes.count >= 2 && device.supportsMultipleScenes
            ? .split(leading: ids[0], trailing: ids[1], .half) : .fullScreen(ids[0]))
        var screen = ScreenState(device: device, orientation: orientation, fold: fold, scenes: scenes,
                                 arrangement: chosen, pointScale: pointScale)
        var active: SceneID?
        for (id, state, at) in states {
            let onScreen = chosen.scenesOnScreen.contains(id)
            switch state {
            case .background where onScreen:
                throw SessionFileError(file: file, path: at, "scene \"\(id.description.excerpt)\" is on screen in this layout, so it is not in the background")
            case .foregroundActive where !onScreen, .foregroundInactive where !onScreen:
                throw SessionFileError(file: file, path: at, "scene \"\(id.description.excerpt)\" is not on screen in this layout")
            case .foregroundActive:
                guard active == nil else { throw SessionFileError(file: file, path: at, "scene \"\(active!.description.excerpt)\" is already foregroundActive") }
                active = id
            default:
                break
            }
        }
        if let active { screen.activeScene = active }
        let canvas = ScreenCanvas(initial: screen, rotates: true).size
        let sides = SessionFileLimits.canvasSides
        guard sides.contains(canvas.width), sides.contains(canvas.height) else {
            throw SessionFileError(file: file, path: pointScale == nil ? "device" : "pointScale",
                                   "the screen is \(canvas) pixels (both orientations), outside the limit of \(sides.lowerBound)x\(sides.lowerBound) to \(sides.upperBound)x\(sides.upperBound)")
        }
        let script: String?
        switch top["script"] {
        case nil: script = nil
        case let text as String: script = text
        case let lines as [Any]:
            script = try lines.enumerated().map { i, line throws(SessionFileError) in try reader.string(line, "script[\(i)]") }
                .joined(separator: "\n")
        default: throw SessionFileError(file: file, path: "script", "not a string or an array of strings")
        }
        if let script {
            // Only the size is checked here; a command that cannot be read is reported where the script is applied.
            do throws(ScriptError) { _ = try SessionScript(parsing: script) } catch {
                if case .tooLarge = error { throw SessionFileError(file: file, path: "script", error.limitDescription) }
            }
        }
        let urlMap = try top["urlMap"].map { v throws(SessionFileError) in try reader.string(v, "urlMap") }
        self.init(screen: screen, testMode: testMode, banners: banners, fullScreenAds: fullScreenAds, nativePlacements: natives,
                  players: players, script: script, urlMap: urlMap, directory: URL(fileURLWithPath: file).deletingLastPathComponent().path)
    }
}
