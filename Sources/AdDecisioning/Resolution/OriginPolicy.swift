import Foundation

/// What a document may reference, by where it came from: the rule that keeps every ad server of a wrapper chain
/// away from the user's files.
///
/// A document's origin is its location: one fetched over http(s) is remote, even when `--url-map` serves that URL
/// from a file (the map is the user's own choice of file, so what it maps to is allowed); a file the user named,
/// and every file reached from it, is local. The origin propagates along the chain because each document's
/// references are resolved against its own location: a local file's wrapper pointing at http makes the inner
/// document remote. A remote document may reference http(s) URLs only:
/// - a wrapper's `VASTAdTagURI` or a VMAP `AdTagURI` naming a local file is refused with 301 (the VAST table's
///   "VAST URI … unavailable");
/// - a `MediaFile` naming a local file or another scheme is a refused rendition (`MediaFile.originRefusal`), so
///   the ad fails with 403 when no rendition is left, unless the file lies inside `localMediaDirectory`
///   (`--allow-local-media DIR`) after symlinks and `..` are resolved;
/// - tracking, impression, error and click URLs and companion/overlay resources that are not http(s) are dropped
///   with a warning.
/// Refusals never depend on whether the file exists, so neither the error code nor the message tells a remote
/// server which local files are there.
public struct OriginPolicy: Hashable, Sendable {
    /// The folder (symlinks resolved) in which a remote document's MediaFiles may name local files; `nil` for none.
    public var localMediaDirectory: String?

    public init(localMediaDirectory: String? = nil) {
        self.localMediaDirectory = localMediaDirectory
    }

    /// `path` with symlinks and `..` resolved, or `nil` when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Why a document at `document` may not load the document (wrapper or ad tag) at `target`; `nil` when it may.
    package func refusal(ofDocument target: ResourceLocation, from document: ResourceLocation) -> String? {
        guard case .remote(let url) = document, case .file(let path) = target else { return nil }
        return "\(url.absoluteString) was fetched over http(s) and may not reference the local file \(path)"
    }

    /// Why the MediaFile `url` (absolute, or a path) of the document at `document` is refused; `nil` when it may
    /// be played.
    package func refusal(ofMedia url: String, from document: ResourceLocation) -> String? {
        guard document.isRemote else { return nil }
        switch ResourceLocation.scheme(of: url) {
        case "http", "https":
            return nil
        case "file":
            let path = URL(string: url)?.path ?? url
            if let directory = localMediaDirectory, let real = OriginPolicy.realPath(path),
               real.hasPrefix(directory == "/" ? "/" : directory + "/") {
                return nil
            }
            return localMediaDirectory.map { "local file refused: the document came over http(s) and \(path) is not inside --allow-local-media \($0)" }
                ?? "local file refused: a document fetched over http(s) may only name http(s) media (see --allow-local-media)"
        case let scheme?:
            return "\(scheme): URL refused: a document fetched over http(s) may only name http(s) media"
        case nil:
            return "local path refused: a document fetched over http(s) may only name http(s) media"
        }
    }

    /// True when a beacon, click or resource URL of a document at `document` may be kept: any from a local
    /// document, only http(s) from a remote one.
    package func allows(beacon url: String, from document: ResourceLocation) -> Bool {
        guard document.isRemote else { return true }
        let scheme = ResourceLocation.scheme(of: url.trimmingSpaces)
        return scheme == "http" || scheme == "https"
    }

    /// `document` (found at `location`) without the beacon, click and resource URLs its origin does not allow;
    /// each one dropped is a warning naming it.
    package func sanitized(_ document: VASTDocument, at location: ResourceLocation) -> VASTDocument {
        guard location.isRemote else { return document }
        var dropped: [String] = []
        func keep(_ urls: [String]) -> [String] {
            urls.filter { url in
                if allows(beacon: url, from: location) { return true }
                dropped.append(url)
                return false
            }
        }
        func keep(_ url: String?) -> String? { url.flatMap { keep([$0]).first } }
        func keep(_ events: [TrackingEvent]) -> [TrackingEvent] {
            events.filter { !keep([$0.url]).isEmpty }
        }
        func keep(_ resources: [VASTResource]) -> [VASTResource] {
            resources.filter { resource in
                switch resource {
                case .staticResource(let url, _), .iframe(let url): !keep([url]).isEmpty
                case .html: true
                }
            }
        }
        var out = document
        out.errorURLs = keep(out.errorURLs)
        for a in out.ads.indices {
            out.ads[a].impressions = keep(out.ads[a].impressions)
            out.ads[a].errorURLs = keep(out.ads[a].errorURLs)
            for c in out.ads[a].creatives.indices {
                if var linear = out.ads[a].creatives[c].linear {
                    linear.tracking = keep(linear.tracking)
                    linear.clickThrough = keep(linear.clickThrough)
                    linear.clickTracking = keep(linear.clickTracking)
                    linear.customClicks = keep(linear.customClicks)
                    out.ads[a].creatives[c].linear = linear
                }
                for k in out.ads[a].creatives[c].companions.indices {
                    var companion = out.ads[a].creatives[c].companions[k]
                    companion.resources = keep(companion.resources)
                    companion.clickThrough = keep(companion.clickThrough)
                    companion.clickTracking = keep(companion.clickTracking)
                    companion.tracking = keep(companion.tracking)
                    out.ads[a].creatives[c].companions[k] = companion
                }
                if var overlays = out.ads[a].creatives[c].nonLinearAds {
                    overlays.tracking = keep(overlays.tracking)
                    for n in overlays.nonLinears.indices {
                        overlays.nonLinears[n].resources = keep(overlays.nonLinears[n].resources)
                        overlays.nonLinears[n].clickThrough = keep(overlays.nonLinears[n].clickThrough)
                        overlays.nonLinears[n].clickTracking = keep(overlays.nonLinears[n].clickTracking)
                    }
                    out.ads[a].creatives[c].nonLinearAds = overlays
                }
            }
        }
        out.warnings += dropped.map { Self.dropped($0, of: document.source) }
        return out
    }

    /// Why a reference was dropped, as a warning; `isDropped` recognises it among the others.
    private static let droppedReason = "dropped: a document fetched over http(s) may only use http(s) URLs for tracking, clicks and resources"

    /// The warning for `url`, dropped from the document `source`.
    static func dropped(_ url: String, of source: String) -> AdError {
        AdError(.schemaValidation, "\(source): '\(url)' \(droppedReason)")
    }

    /// Whether `warning` is one of this policy's dropped references (rather than a piece the parser could not read).
    static func isDropped(_ warning: AdError) -> Bool {
        warning.code == .schemaValidation && warning.message.hasSuffix(droppedReason)
    }

    /// The tracking of a VMAP break found at `location`, without the URLs its origin does not allow, and a
    /// warning for each one dropped.
    package func sanitized(_ tracking: [TrackingEvent], of source: String, at location: ResourceLocation) -> ([TrackingEvent], [AdError]) {
        var kept: [TrackingEvent] = []
        var warnings: [AdError] = []
        for event in tracking {
            if allows(beacon: event.url, from: location) {
                kept.append(event)
            } else {
                warnings.append(Self.dropped(event.url, of: source))
            }
        }
        return (kept, warnings)
    }
}
