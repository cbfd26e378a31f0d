/// Turns an `<InLine>` ad and the wrappers that led to it into one playable `LinearAd`.
///
/// Merging follows VAST: every wrapper's impressions, error URLs, linear tracking and click tracking are fired
/// with the inline ad's, so they are concatenated outermost wrapper first, then the inline ad's own. The creative
/// itself (media files, duration, skip offset, click-through, companions and non-linear creatives) is the inline
/// ad's alone.
enum LinearAdAssembler {
    /// One wrapper followed on the way to the ad.
    struct Hop: Hashable, Sendable {
        var ad: VASTAd
        var wrapper: VASTWrapper
        /// The document that holds the wrapper.
        var source: String
    }

    /// The playable ad, or why the inline ad cannot become one.
    ///
    /// A MediaFile that `policy` refuses for the document's origin stays in the list, marked with the reason.
    ///
    /// - Returns: 101 when there is no linear creative or no media file, 201 when the ad has only non-linear
    ///   creatives, 902 when its only creative is interactive (`InteractiveCreativeFile`, never run); plus
    ///   warnings for what was ignored.
    static func assemble(_ ad: VASTAd, in document: VASTDocument, at location: ResourceLocation,
                         hops: [Hop], policy: OriginPolicy = OriginPolicy()) -> (Result<LinearAd, AdError>, [AdError]) {
        let chainErrorURLs = hops.flatMap(\.ad.errorURLs) + ad.errorURLs
        let where_ = "\(ad.label) in \(document.source)"
        guard let creative = ad.creatives.first(where: { $0.linear != nil }), let linear = creative.linear else {
            if ad.creatives.contains(where: { $0.nonLinearAds != nil }) {
                return (.failure(AdError(.unexpectedLinearity, "\(where_) has only non-linear creatives (overlays are not played)",
                                         errorURLs: chainErrorURLs)), [])
            }
            return (.failure(AdError(.schemaValidation, "\(where_) has no Linear creative", errorURLs: chainErrorURLs)), [])
        }
        guard !linear.mediaFiles.isEmpty else {
            if let interactive = linear.interactiveCreativeFiles.first {
                let kind = interactive.apiFramework ?? interactive.type ?? "interactive"
                return (.failure(AdError(.interactiveCreative,
                                         "\(where_): its \(kind) InteractiveCreativeFile is not run and it has no MediaFile to play",
                                         errorURLs: chainErrorURLs)), [])
            }
            return (.failure(AdError(.schemaValidation, "\(where_): Linear creative has no MediaFile", errorURLs: chainErrorURLs)), [])
        }
        var warnings: [AdError] = []
        if ad.linearCreatives.count > 1 {
            warnings.append(AdError(.schemaValidation,
                                    "\(where_) has \(ad.linearCreatives.count) Linear creatives; only the first is played"))
        }
        let wrapperLinears = hops.flatMap(\.ad.linearCreatives)
        // Relative media URLs are relative to the document that names them; make them absolute now, while the
        // document's location is known.
        let mediaFiles = linear.mediaFiles.map { file -> MediaFile in
            var f = file
            if ResourceLocation.scheme(of: f.url) == nil, let absolute = location.resolving(f.url) {
                f.url = absolute.description
            }
            // Refused here, where the document's origin is known; the selector then never chooses it.
            f.originRefusal = policy.refusal(ofMedia: f.url, from: location)
            return f
        }
        let result = LinearAd(
            id: ad.id, sequence: ad.sequence ?? hops.first?.ad.sequence, adSystem: ad.adSystem?.name,
            adTitle: ad.adTitle, universalAdIds: creative.universalAdIds, creativeId: creative.id,
            declaredDuration: linear.duration, skipOffset: linear.skipOffset, mediaFiles: mediaFiles,
            impressions: hops.flatMap(\.ad.impressions) + ad.impressions, errorURLs: chainErrorURLs,
            tracking: wrapperLinears.flatMap(\.tracking) + linear.tracking, clickThrough: linear.clickThrough,
            clickTracking: wrapperLinears.flatMap(\.clickTracking) + linear.clickTracking,
            wrappers: hops.map { WrapperHop(adSystem: $0.ad.adSystem?.name, tagURI: $0.wrapper.tagURI ?? "", source: $0.source) },
            companions: ad.creatives.flatMap(\.companions), nonLinearAds: ad.creatives.compactMap(\.nonLinearAds))
        return (.success(result), warnings)
    }
}

extension LinearAd {
    /// `ad 'ID'`, `ad "Title"` or `ad`, for messages.
    package var label: String {
        if let id, !id.isEmpty { return "ad '\(id)'" }
        if let adTitle { return "ad \"\(adTitle)\"" }
        return "ad"
    }
}
