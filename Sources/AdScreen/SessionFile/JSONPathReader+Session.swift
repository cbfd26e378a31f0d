import AdPlayback
import MediaCore

/// The values only a session file has: a custom device, a rectangle, a screen ad's placement, a scene arrangement.
extension JSONPathReader {
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
