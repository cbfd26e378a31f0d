import AdDecisioning
import AdPlayback
import Foundation
import MediaCore

/// Fetches and reads a native response with the limits of every other ad fetch: `AdsLoaderSettings`' first
/// request deadline, document size limit, URL map and `OriginPolicy`.
///
/// Relative URLs in the response are resolved against the document's location. A response fetched over
/// http(s) may only name http(s) resources: an image or VAST tag naming a local file (or another scheme) is
/// refused (`NativeAsset.refusal`: never laid out, so a required one fails binding); such trackers are dropped. Each drop is a
/// warning in `NativeLoadResult.warnings`. The link URL is only recorded, never opened, so it is kept.
public struct NativeAdLoader: Sendable {
    public var settings: AdsLoaderSettings
    /// The directory relative paths are read from.
    public var directory: String
    public var parser: NativeResponseParser
    /// Files no image may be read from: `play`'s outputs (the recording, its timeline, event log and command log),
    /// which a response loaded as it plays may name, though nobody knew it before the session started. Compared
    /// by identity (`FileIdentity`) when the image is fetched; such an image is one that cannot be fetched.
    public var forbiddenFiles: [FileIdentity.Named] = []

    public init(settings: AdsLoaderSettings = AdsLoaderSettings(), directory: String = FileManager.default.currentDirectoryPath,
                parser: NativeResponseParser = NativeResponseParser()) {
        self.settings = settings
        self.directory = directory
        self.parser = parser
    }

    /// Where an image or a response at `url` is read from (relative paths from `directory`), as the timeline names a
    /// source; `nil` for what is no location.
    public func origin(of url: String) -> String? {
        ResourceLocation(userInput: url, relativeTo: directory)?.description
    }

    /// What a load gives: the block, where it was read from (the base of an inline VAST's relative URLs and the
    /// origin its policy judges), and what the origin policy dropped from it.
    public struct NativeLoadResult: Hashable, Sendable {
        public var block: NativeBlock
        public var location: ResourceLocation
        public var warnings: [String]
    }

    /// The block at `request` (a path, a `file:` URL or an http(s) URL).
    ///
    /// - Throws: `NativeError.fetch` (unreachable, HTTP status ≥ 400, timed out, too large, bad request URL as
    ///   `.unreachable`), `.invalidResponse`, `.noFill`.
    public func load(_ request: String) async throws(NativeError) -> NativeLoadResult {
        guard let location = ResourceLocation(userInput: request, relativeTo: directory) else {
            throw .fetch(.unreachable(source: request, reason: "not an http(s) URL, a file: URL or a path"))
        }
        let fetcher = DocumentFetcher(urlMap: settings.urlMap, maximumBytes: settings.maximumDocumentBytes)
        let data: Data
        do { data = try await fetcher.fetch(location, timeout: settings.firstRequestTimeout) } catch { throw .fetch(error) }
        let block = try parser.parse(data, source: location.description)
        return sanitized(block, at: location)
    }

    /// `block` with its URLs resolved against `location` and those its origin does not allow dropped.
    func sanitized(_ block: NativeBlock, at location: ResourceLocation) -> NativeLoadResult {
        var warnings: [String] = []
        let policy = settings.originPolicy
        /// `asset` with `url` replaced by `make(resolved)`, or refused with the reason.
        func resolve(_ asset: NativeAsset, _ url: String, _ make: (String) -> NativeAsset.Content) -> NativeAsset {
            var out = asset
            let refusal: String
            if let target = location.resolving(url) {
                guard let why = policy.refusal(ofDocument: target, from: location) else {
                    out.content = make(target.description)
                    return out
                }
                refusal = why
            } else {
                refusal = "not an http(s) URL, a file: URL or a path"
            }
            warnings.append("\(location): '\(url)' refused: \(refusal)")
            out.refusal = "'\(url)' refused: \(refusal)"
            return out
        }
        func beacons(_ urls: [String]) -> [String] {
            urls.compactMap { url in
                let resolved = ResourceLocation.scheme(of: url) == nil ? location.resolving(url)?.description ?? url : url
                guard policy.allows(beacon: resolved, from: location) else {
                    warnings.append("\(location): '\(url)' dropped: a document fetched over http(s) may only use http(s) URLs for trackers")
                    return nil
                }
                return resolved
            }
        }
        func assets(_ assets: [NativeAsset]) -> [NativeAsset] {
            assets.map { asset in
                switch asset.content {
                case .image(let kind, let url, let size):
                    resolve(asset, url) { .image(kind: kind, url: $0, size: size) }
                case .video(let tag) where !tag.trimmingSpaces.hasPrefix("<"):
                    // A `vasttag` holds the VAST XML itself, or (as exchanges also send) its URL.
                    resolve(asset, tag) { .video(vastTag: $0) }
                case .title, .data, .video:
                    asset
                }
            }
        }
        var out = block
        out.assets = assets(block.assets)
        for i in out.ads.indices {
            out.ads[i].assets = assets(out.ads[i].assets)
            out.ads[i].impressionTrackers = beacons(out.ads[i].impressionTrackers)
            out.ads[i].link.clickTrackers = beacons(out.ads[i].link.clickTrackers)
            out.ads[i].eventTrackers = out.ads[i].eventTrackers.compactMap { tracker in
                beacons([tracker.url]).first.map { NativeEventTracker(event: tracker.event, method: tracker.method, url: $0) }
            }
        }
        return NativeLoadResult(block: out, location: location, warnings: warnings)
    }
}
