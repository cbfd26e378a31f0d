import AdPlayback
import Foundation
import MediaCore

/// Reads OpenRTB Native 1.2 responses and pipctl's slider block (docs/NATIVE.md, docs/native.schema.json).
///
/// The structure has a fixed depth, so reading it walks the parsed JSON with loops, never recursion that grows with
/// the input; the number of cards, of assets and trackers per ad, and the length of every string are capped, so a
/// hostile response costs at most `limits` (on top of the fetch's size limit).
public struct NativeResponseParser: Sendable {
    /// The caps on what one response may hold.
    public struct Limits: Hashable, Sendable {
        /// Cards in a block.
        public var maximumAds: Int
        /// Assets of one ad or of the block.
        public var maximumAssets: Int
        /// Click trackers, impression trackers and event trackers of one ad, each.
        public var maximumTrackers: Int
        /// Characters of any string (a URL, a title, a body).
        public var maximumStringLength: Int

        public init(maximumAds: Int = 32, maximumAssets: Int = 32, maximumTrackers: Int = 16, maximumStringLength: Int = 4096) {
            self.maximumAds = maximumAds
            self.maximumAssets = maximumAssets
            self.maximumTrackers = maximumTrackers
            self.maximumStringLength = maximumStringLength
        }
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The block a response describes: a slider block (`ads`: the cards, `assets`: the block's own), or a plain
    /// OpenRTB native response (optionally wrapped in `{"native": …}`) as a block of one card without block
    /// assets.
    ///
    /// - Parameter source: how to name the document in errors (its path or URL).
    /// - Throws: `NativeError.invalidResponse` naming the JSON path of the first bad value; `.noFill` for an
    ///   empty document (an HTTP 204) or an empty `ads`.
    public func parse(_ data: Data, source: String) throws(NativeError) -> NativeBlock {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw .noFill(source: source) }
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw .invalidResponse(source: source, path: "", message: "not JSON (\((error as NSError).localizedDescription))")
        }
        let reader = Reader(source: source, limits: limits)
        let top = try reader.object(root, "")
        if let wrapped = top["native"], top["ads"] == nil {
            let ad = try reader.ad(try reader.object(wrapped, "native"), "native", defaultID: source)
            return NativeBlock(assets: [], ads: [ad])
        }
        guard let adsValue = top["ads"] else {
            return NativeBlock(assets: [], ads: [try reader.ad(top, "", defaultID: source)])
        }
        let assets = try top["assets"].map { v throws(NativeError) in try reader.assets(v, "assets") } ?? []
        let ads = try reader.array(adsValue, "ads", limit: limits.maximumAds)
        guard !ads.isEmpty else { throw .noFill(source: source) }
        var cards: [NativeAd] = []
        for (i, value) in ads.enumerated() {
            let at = "ads[\(i)]"
            let ad = try reader.ad(try reader.object(value, at), at, defaultID: nil)
            if let earlier = cards.firstIndex(where: { $0.id == ad.id }) {
                throw .invalidResponse(source: source, path: at + ".adid", message: "\"\(ad.id.excerpt)\" is the adid of ads[\(earlier)] too")
            }
            cards.append(ad)
        }
        return NativeBlock(assets: assets, ads: cards)
    }

    /// Walks the JSON, naming the path of each value it refuses.
    private struct Reader {
        let source: String
        let limits: Limits

        func fail(_ path: String, _ message: String) -> NativeError {
            .invalidResponse(source: source, path: path, message: message)
        }

        /// The session file's JSON reader's answer, its error turned into this domain's.
        func read<T>(_ body: (JSONPathReader) throws(SessionFileError) -> T) throws(NativeError) -> T {
            do throws(SessionFileError) { return try body(JSONPathReader(file: source)) } catch { throw fail(error.path, error.message) }
        }

        func object(_ value: Any?, _ path: String) throws(NativeError) -> [String: Any] {
            try read { reader throws(SessionFileError) in try reader.object(value, path) }
        }

        func array(_ value: Any?, _ path: String, limit: Int) throws(NativeError) -> [Any] {
            let array = try read { reader throws(SessionFileError) in try reader.array(value, path) }
            guard array.count <= limit else { throw fail(path, "\(array.count) entries, more than the limit of \(limit)") }
            return array
        }

        func string(_ value: Any?, _ path: String) throws(NativeError) -> String {
            let text = try read { reader throws(SessionFileError) in try reader.string(value, path) }
            guard text.utf16.count <= limits.maximumStringLength else {
                throw fail(path, "longer than the limit of \(limits.maximumStringLength) characters")
            }
            return text
        }

        func int(_ value: Any?, _ path: String) throws(NativeError) -> Int {
            try read { reader throws(SessionFileError) in try reader.int(value, path) }
        }

