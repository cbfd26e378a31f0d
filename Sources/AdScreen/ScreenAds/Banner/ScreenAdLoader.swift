import AdDecisioning
import Foundation
import MediaCore

/// Fetches a banner's or a full-screen ad's creative with the same limits, deadlines, URL map and origin policy as
/// every other ad fetch (`AdsLoaderSettings`, `DocumentFetcher`, `OriginPolicy`).
///
/// A VAST response's Wrappers are followed (at most `maximumWrapperDepth`, each under the wrapper deadline and
/// refused when a remote one points at a local file), adding their impressions and click tracking; each
/// document's URLs are sanitised for its origin first, so a remote document cannot make pipctl read a local file, and the
/// image it names is fetched under the same size limit as a document.
public struct ScreenAdLoader: Sendable {
    public var settings: AdsLoaderSettings
    /// The directory relative paths are read from.
    public var directory: String

    public init(settings: AdsLoaderSettings = AdsLoaderSettings(),
                directory: String = FileManager.default.currentDirectoryPath) {
        self.settings = settings
        self.directory = directory
    }

    /// The creative that `source`'s request `url` answers with; `wantsVideo` prefers a linear MediaFile (a
    /// full-screen ad) over an image.
    ///
    /// - Throws: `.badRequestURL`, `.fetch` (unreachable, timed out, too large, malformed VAST), `.notAnImage`,
    ///   `.pictureTooLarge`, `.noCreative`.
    public func load(_ source: CreativeSource, url: String, wantsVideo: Bool = false) async throws(ScreenAdError) -> DisplayCreative {
        guard let location = ResourceLocation(userInput: url, relativeTo: directory) else { throw .badRequestURL(url) }
        let fetcher = DocumentFetcher(urlMap: settings.urlMap, maximumBytes: settings.maximumDocumentBytes)
        let data: Data
        do { data = try await fetcher.fetch(location, timeout: settings.firstRequestTimeout) } catch { throw .fetch(error) }
        switch source {
        case .image:
            let header = try Self.header(of: data, from: location)
            return DisplayCreative(content: .image(location: location, header: header, data: data), requestURL: url)
        case .vast:
            var location = location, data = data
            // What the wrappers on the way add: their impressions and click tracking fire with the in-line ad's.
            var impressions: [String] = [], clicks: [String] = [], tracking: [TrackingEvent] = []
            var depth = 0
            // The local files of the documents on the way, this one included (`DisplayCreative.documents`).
            var documents: Set<String> = []
            func read(_ location: ResourceLocation) {
                if case .file(let path) = (try? settings.urlMap?.apply(to: location)) ?? location { documents.insert(path) }
            }
            read(location)
            func found(_ creative: DisplayCreative) -> DisplayCreative {
                var creative = creative
                creative.documents = documents.sorted()
                return creative
            }
            while true {
                let parsed: VASTDocument
                do {
                    parsed = try VASTParser(maximumDocumentBytes: settings.maximumDocumentBytes).parse(data, source: location.description)
                } catch { throw .fetch(error) }
                let document = settings.originPolicy.sanitized(Self.absolutised(parsed, at: location), at: location)
                let dropped = document.warnings.dropFirst(parsed.warnings.count).first.map { "; \($0.message)" } ?? ""
                guard let ad = document.ads.first else { throw .noCreative(source: location.description, detail: "no ad (no fill)") }
                if case .wrapper(let wrapper) = ad.kind {
                    guard depth < settings.maximumWrapperDepth else {
                        throw .noCreative(source: location.description, detail: "more than \(settings.maximumWrapperDepth) wrappers")
                    }
                    guard let tag = wrapper.tagURI, let next = location.resolving(tag) else {
                        throw .noCreative(source: location.description, detail: "\(ad.label) is a Wrapper without a usable VASTAdTagURI")
                    }
                    if let refusal = settings.originPolicy.refusal(ofDocument: next, from: location) {
                        throw .noCreative(source: location.description, detail: refusal)
                    }
                    impressions += ad.impressions
                    clicks += ad.creatives.flatMap { creative in
                        (creative.nonLinearAds?.nonLinears.flatMap(\.clickTracking) ?? []) + creative.companions.flatMap(\.clickTracking)
                            + (creative.linear?.clickTracking ?? [])
                    }
                    tracking += ad.linearCreatives.flatMap(\.tracking)
                    do { data = try await fetcher.fetch(next, timeout: settings.wrapperTimeout) } catch { throw .fetch(error) }
                    location = next
                    read(next)
                    depth += 1
                    continue
                }
                guard ad.kind == .inline else { throw .noCreative(source: location.description, detail: "\(ad.label) is neither InLine nor Wrapper") }
                if wantsVideo, let creative = video(of: ad, at: location, url: url) {
                    return found(creative.adding(impressions: impressions, clickTracking: clicks, tracking: tracking))
                }
                guard let (resource, clickThrough, clickTracking) = image(of: ad) else {
                    throw .noCreative(source: location.description,
                                      detail: "\(ad.label) has no NonLinear or Companion image StaticResource\(wantsVideo ? " nor a playable MediaFile" : "")\(dropped)")
                }
                guard let target = location.resolving(resource) else { throw .badRequestURL(resource) }
                if let refusal = settings.originPolicy.refusal(ofDocument: target, from: location) {
                    throw .noCreative(source: location.description, detail: refusal)
                }
                let image: Data
                do { image = try await fetcher.fetch(target, timeout: settings.wrapperTimeout) } catch { throw .fetch(error) }
                let header = try Self.header(of: image, from: target)
                return found(DisplayCreative(content: .image(location: target, header: header, data: image), requestURL: url,
                                             impressions: impressions + ad.impressions, clickThrough: clickThrough,
                                             clickTracking: clicks + clickTracking))
            }
        }
    }

