import MediaCore

/// Chooses the media file rendition to play, and records why each one was taken or refused.
///
/// A rendition is refused when the origin policy refuses it (`OriginPolicy`), when it is VPAID or Flash (`apiFramework="VPAID"`, `application/javascript`,
/// `application/x-shockwave-flash`), streamed (`delivery="streaming"`, HLS or DASH types), of a type not in
/// `allowedMIMETypes` (a missing type is guessed from the URL's extension), or above `maximumBitrate` (the
/// `bitrate`, else `maxBitrate`, else `minBitrate`; unknown passes).
///
/// Among the acceptable ones, the best fit for the window is:
/// 1. the smallest (by area) rendition at least as large as the window in both dimensions, so that it is scaled
///    down, never up;
/// 2. if none is that large, the largest rendition;
/// 3. renditions of unknown size only when no rendition has a size.
/// Ties of size go to the highest bitrate (all are under the cap), then to document order.
public struct MediaSelector: Sendable {
    public var settings: MediaSelectionSettings

    public init(settings: MediaSelectionSettings = MediaSelectionSettings()) {
        self.settings = settings
    }

    /// Why nothing could be chosen.
    public struct Failure: Hashable, Sendable {
        /// 901 when every refused rendition was VPAID/Flash, otherwise 403.
        public var code: VASTErrorCode
        public var reason: String
    }

    /// Chooses among `files`.
    ///
    /// - Returns: the selection (chosen rendition and one candidate entry per file, in document order), and the
    ///   failure when nothing was chosen.
    public func select(_ files: [MediaFile]) -> (MediaSelection, Failure?) {
        var candidates: [MediaSelection.Candidate] = []
        var acceptable: [Int] = []
        var vpaidCount = 0
        for file in files {
            switch refusal(of: file) {
            case .some((let reason, let isVPAID)):
                if isVPAID { vpaidCount += 1 }
                candidates.append(.init(file: file, accepted: false, reason: reason))
            case .none:
                acceptable.append(candidates.count)
                candidates.append(.init(file: file, accepted: true, reason: ""))
            }
        }
        guard !acceptable.isEmpty else {
            let failure = vpaidCount > 0 && vpaidCount == files.count
                ? Failure(code: .vpaid, reason: "VPAID creatives are not played and there is no other MediaFile")
                : Failure(code: .noSupportedMedia,
                          reason: files.isEmpty ? "no MediaFile" : "none of \(files.count) MediaFile(s) can be played: "
                              + candidates.map(\.reason).joined(separator: "; "))
            return (MediaSelection(chosen: nil, candidates: candidates), failure)
        }
        let window = settings.window
        let sized = acceptable.filter { size(of: files[$0]) != nil }
        let covering = sized.filter { let s = size(of: files[$0])!; return s.width >= window.width && s.height >= window.height }
        let chosenIndex: Int
        let why: String
        if let best = covering.min(by: { better(files[$0], than: files[$1], preferLarger: false) }) {
            chosenIndex = best
            why = "best fit: the smallest rendition covering \(window)"
        } else if let best = sized.min(by: { better(files[$0], than: files[$1], preferLarger: true) }) {
            chosenIndex = best
            why = "best fit: the largest rendition, none covers \(window)"
        } else {
            chosenIndex = acceptable.min { rate(files[$0]) > rate(files[$1]) }!
            why = "chosen: no rendition states its size"
        }
        for i in acceptable {
            candidates[i].reason = i == chosenIndex ? why : "acceptable, not the best fit for \(window)"
        }
        return (MediaSelection(chosen: files[chosenIndex], candidates: candidates), nil)
    }

    /// `a` is preferred to `b`: smaller area (or larger with `preferLarger`), then higher bitrate. Returning
    /// false for ties keeps `min(by:)` on the first in document order.
    private func better(_ a: MediaFile, than b: MediaFile, preferLarger: Bool) -> Bool {
        let areaA = size(of: a)!.area, areaB = size(of: b)!.area
        if areaA != areaB { return preferLarger ? areaA > areaB : areaA < areaB }
        return rate(a) > rate(b)
    }

    private func size(of file: MediaFile) -> PixelSize? {
        guard let w = file.width, let h = file.height, w > 0, h > 0 else { return nil }
        return PixelSize(width: w, height: h)
    }

    private func rate(_ file: MediaFile) -> Int { file.bitrate ?? file.maxBitrate ?? file.minBitrate ?? -1 }

    /// Why `file` cannot be played, and whether it is VPAID/Flash; `nil` when it can.
    func refusal(of file: MediaFile) -> (String, Bool)? {
        if let refusal = file.originRefusal { return (refusal, false) }
        let type = MediaSelector.mimeType(of: file)
        if file.apiFramework?.trimmingSpaces.uppercased() == "VPAID" {
            return ("VPAID creative (apiFramework VPAID) is not played", true)
        }
        if let type, MediaSelector.interactiveTypes.contains(type) {
            return ("\(type) is an interactive (VPAID/Flash) creative, not played", true)
        }
        if let type, MediaSelector.streamingTypes.contains(type) {
            return ("\(type) is streaming (HLS/DASH), not supported yet", false)
        }
        if file.delivery?.trimmingSpaces.lowercased() == "streaming" {
            return ("streaming delivery is not supported yet", false)
        }
        guard let type else { return ("no type, and none can be guessed from the URL", false) }
        guard settings.allowedMIMETypes.contains(where: { $0.lowercased() == type }) else {
            return ("type \(type) is not allowed", false)
        }
        if let cap = settings.maximumBitrate, let bitrate = file.bitrate ?? file.maxBitrate ?? file.minBitrate, bitrate > cap {
            return ("bitrate \(bitrate) kbit/s above the maximum \(cap)", false)
        }
        return nil
    }

    static let interactiveTypes: Set<String> = [
        "application/javascript", "application/x-javascript", "text/javascript", "application/x-shockwave-flash",
    ]
    static let streamingTypes: Set<String> = [
        "application/x-mpegurl", "application/vnd.apple.mpegurl", "audio/mpegurl", "application/dash+xml",
    ]

    /// The file's type in lower case without parameters, or one guessed from the URL's extension.
    static func mimeType(of file: MediaFile) -> String? {
        if let written = file.type?.split(separator: ";").first?.trimmingSpaces.lowercased(), !written.isEmpty {
            return written
        }
        return mimeType(forExtensionOf: file.url)
    }

    /// The MIME type for a URL or path's extension, for the containers this project knows.
    static func mimeType(forExtensionOf url: String) -> String? {
        var path = Substring(url)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "mp4": return "video/mp4"
        case "m4v": return "video/x-m4v"
        case "mov": return "video/quicktime"
        case "mkv": return "video/x-matroska"
        case "webm": return "video/webm"
        case "flv": return "video/x-flv"
        case "3gp": return "video/3gpp"
        case "mpg", "mpeg": return "video/mpeg"
        case "ogv": return "video/ogg"
        case "m3u8": return "application/x-mpegurl"
        case "mpd": return "application/dash+xml"
        case "js": return "application/javascript"
        case "swf": return "application/x-shockwave-flash"
        default: return nil
        }
    }
}
