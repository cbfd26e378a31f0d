import Foundation
import MediaCore

extension ScreenSession {
    /// The session of the session file at `path`, its size checked before it is read whole.
    ///
    /// - Throws: `SessionFileError` for a file that cannot be read, is larger than
    ///   `SessionFileLimits.maximumFileBytes`, or that `init(sessionFile:file:)` refuses.
    public init(contentsOfSessionFile path: String) throws(SessionFileError) {
        let data: Data
        do throws(BoundedRead.Failure) {
            data = try BoundedRead.contents(ofFile: path, limit: SessionFileLimits.maximumFileBytes)
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

/// Reads JSON values, naming the JSON path of the one that is wrong.
struct JSONPathReader {
    let file: String

    /// Refuses a custom device (`WxH[@scale]`) larger than `SessionFileLimits.maximumDeviceSide` points or with a
    /// scale outside `SessionFileLimits.scales`, before any size is computed from it.
    func checkCustom(_ device: Device) throws(SessionFileError) {
        let limit = SessionFileLimits.maximumDeviceSide
        if let side = device.displays.map(\.portraitSize.longSide).max(), side > limit {
            throw fail("device", "\(side) points is more than the limit of \(limit) points a side")
        }
        try checkScale(device.nativeScale, "device")
    }

    /// Refuses a scale outside `SessionFileLimits.scales` or with a denominator above 1000.
    func checkScale(_ scale: Rational, _ path: String) throws(SessionFileError) {
        let range = SessionFileLimits.scales
        guard range.contains(scale), scale.denominator <= SessionFileLimits.maximumScaleDenominator else {
            throw fail(path, "scale \(scale) is outside the limit of \(range.lowerBound) to \(range.upperBound) (at most three decimals)")
        }
    }

    func fail(_ path: String, _ message: String) -> SessionFileError { SessionFileError(file: file, path: path, message) }

    func object(_ value: Any?, _ path: String) throws(SessionFileError) -> [String: Any] {
        guard let value else { throw fail(path, "is missing") }
        guard let object = value as? [String: Any] else { throw fail(path, "not an object") }
        return object
    }

    func array(_ value: Any?, _ path: String) throws(SessionFileError) -> [Any] {
        guard let value else { throw fail(path, "is missing") }
        guard let array = value as? [Any] else { throw fail(path, "not an array") }
        return array
    }

    func string(_ value: Any?, _ path: String) throws(SessionFileError) -> String {
        guard let value else { throw fail(path, "is missing") }
        guard let text = value as? String else { throw fail(path, "not a string") }
        return text
    }

    func bool(_ value: Any, _ path: String) throws(SessionFileError) -> Bool {
        guard let number = value as? NSNumber, Self.isBoolean(number) else { throw fail(path, "not true or false") }
        return number.boolValue
    }

    func int(_ value: Any?, _ path: String) throws(SessionFileError) -> Int {
        guard let value else { throw fail(path, "is missing") }
        guard let number = value as? NSNumber, !Self.isBoolean(number),
              let whole = Int(exactly: number.doubleValue) else { throw fail(path, "not a whole number") }
        return whole
    }

    /// Whether JSONSerialization read `number` from `true` or `false` (an NSNumber of type `c`), not from 1 or 0.
    static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    func choice<T: RawRepresentable & CaseIterable>(_ value: Any, _ path: String, _ type: T.Type) throws(SessionFileError) -> T
        where T.RawValue == String {
        let text = try string(value, path)
        guard let chosen = T(rawValue: text) else {
            throw fail(path, "\"\(text.excerpt)\" is not one of \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        return chosen
    }

    /// Refuses a key this object does not have, so that a misspelt one is not silently ignored.
    func only(_ object: [String: Any], _ keys: Set<String>, _ path: String) throws(SessionFileError) {
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw fail(path.isEmpty ? unknown : "\(path).\(unknown)", "unknown key (expected one of \(keys.sorted().joined(separator: ", ")))")
        }
    }

    func rect(_ value: Any, _ path: String) throws(SessionFileError) -> PointRect {
        let object = try self.object(value, path)
        try only(object, ["x", "y", "width", "height"], path)
        let rect = PointRect(x: try int(object["x"], path + ".x"), y: try int(object["y"], path + ".y"),
                             width: try int(object["width"], path + ".width"), height: try int(object["height"], path + ".height"))
        guard rect.width > 0, rect.height > 0 else { throw fail(path, "width and height must be positive") }
        return rect
    }

    /// A banner's or a full-screen ad's `{"source": …, "setsScene": …}`.
    func placement(_ value: Any, _ path: String, extra: Set<String>) throws(SessionFileError) -> (CreativeSource, Bool) {
        let object = try self.object(value, path)
        try only(object, Set(["source", "setsScene"]).union(extra), path)
        let text = try string(object["source"], path + ".source")
        guard !text.isEmpty else { throw fail(path + ".source", "is empty") }
        if text.contains("://"), !["http://", "https://", "file://"].contains(where: { text.lowercased().hasPrefix($0) || text.lowercased().hasPrefix("vast:" + $0) }) {
            throw fail(path + ".source", "\"\(text.excerpt)\" is not an http(s) URL or a path")
        }
        let setsScene = try object["setsScene"].map { v throws(SessionFileError) in try bool(v, path + ".setsScene") } ?? true
        return (CreativeSource(argument: text), setsScene)
    }

    /// `layout`: `full`, `split 1/2`, `split 2/3`, `split 1/3`, `slide-over` or `free` (each scene's `frame`);
    /// `nil` when absent (the screen's default).
    func arrangement(_ value: Any?, ids: [SceneID], frames: [SceneArrangement.FreeFrame],
                     device: Device) throws(SessionFileError) -> SceneArrangement? {
        guard let value else { return nil }
        let text = try string(value, "layout")
        let multi = device.supportsMultipleScenes
        func needsTwo() throws(SessionFileError) {
            guard ids.count >= 2 else { throw fail("layout", "\"\(text.excerpt)\" needs two scenes") }
            guard multi else { throw fail("layout", "\"\(text.excerpt)\": device \"\(device.name.excerpt)\" shows one scene at a time") }
        }
        switch text {
        case "full":
            return .fullScreen(ids[0])
        case "slide-over":
            try needsTwo()
            return .slideOver(primary: ids[0], floating: ids[1])
        case "free":
            guard !frames.isEmpty else { throw fail("layout", "\"free\" needs a frame in at least one scene") }
            return .free(frames)
        default:
            if text.hasPrefix("split "), let fraction = SplitFraction(rawValue: String(text.dropFirst(6))) {
                try needsTwo()
                return .split(leading: ids[0], trailing: ids[1], fraction)
            }
            throw fail("layout", "\"\(text.excerpt)\" is not one of \"full\", \"split 1/2\", \"split 2/3\", \"split 1/3\", \"slide-over\", \"free\"")
        }
    }
}
