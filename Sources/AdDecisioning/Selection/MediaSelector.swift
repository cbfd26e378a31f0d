import MediaCore

/// Chooses the media file rendition to play, and records why each one was taken or refused.
///
/// A rendition is refused when the origin policy refuses it (`OriginPolicy`), when it is VPAID or Flash (`apiFramework="VPAID"`, `application/javascript`,
/// `application/x-shockwave-flash`), streamed (`delivery="streaming"`, HLS or DASH types), of a type not in
/// `allowedMIMETypes` (a missing type is guessed from the URL's extension), or above `maximumBitrate` (the
/// `bitrate`, else `maxBitrate`, else `minBitrate`; unknown passes), or larger than `PictureLimit.creatives` by
/// its `width` and `height` (unknown passes; the file is checked again when it is opened).
///
/// Among the acceptable ones, the best fit for the window is:
/// 1. the smallest (by area) rendition at least as large as the window in both dimensions, so that it is scaled
///    down, never up;
/// 2. if none is that large, the largest rendition;
/// 3. renditions of unknown size only when no rendition has a size.
/// Ties of size go to the highest bitrate (all are under the cap), then to document order. The other acceptable
/// renditions are ranked by the same rule (`MediaSelection.preference`): the fallbacks, in order, when the chosen
/// one turns out to be missing, fails to download or cannot be decoded.
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
        let ranked = rank(acceptable, of: files)
        let chosenIndex = ranked[0]
        let chosenSize = size(of: files[chosenIndex])
        let why = if let chosenSize, chosenSize.width >= window.width, chosenSize.height >= window.height {
            "best fit: the smallest rendition covering \(window)"
        } else if chosenSize != nil {
            "best fit: the largest rendition, none covers \(window)"
        } else {
            "chosen: no rendition states its size"
        }
        candidates[chosenIndex].reason = why
        for (position, i) in ranked.enumerated().dropFirst() {
            candidates[i].reason = "acceptable, not the best fit for \(window) (fallback \(position))"
        }
        return (MediaSelection(chosen: files[chosenIndex], candidates: candidates, preference: ranked), nil)
    }

    /// The acceptable renditions `acceptable` (indices into `files`) best first: those covering the window,
    /// smallest first; then the other sized ones, largest first; then those of unknown size. Within each group,
    /// the higher bitrate first, then document order. The first is the choice; the others are what a player falls
    /// back to, in order, when the chosen one cannot be fetched or decoded.
    private func rank(_ acceptable: [Int], of files: [MediaFile]) -> [Int] {
        let window = settings.window
        func covers(_ i: Int) -> Bool {
            guard let s = size(of: files[i]) else { return false }
            return s.width >= window.width && s.height >= window.height
        }
        func group(_ i: Int) -> Int { covers(i) ? 0 : size(of: files[i]) != nil ? 1 : 2 }
        return acceptable.sorted { a, b in
            let ga = group(a), gb = group(b)
            if ga != gb { return ga < gb }
            if ga < 2 {
                let areaA = size(of: files[a])!.area, areaB = size(of: files[b])!.area
                if areaA != areaB { return ga == 0 ? areaA < areaB : areaA > areaB }
            }
            if rate(files[a]) != rate(files[b]) { return rate(files[a]) > rate(files[b]) }
            return a < b
        }
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
        if let size = size(of: file), let refusal = PictureLimit.creatives.refusal(of: size) {
            return (refusal, false)
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