        func url(_ value: Any?, _ path: String) throws(NativeError) -> String {
            let text = try string(value, path)
            guard !text.trimmingSpaces.isEmpty else { throw fail(path, "is empty") }
            return text.trimmingSpaces
        }

        func urls(_ value: Any?, _ path: String) throws(NativeError) -> [String] {
            guard let value else { return [] }
            var out: [String] = []
            for (i, item) in try array(value, path, limit: limits.maximumTrackers).enumerated() {
                out.append(try url(item, "\(path)[\(i)]"))
            }
            return out
        }

        func ad(_ object: [String: Any], _ path: String, defaultID: String?) throws(NativeError) -> NativeAd {
            let at = { (key: String) in path.isEmpty ? key : "\(path).\(key)" }
            let id: String
            if let value = object["adid"] {
                id = try string(value, at("adid"))
                guard !id.isEmpty else { throw fail(at("adid"), "is empty") }
            } else if let defaultID {
                id = defaultID
            } else {
                throw fail(at("adid"), "is missing (each card needs the bid's ad id)")
            }
            let creativeID = try object["crid"].map { v throws(NativeError) in try string(v, at("crid")) }
            let assets = try self.assets(object["assets"], at("assets"))
            let link = try self.link(object["link"], at("link"))
            let impressions = try urls(object["imptrackers"], at("imptrackers"))
            var trackers: [NativeEventTracker] = []
            if let value = object["eventtrackers"] {
                for (i, item) in try array(value, at("eventtrackers"), limit: limits.maximumTrackers).enumerated() {
                    let p = "\(at("eventtrackers"))[\(i)]"
                    let tracker = try self.object(item, p)
                    trackers.append(NativeEventTracker(event: .init(code: try int(tracker["event"], p + ".event")),
                                                       method: .init(code: try int(tracker["method"], p + ".method")),
                                                       url: try url(tracker["url"], p + ".url")))
                }
            }
            return NativeAd(id: id, creativeID: creativeID, assets: assets, link: link, impressionTrackers: impressions,
                            eventTrackers: trackers)
        }

        func link(_ value: Any?, _ path: String) throws(NativeError) -> NativeLink {
            let object = try self.object(value, path)
            return NativeLink(url: try url(object["url"], path + ".url"), clickTrackers: try urls(object["clicktrackers"], path + ".clicktrackers"))
        }

        func assets(_ value: Any?, _ path: String) throws(NativeError) -> [NativeAsset] {
            var out: [NativeAsset] = []
            for (i, item) in try array(value, path, limit: limits.maximumAssets).enumerated() {
                out.append(try asset(try object(item, "\(path)[\(i)]"), "\(path)[\(i)]"))
            }
            return out
        }

        func asset(_ object: [String: Any], _ path: String) throws(NativeError) -> NativeAsset {
            let id = try object["id"].map { v throws(NativeError) in try int(v, path + ".id") }
            var required = false
            if let value = object["required"] {
                let flag = try int(value, path + ".required")
                guard flag == 0 || flag == 1 else { throw fail(path + ".required", "\(flag) is not 0 or 1") }
                required = flag == 1
            }
            let kinds = ["title", "img", "data", "video"].filter { object[$0] != nil }
            guard kinds.count == 1, let kind = kinds.first else {
                throw fail(path, kinds.isEmpty ? "has none of title, img, data, video" : "has \(kinds.joined(separator: " and ")); an asset holds exactly one")
            }
            let at = "\(path).\(kind)"
            let inner = try self.object(object[kind], at)
            let content: NativeAsset.Content
            switch kind {
            case "title":
                content = .title(try string(inner["text"], at + ".text"))
            case "img":
                let type = try inner["type"].map { v throws(NativeError) in try int(v, at + ".type") }
                var size: PointSize?
                if inner["w"] != nil || inner["h"] != nil {
                    let w = try int(inner["w"], at + ".w"), h = try int(inner["h"], at + ".h")
                    guard w > 0, h > 0, w <= 16384, h <= 16384 else { throw fail(at, "w and h must be 1…16384") }
                    size = PointSize(width: w, height: h)
                }
                // Without a type the image is the ad's main image, as exchanges send a lone `img`.
                content = .image(kind: NativeImageKind(code: type ?? 3), url: try url(inner["url"], at + ".url"), size: size)
            case "data":
                let type = try inner["type"].map { v throws(NativeError) in try int(v, at + ".type") }
                guard let type else { throw fail(at + ".type", "is missing (the response must say which data asset this is)") }
                content = .data(kind: NativeDataKind(code: type), value: try string(inner["value"], at + ".value"))
            default:
                content = .video(vastTag: try string(inner["vasttag"], at + ".vasttag"))
            }
            return NativeAsset(id: id, isRequired: required, content: content)
        }
    }
}
