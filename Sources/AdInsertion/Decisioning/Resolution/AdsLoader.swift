import Foundation
import MediaCore

/// Turns an ad tag (VAST or VMAP, remote or local) or `--break` values into an `AdPlan`, in IMA's spirit:
/// the ads loader resolves the response, and the ads manager (elsewhere) plays the plan.
///
/// Loading is: fetch the tag (first-request deadline) → parse → follow wrappers and VMAP `AdTagURI`s
/// (`AdTagResolver`) → choose each ad's media file (`MediaSelector`) → say where it is (`CreativeResolver`) →
/// place the breaks (`AdPlanBuilder`). A plain VAST response is one pre-roll.
///
/// What fails where:
/// - The tag itself cannot be loaded, is not XML (100, with the line), is VAST 1 (102) or has another root (101):
///   `load` throws `DecisioningError`.
/// - Anything smaller never throws: a no-fill response, a failed wrapper or VMAP source, a break that cannot be
///   placed → `AdPlan.errors` (the break is left out); an ad whose media cannot be chosen (403, 901) or whose
///   local file is missing (401) → kept in its break, marked `failed` with that error, so that its error URLs can be fired.
public struct AdsLoader: Sendable {
    public var settings: AdsLoaderSettings

    public init(settings: AdsLoaderSettings = AdsLoaderSettings()) {
        self.settings = settings
    }

    /// Loads `request.adTag` and plans its breaks for the content.
    ///
    /// - Throws: `DecisioningError` when the tag itself cannot be loaded or read (see the type's documentation).
    public func load(_ request: AdsRequest) async throws(DecisioningError) -> AdsLoadResult {
        guard let location = ResourceLocation(userInput: request.adTag) else {
            throw .unreachable(source: request.adTag, reason: "not an http(s) URL, file URL or path")
        }
        let resolver = AdTagResolver(settings: settings)
        let data = try await resolver.fetcher.fetch(location, timeout: settings.firstRequestTimeout)
        let source = resolver.fetcher.mapped(location).name
        let response = try AdResponse.parse(data, source: source, maximumDocumentBytes: settings.maximumDocumentBytes)

        var drafts: [BreakDraft] = []
        var errors: [AdError] = []
        var warnings: [AdError] = []
        let kind: AdsLoadResult.ResponseKind
        switch response {
        case .vast(let document):
            kind = .vast
            let resolution = await resolver.resolve(document, at: location)
            errors += resolution.errors
            warnings += resolution.warnings
            drafts.append(BreakDraft(offset: .start, ads: resolution.ads.map { .init(ad: $0) }, label: "pre-roll of \(source)"))
        case .vmap(let document):
            kind = .vmap
            warnings += document.warnings
            for adBreak in document.breaks {
                let resolution = await resolve(adBreak, of: document, at: location, resolver: resolver)
                errors += resolution.errors
                warnings += resolution.warnings
                drafts.append(BreakDraft(offset: adBreak.timeOffset, breakId: adBreak.breakId, mergeKey: adBreak.breakId,
                                         breakType: adBreak.breakType, tracking: adBreak.tracking,
                                         ads: resolution.ads.map { .init(ad: $0) }, repeatAfter: adBreak.repeatAfter,
                                         label: "\(document.source): \(adBreak.label)"))
            }
        }
        drafts = await selectMedia(drafts)
        let builder = AdPlanBuilder(contentDuration: request.contentDuration, cuePoints: request.cuePoints,
                                    maximumBreaks: settings.maximumBreaks)
        return AdsLoadResult(plan: builder.build(drafts, errors: errors), kind: kind, source: source, warnings: warnings)
    }

    /// `load(request).plan`.
    public func loadPlan(_ request: AdsRequest) async throws(DecisioningError) -> AdPlan {
        try await load(request).plan
    }

