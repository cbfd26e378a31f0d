import AdDecisioning
import Foundation
import MediaCore

extension NativeAdLoader {
    /// The linear ad of every video asset of `loaded`'s block, resolved as an ad tag's is: the VAST (the asset's
    /// inline XML, read as if it stood at the block's location, or the document its URL names) parsed, its
    /// wrappers followed and its renditions chosen for `window` (the card's media frame in output pixels) with
    /// their fallbacks (`AdTagResolver`, `AdsLoader.selectMedia(of:)`), under the limits and origin policy of the
    /// block's own fetch. Nothing of the media is fetched here.
    ///
    /// - Returns: each resolved ad by its asset's `vastTag`, and for each video that cannot play (its media frame
    ///   shows the grey placeholder) one line naming it and saying why, by its `vastTag` too.
    public func videos(of loaded: NativeLoadResult, window: PixelSize) async -> (videos: [String: LinearAd], failures: [String: String]) {
        var settings = settings
        settings.mediaSelection.window = window
        let resolver = AdTagResolver(settings: settings)
        var videos: [String: LinearAd] = [:], failures: [String: String] = [:]
        let tags = ([loaded.block.assets] + loaded.block.ads.map(\.assets)).flatMap { $0 }.compactMap { asset -> String? in
            guard asset.refusal == nil, case .video(let tag) = asset.content else { return nil }
            return tag
        }
        for tag in tags where videos[tag] == nil && failures[tag] == nil {
            let inline = tag.trimmingSpaces.hasPrefix("<")
            let name = inline ? "\(loaded.location): video asset's inline VAST" : tag
            let resolution: AdTagResolution
            if inline {
                let parser = VASTParser(maximumDocumentBytes: settings.maximumDocumentBytes)
                do throws(DecisioningError) {
                    let document = try parser.parse(Data(tag.utf8), source: name)
                    resolution = await resolver.resolve(document, at: loaded.location, allowMultipleAds: false)
                } catch {
                    failures[tag] = "\(name): \(error)"
                    continue
                }
            } else if let location = ResourceLocation(userInput: tag, relativeTo: directory) {
                resolution = await resolver.resolve(tag: location, allowMultipleAds: false)
            } else {
                failures[tag] = "\(name): not an http(s) URL, a file: URL or a path"
                continue
            }
            guard let ad = resolution.ads.first else {
                failures[tag] = "\(name): \(resolution.errors.first?.message ?? "no ad (no fill)")"
                continue
            }
            let selected = AdsLoader(settings: settings).selectMedia(of: ad)
            if let error = selected.error {
                failures[tag] = "\(name): \(error.message)"
                continue
            }
            videos[tag] = selected.ad
        }
        return (videos, failures)
    }
}
