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
///   local file is missing (401) → kept in its break, marked `failed` with that error, so that its error URLs can
///   be fired. Remote media is not fetched here (a render fetches it into the media cache), so `ads inspect` and
///   `render` make the same decision.
/// - A stand-alone ad of a pod response replaces a pod ad that cannot play, at resolution (`AdTagResolver`) or
///   here when its media cannot be used; each replacement is a warning and a note of its break
///   (`AdBreak.replacements`), and the stand-alone ads left are the break's `fallbacks`.
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
        let resolver = AdTagResolver(settings: settings, deadline: settings.decisionTimeout.map { .now + $0 })
        let data = try await resolver.fetch(location, timeout: settings.firstRequestTimeout)
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
            drafts.append(BreakDraft(offset: .start, ads: resolution.ads.map { .init(ad: $0) }, label: "pre-roll of \(source)",
                                     fallbacks: resolution.fallbacks, replacements: resolution.replacements))
        case .vmap(let document):
            kind = .vmap
            warnings += document.warnings
            let resolutions = await resolveConcurrently(document, at: location, resolver: resolver)
            for (adBreak, resolution) in zip(document.breaks, resolutions) {
                errors += resolution.errors
                warnings += resolution.warnings
                let (tracking, dropped) = settings.originPolicy.sanitized(adBreak.tracking, of: "\(document.source): \(adBreak.label)",
                                                                          at: location)
                warnings += dropped
                drafts.append(BreakDraft(offset: adBreak.timeOffset, breakId: adBreak.breakId, mergeKey: adBreak.breakId,
                                         breakType: adBreak.breakType, tracking: tracking,
                                         ads: resolution.ads.map { .init(ad: $0) }, repeatAfter: adBreak.repeatAfter,
                                         label: "\(document.source): \(adBreak.label)",
                                         fallbacks: resolution.fallbacks, replacements: resolution.replacements))
            }
        }
        let selected = await selectMedia(drafts)
        drafts = selected.drafts
        errors += selected.errors
        // Every replacement is visible: in the warnings (ads inspect) and, through the plan, the event log.
        warnings += drafts.flatMap(\.replacements)
        let builder = AdPlanBuilder(contentDuration: request.contentDuration, cuePoints: request.cuePoints,
                                    maximumBreaks: settings.maximumBreaks)
        var plan = builder.build(drafts, errors: errors)
        // What the origin policy dropped travels with the plan, so that a render logs it as `ads inspect` warns it.
        plan.droppedReferences = warnings.filter(OriginPolicy.isDropped)
        return AdsLoadResult(plan: plan, kind: kind, source: source, warnings: warnings)
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

    /// The ads of every VMAP break, in document order, resolved at the same time: each break's `AdTagURI` and
    /// wrapper chain is its own task (at most `settings.maximumConcurrentBreaks` at once), so five slow ad
    /// servers cost one timeout, not five.
    func resolveConcurrently(_ document: VMAPDocument, at location: ResourceLocation,
                             resolver: AdTagResolver) async -> [AdTagResolution] {
        let breaks = document.breaks
        return await withTaskGroup(of: (Int, AdTagResolution).self) { group in
            var next = 0
            func addNext() {
                guard next < breaks.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await resolve(breaks[index], of: document, at: location, resolver: resolver)) }
            }
            for _ in 0..<max(1, settings.maximumConcurrentBreaks) { addNext() }
            var resolutions = Array(repeating: AdTagResolution(), count: breaks.count)
            while let (index, resolution) = await group.next() {
                resolutions[index] = resolution
                addNext()
            }
            return resolutions
        }
    }

    /// The ads of one VMAP break, or why there are none (with the break's `error` tracking URLs added).
    func resolve(_ adBreak: VMAPAdBreak, of document: VMAPDocument, at location: ResourceLocation,
                 resolver: AdTagResolver) async -> AdTagResolution {
        let label = "\(document.source): \(adBreak.label)"
        let breakErrorURLs = adBreak.tracking.filter { $0.event == .error }.map(\.url)
            .filter { settings.originPolicy.allows(beacon: $0, from: location) }
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
            if let refusal = settings.originPolicy.refusal(ofDocument: target, from: location) {
                return AdTagResolution(errors: [AdError(.wrapperTimeout, "\(label): AdTagURI refused: \(refusal)",
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
    /// and `render` make the same decision. An ad whose media cannot be used is followed by the break's next
    /// fallback whose media can (`AdTagResolver` explains why); fallbacks tried on the way whose media cannot be
    /// used either are returned as errors (their error URLs fire), and the fallbacks left keep their media
    /// resolved for the ads manager.
    func selectMedia(_ drafts: [BreakDraft]) async -> (drafts: [BreakDraft], errors: [AdError]) {
        let prepare = selectMedia(of:)
        var errors: [AdError] = []
        var out = drafts
        for b in out.indices {
            var ads: [BreakDraft.Ad] = []
            var fallbacks = out[b].fallbacks[...]
            for draftAd in out[b].ads {
                let prepared = prepare(draftAd.ad)
                ads.append(prepared)
                guard let failure = prepared.error else { continue }
                while let candidate = fallbacks.popFirst() {
                    let replacement = prepare(candidate)
                    if let error = replacement.error {
                        errors.append(error)
                        continue
                    }
                    ads.append(replacement)
                    let name = "\(draftAd.ad.label)\(draftAd.ad.sequence.map { " (sequence \($0))" } ?? "")"
                    out[b].replacements.append(AdError(failure.code, "\(candidate.label) (stand-alone) replaces \(name), "
                        + "whose media cannot be used: \(failure.message)"))
                    break
                }
            }
            var kept: [LinearAd] = []
            for candidate in fallbacks {
                let prepared = prepare(candidate)
                if prepared.error == nil { kept.append(prepared.ad) }
            }
            out[b].ads = ads
            out[b].fallbacks = kept
        }
        return (out, errors)
    }

    /// `input` with its rendition chosen for `settings.mediaSelection` (its window) and located, the other
    /// renditions that can be located kept as its fallbacks; the error when none can play (403, 901, or 401 when
    /// none can be located). Nothing is fetched. Native video assets choose their media through here too.
    package func selectMedia(of input: LinearAd) -> BreakDraft.Ad {
        let selector = MediaSelector(settings: settings.mediaSelection)
        let creatives = CreativeResolver(urlMap: settings.urlMap)
        var ad = input
        var (selection, failure) = selector.select(ad.mediaFiles)
        var error = failure.map { AdError($0.code, "\(ad.label): \($0.reason)", errorURLs: ad.beacons.errorURLs) }
        // Every acceptable rendition, best first, that can be located; the best that can plays, the others
        // stay as its fallbacks. One that cannot (a missing or mapped-away file) says why in `ads inspect`.
        var located: [MediaSelection.Rendition] = []
        var firstFailure: AdError?
        for i in selection.preference {
            let file = selection.candidates[i].file
            switch creatives.resolve(file.url) {
            case .success(let resolution):
                located.append(.init(file: file, localPath: resolution.localPath, remoteURL: resolution.remoteURL))
            case .failure(let e):
                firstFailure = firstFailure ?? e
                selection.candidates[i].reason += "; cannot be used: \(e.message)"
            }
        }
        if let best = located.first {
            if best.file != selection.chosen, let i = selection.candidates.firstIndex(where: { $0.file == best.file }) {
                selection.candidates[i].reason = "chosen: the next fallback, as the better renditions cannot be used"
            }
            selection.chosen = best.file
            selection.localPath = best.localPath
            selection.remoteURL = best.remoteURL
            selection.fallbacks = Array(located.dropFirst())
        } else if let e = firstFailure {
            error = AdError(e.code, "\(ad.label): \(e.message)", errorURLs: ad.beacons.errorURLs)
        }
        ad.selection = selection
        return .init(ad: ad, error: error)
    }
}