    /// The header of the image `data` read from `location`, checked against `PictureLimit.creatives` before
    /// anything decodes it.
    ///
    /// - Throws: `.notAnImage`, `.pictureTooLarge`.
    static func header(of data: Data, from location: ResourceLocation) throws(ScreenAdError) -> ImageHeader {
        guard let header = ImageHeader(data) else { throw .notAnImage(source: location.description) }
        if let refusal = PictureLimit.creatives.refusal(of: header.size) {
            throw .pictureTooLarge(source: location.description, detail: refusal)
        }
        return header
    }

    /// `document` with relative StaticResource URLs made absolute against `location`, where they were written,
    /// so that the origin policy judges where they really point.
    static func absolutised(_ document: VASTDocument, at location: ResourceLocation) -> VASTDocument {
        func absolute(_ resources: [VASTResource]) -> [VASTResource] {
            resources.map { resource in
                guard case .staticResource(let url, let type) = resource, ResourceLocation.scheme(of: url) == nil,
                      let target = location.resolving(url) else { return resource }
                return .staticResource(url: target.description, creativeType: type)
            }
        }
        var out = document
        for a in out.ads.indices {
            for c in out.ads[a].creatives.indices {
                for k in out.ads[a].creatives[c].companions.indices {
                    out.ads[a].creatives[c].companions[k].resources = absolute(out.ads[a].creatives[c].companions[k].resources)
                }
                if var overlays = out.ads[a].creatives[c].nonLinearAds {
                    for n in overlays.nonLinears.indices {
                        overlays.nonLinears[n].resources = absolute(overlays.nonLinears[n].resources)
                    }
                    out.ads[a].creatives[c].nonLinearAds = overlays
                }
            }
        }
        return out
    }

    /// The first image StaticResource of the ad's NonLinears, then of its Companions, with that element's clicks.
    private func image(of ad: VASTAd) -> (String, String?, [String])? {
        func firstImage(_ resources: [VASTResource]) -> String? {
            resources.lazy.compactMap { resource -> String? in
                guard case .staticResource(let url, let type) = resource,
                      type.map({ $0.lowercased().hasPrefix("image/") }) ?? true else { return nil }
                return url
            }.first
        }
        for creative in ad.creatives {
            for overlay in creative.nonLinearAds?.nonLinears ?? [] {
                if let url = firstImage(overlay.resources) { return (url, overlay.clickThrough, overlay.clickTracking) }
            }
        }
        for creative in ad.creatives {
            for companion in creative.companions {
                if let url = firstImage(companion.resources) { return (url, companion.clickThrough, companion.clickTracking) }
            }
        }
        return nil
    }

    /// The first linear MediaFile the document's origin allows, resolved against it and through the URL map (not
    /// fetched: the render plays a local or mapped file, and downloads a remote one through the media cache).
    private func video(of ad: VASTAd, at location: ResourceLocation, url: String) -> DisplayCreative? {
        for linear in ad.linearCreatives {
            for file in linear.mediaFiles {
                // Relative to the document, as `LinearAdAssembler` makes them, then refused by the same policy.
                guard let target = location.resolving(file.url),
                      settings.originPolicy.refusal(ofMedia: ResourceLocation.scheme(of: file.url) == nil ? target.description : file.url,
                                                    from: location) == nil,
                      let mapped = try? settings.urlMap?.apply(to: target) ?? target else { continue }
                return DisplayCreative(content: .video(location: mapped, duration: linear.duration), requestURL: url,
                                       impressions: ad.impressions, clickThrough: linear.clickThrough,
                                       clickTracking: linear.clickTracking, tracking: linear.tracking)
            }
        }
        return nil
    }
}