    /// Plans `--break` values: one break per position (values at the same position are one break, in the order
    /// given), one ad per file.
    ///
    /// - Parameters:
    ///   - directory: relative FILEs are relative to it (the current directory by default).
    /// - Throws: `DecisioningError.invalidBreak` when a file does not exist. Breaks that cannot be placed (`n%`
    ///   without a duration, a time past the end) are in `AdPlan.errors`, as for VMAP.
    public func plan(quickBreaks: [QuickBreak], contentDuration: MediaDuration?,
                     relativeTo directory: String = FileManager.default.currentDirectoryPath) throws(DecisioningError) -> AdPlan {
        var drafts: [BreakDraft] = []
        for quick in quickBreaks {
            let ads = try quick.ads(relativeTo: directory)
            drafts.append(BreakDraft(offset: quick.offset, mergeKey: "--break", ads: ads.map { .init(ad: $0) },
                                     label: "--break \(quick.value)"))
        }
        return AdPlanBuilder(contentDuration: contentDuration, maximumBreaks: settings.maximumBreaks).build(drafts, errors: [])
    }

    /// The ads of one VMAP break, or why there are none (with the break's `error` tracking URLs added).
    func resolve(_ adBreak: VMAPAdBreak, of document: VMAPDocument, at location: ResourceLocation,
                 resolver: AdTagResolver) async -> AdTagResolution {
        let label = "\(document.source): \(adBreak.label)"
        let breakErrorURLs = adBreak.tracking.filter { $0.event == "error" }.map(\.url)
        guard let source = adBreak.adSource else {
            return AdTagResolution(errors: [AdError(.schemaValidation, "\(label) has no AdSource", errorURLs: breakErrorURLs)])
        }
        var resolution: AdTagResolution
        switch source.content {
        case .vast(let vast):
            resolution = await resolver.resolve(vast, at: location, allowMultipleAds: source.allowMultipleAds ?? true,
                                                followWrappers: source.followRedirects ?? true)
        case .adTagURI(let tag, _):
            guard let target = location.resolving(tag) else {
                return AdTagResolution(errors: [AdError(.wrapperTimeout, "\(label): AdTagURI '\(tag)' is not an http(s) URL, file URL or path",
                                                        errorURLs: breakErrorURLs)])
            }
            resolution = await resolver.resolve(tag: target, allowMultipleAds: source.allowMultipleAds ?? true,
                                                followWrappers: source.followRedirects ?? true)
        case .custom(let templateType):
            return AdTagResolution(errors: [AdError(.trafficking, "\(label): CustomAdData (\(templateType ?? "no templateType")) is not supported",
                                                    errorURLs: breakErrorURLs)])
        case .unusable(let error):
            return AdTagResolution(errors: [AdError(error.code, error.message, errorURLs: error.errorURLs + breakErrorURLs)])
        }
        resolution.errors = resolution.errors.map { AdError($0.code, $0.message, errorURLs: $0.errorURLs + breakErrorURLs) }
        return resolution
    }

    /// Chooses the media of every ad and says where it comes from (a local file, or a URL that a render fetches
    /// into the media cache); ads that cannot play keep their error. Nothing is downloaded here, so `ads inspect`
    /// and `render` make the same decision.
    func selectMedia(_ drafts: [BreakDraft]) async -> [BreakDraft] {
        let selector = MediaSelector(settings: settings.mediaSelection)
        let creatives = CreativeResolver(urlMap: settings.urlMap)
        var out = drafts
        for b in out.indices {
            for a in out[b].ads.indices {
                var ad = out[b].ads[a].ad
                var (selection, failure) = selector.select(ad.mediaFiles)
                var error = failure.map { AdError($0.code, "\(ad.label): \($0.reason)", errorURLs: ad.errorURLs) }
                if let chosen = selection.chosen {
                    switch creatives.resolve(chosen.url) {
                    case .success(let resolution):
                        selection.localPath = resolution.localPath
                        selection.remoteURL = resolution.remoteURL
                    case .failure(let e):
                        error = AdError(e.code, "\(ad.label): \(e.message)", errorURLs: ad.errorURLs)
                    }
                }
                ad.selection = selection
                out[b].ads[a] = .init(ad: ad, error: error)
            }
        }
        return out
    }
}
