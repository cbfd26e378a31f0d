import Foundation

/// The playable ads of a VAST response after following its wrappers, and every error met on the way.
public struct AdTagResolution: Hashable, Sendable {
    /// In play order: the pod in sequence order, or the one stand-alone ad that resolved.
    public var ads: [LinearAd]
    /// One per ad, wrapper or response that failed, each with its VAST code, a message naming the URL, and the
    /// error URLs to fire.
    public var errors: [AdError]
    /// Pieces dropped while reading, and ads ignored by `allowMultipleAds`.
    public var warnings: [AdError]
    /// True when the response (after any wrappers) had no ad at all.
    public var isNoFill: Bool
    /// The stand-alone ads of a pod (or buffet) response that were not needed, resolved and with a rendition
    /// that can be chosen, in document order: they replace an ad whose media turns out missing later.
    public var fallbacks: [LinearAd]
    /// One per stand-alone ad that took the place of an ad that could not play, with the failed ad's code:
    /// `ad 'buffet-a' replaces ad 'pod-2' (line 30, sequence 2), which failed: …`.
    public var replacements: [AdError]

    public init(ads: [LinearAd] = [], errors: [AdError] = [], warnings: [AdError] = [], isNoFill: Bool = false,
                fallbacks: [LinearAd] = [], replacements: [AdError] = []) {
        self.ads = ads
        self.errors = errors
        self.warnings = warnings
        self.isNoFill = isNoFill
        self.fallbacks = fallbacks
        self.replacements = replacements
    }

    mutating func absorb(_ other: AdTagResolution) {
        ads += other.ads
        errors += other.errors
        warnings += other.warnings
        fallbacks += other.fallbacks
        replacements += other.replacements
    }
}

/// Follows VAST wrappers to inline ads, as IMA's ads loader does; never throws for a single bad ad.
///
/// Rules (VAST 4.x):
/// - Pods and buffets (VAST 3 §2.3.5, VAST 4.x "Ad Pods and Stand-Alone Ads"): the ads with a `sequence` are a
///   pod, played in sequence order; the stand-alone ads are a buffet, "a secondary choice when the Ad Pod cannot
///   play or when a particular Ad in the Pod cannot play". So a pod ad that cannot play — its wrapper fails, its
///   response has no ad, it has no linear creative, or none of its renditions can be chosen — is replaced by the
///   next unused stand-alone ad that can play, in document order (a `replacements` entry says which replaced
///   which). The one exception is the spec's: a wrapper with `fallbackOnNoAd="false"` whose response has no ad
///   "should move on to the next Ad in a Pod". An ad with a rendition that cannot be chosen stays in the pod
///   (it fails at its turn, firing its error URLs) and its replacement follows it.
/// - When the buffet is used up, a failed pod ad is not replaced and the rest of the pod still plays: the spec
///   asks a player to "play as many of the ads as possible" and allows dropping the remaining ads (truncating
///   from the end) only when they do not fit the player's limits, which pipctl does not set.
/// - Without a pod, the first stand-alone ad that resolves is played (replaced as above when none of its
///   renditions can be chosen). The stand-alone ads left over are resolved too and kept as `fallbacks`, for an
///   ad whose media later turns out missing.
/// - `allowMultipleAds` on a wrapper (absent: false) limits its response to one ad: the first stand-alone ad, or
///   the first of the pod when there is none.
/// - `VASTAdTagURI` is resolved against the document that holds it and rewritten by the URL map; a relative path
///   in a local file is a file beside it.
/// - Limits, all reported as **302** (wrapper limit reached): a chain longer than `maximumWrapperDepth`; a
///   wrapper below one with `followAdditionalWrappers="false"` (or below a VMAP source with
///   `followRedirects="false"`), which sets the limit there; and a loop (a tag already in the chain), because a
///   loop is an endless chain and 302 is what a player without loop detection would report when it hit its limit.
/// - Origin (`OriginPolicy`): a document fetched over http(s) cannot lead to a local file: such a
///   `VASTAdTagURI` is 301, such a MediaFile a refused rendition, such a beacon dropped with a warning.
/// - **301**: a wrapper's tag times out (`wrapperTimeout`), answers with an HTTP error, cannot be reached or is a
///   missing file; the message names the URL. **303**: a wrapper's response has no ad. A response that is not
///   XML gives 100, VAST 1 gives 102.
/// - Each failure carries the error URLs of every wrapper in its chain (and of the empty response, for 303).
public struct AdTagResolver: Sendable {
    public var settings: AdsLoaderSettings
    /// When every request must have finished (`AdsLoader.load` sets it from `settings.decisionTimeout`); `nil`
    /// for no overall deadline.
    public var deadline: ContinuousClock.Instant?

    public init(settings: AdsLoaderSettings = AdsLoaderSettings(), deadline: ContinuousClock.Instant? = nil) {
        self.settings = settings
        self.deadline = deadline
    }

    var fetcher: DocumentFetcher {
        DocumentFetcher(urlMap: settings.urlMap, maximumBytes: settings.maximumDocumentBytes, headers: settings.requestHeaders)
    }

    /// How the response being resolved may be used, set by the wrapper (or VMAP source) that asked for it.
    struct Context: Sendable {
        var hops: [LinearAdAssembler.Hop] = []
        /// Every tag already followed in this chain, the top document included.
        var visited: Set<ResourceLocation> = []
        var allowMultipleAds = true
        var followWrappers = true
        /// Who forbade further wrappers, for the message.
        var followWrappersSetBy = ""

        var errorURLs: [String] { hops.flatMap(\.ad.errorURLs) }
    }

    /// Resolves a VAST response already parsed, found at `location` (the base of its relative URLs).
    ///
    /// - Parameters:
    ///   - allowMultipleAds: whether the response may yield a pod or several ads (a VMAP source's attribute;
    ///     true for a top-level ad tag).
    ///   - followWrappers: whether its wrappers may be followed (a VMAP source's `followRedirects`).
    public func resolve(_ document: VASTDocument, at location: ResourceLocation, allowMultipleAds: Bool = true,
                        followWrappers: Bool = true) async -> AdTagResolution {
        let context = Context(visited: [location], allowMultipleAds: allowMultipleAds, followWrappers: followWrappers,
                              followWrappersSetBy: "followRedirects=\"false\" on its VMAP AdSource")
        return await resolve(document, at: location, context: context)
    }

    /// Loads the VAST ad tag at `location` (first-request deadline) and resolves it.
    ///
    /// A tag that cannot be loaded or parsed is reported in `errors` with its code (301, 100, 101, 102), never
    /// thrown: this is how VMAP `AdTagURI`s are resolved.
    public func resolve(tag location: ResourceLocation, allowMultipleAds: Bool = true,
                        followWrappers: Bool = true) async -> AdTagResolution {
        let document: VASTDocument
        do {
            document = try await loadVAST(location, timeout: settings.firstRequestTimeout)
        } catch {
            return AdTagResolution(errors: [error.adError])
        }
        return await resolve(document, at: location, allowMultipleAds: allowMultipleAds, followWrappers: followWrappers)
    }

    /// Fetches and parses the VAST document at `location`, named in messages as fetched (with its mapping).
    func loadVAST(_ location: ResourceLocation, timeout: Duration) async throws(DecisioningError) -> VASTDocument {
        let data = try await fetch(location, timeout: timeout)
        return try VASTParser(maximumDocumentBytes: settings.maximumDocumentBytes).parse(data, source: fetcher.mapped(location).name)
    }

    /// The bytes at `location` within `timeout` and the decision deadline, whichever ends first; a fetch cut
    /// short by the deadline fails with `.decisionDeadline`.
    func fetch(_ location: ResourceLocation, timeout: Duration) async throws(DecisioningError) -> Data {
        guard let deadline, let overall = settings.decisionTimeout else {
            return try await fetcher.fetch(location, timeout: timeout)
        }
        let remaining = deadline - .now
        let deadlineFirst = remaining < timeout
        let name = fetcher.mapped(location).name
        guard remaining > .zero else { throw .decisionDeadline(source: name, timeout: overall) }
        do {
            return try await fetcher.fetch(location, timeout: deadlineFirst ? remaining : timeout)
        } catch {
            if case .timedOut = error, deadlineFirst { throw .decisionDeadline(source: name, timeout: overall) }
            throw error
        }
    }

    func resolve(_ received: VASTDocument, at location: ResourceLocation, context: Context) async -> AdTagResolution {
        let document = settings.originPolicy.sanitized(received, at: location)
        var out = AdTagResolution(warnings: document.warnings)
        guard !document.ads.isEmpty else {
            out.isNoFill = true
            let message = context.hops.isEmpty
                ? "\(document.source): no ads (no fill)"
                : "\(document.source): no ads after \(context.hops.count) wrapper(s), last \(context.hops.last!.ad.label) in \(context.hops.last!.source)"
            out.errors.append(AdError(.noAdsAfterWrapper, message, errorURLs: context.errorURLs + document.errorURLs))
            return out
        }
        let pod = document.pod
        var buffet = document.standaloneAds[...]

        if !context.allowMultipleAds {
            let chosen = buffet.first ?? pod.first!
            if document.ads.count > 1 {
                out.warnings.append(AdError(.trafficking,
                                            "\(document.source): the wrapper does not allow multiple ads; only \(chosen.label) is used, \(document.ads.count - 1) other ad(s) ignored"))
            }
            out.absorb(await resolve(chosen, in: document, at: location, context: context))
            return out
        }
        if pod.isEmpty {
            while let ad = buffet.popFirst() {
                let r = await resolve(ad, in: document, at: location, context: context)
                out.absorb(r)
                guard let chosen = r.ads.first else { continue }
                if let failure = unplayable(chosen) {
                    out.absorb(await replace(ad.label, failure: failure, from: &buffet, in: document, at: location,
                                             context: context))
                }
                break
            }
            out.absorb(await resolveFallbacks(buffet, in: document, at: location, context: context))
            return out
        }
        for ad in pod {
            let r = await resolve(ad, in: document, at: location, context: context)
            let name = "\(ad.label)\(ad.sequence.map { ", sequence \($0)" } ?? "")"
            if r.ads.isEmpty {
                out.absorb(r)
                if r.isNoFill, case .wrapper(let w) = ad.kind, w.fallbackOnNoAd == false { continue }
                guard let failure = r.errors.last else { continue }
                out.absorb(await replace(name, failure: failure, from: &buffet, in: document, at: location, context: context))
                continue
            }
            for linear in r.ads {
                out.ads.append(linear)
                // Kept in the pod: it fails at its turn (error URLs) when the media is selected again.
                guard let failure = unplayable(linear) else { continue }
                out.absorb(await replace(name, failure: failure, from: &buffet, in: document, at: location, context: context))
            }
            out.errors += r.errors
            out.warnings += r.warnings
            out.fallbacks += r.fallbacks
            out.replacements += r.replacements
        }
        out.absorb(await resolveFallbacks(buffet, in: document, at: location, context: context))
        return out
    }

    /// Why no rendition of `ad` can be chosen, or `nil` when one can.
    func unplayable(_ ad: LinearAd) -> AdError? {
        let (_, failure) = MediaSelector(settings: settings.mediaSelection).select(ad.mediaFiles)
        return failure.map { AdError($0.code, "\(ad.label): \($0.reason)", errorURLs: ad.beacons.errorURLs) }
    }

    /// The next unused stand-alone ad that can play, in the place of the pod ad `name` that failed with `failure`;
    /// stand-alone ads that cannot play on the way are reported (their errors fire) and used up.
    func replace(_ name: String, failure: AdError, from buffet: inout ArraySlice<VASTAd>, in document: VASTDocument,
                 at location: ResourceLocation, context: Context) async -> AdTagResolution {
        var out = AdTagResolution()
        while let candidate = buffet.popFirst() {
            let r = await resolve(candidate, in: document, at: location, context: context)
            out.errors += r.errors
            out.warnings += r.warnings
            guard let chosen = r.ads.first(where: { unplayable($0) == nil }) else {
                out.errors += r.ads.compactMap(unplayable)
                continue
            }
            out.ads.append(chosen)
            out.replacements.append(AdError(failure.code, "\(chosen.label) (stand-alone) replaces \(name) in \(document.source), "
                + "which cannot play: \(failure.message)"))
            return out
        }
        return out
    }

    /// The stand-alone ads not used, resolved, those that can play kept as fallbacks; the others are only
    /// warnings, since nothing asked for them.
    func resolveFallbacks(_ buffet: ArraySlice<VASTAd>, in document: VASTDocument, at location: ResourceLocation,
                          context: Context) async -> AdTagResolution {
        var out = AdTagResolution()
        for candidate in buffet {
            let r = await resolve(candidate, in: document, at: location, context: context)
            out.warnings += r.warnings + r.errors.map { AdError($0.code, "unused stand-alone \($0.message)") }
            for linear in r.ads {
                if let failure = unplayable(linear) {
                    out.warnings.append(AdError(failure.code, "unused stand-alone \(failure.message)"))
                } else {
                    out.fallbacks.append(linear)
                }
            }
        }
        return out
    }

    func resolve(_ ad: VASTAd, in document: VASTDocument, at location: ResourceLocation,
                 context: Context) async -> AdTagResolution {
        let where_ = "\(ad.label) in \(document.source)"
        switch ad.kind {
        case .empty:
            return AdTagResolution(errors: [AdError(.schemaValidation, "\(where_) has neither InLine nor Wrapper",
                                                    errorURLs: context.errorURLs)])
        case .inline:
            let (result, warnings) = LinearAdAssembler.assemble(ad, in: document, at: location, hops: context.hops,
                                                                 policy: settings.originPolicy)
            switch result {
            case .success(var linear):
                // Every document of the chain, this one included, is in `visited`.
                linear.documents = context.visited.compactMap { visited -> String? in
                    if case .file(let path) = fetcher.mapped(visited).target { path } else { nil }
                }.sorted()
                return AdTagResolution(ads: [linear], warnings: warnings)
            case .failure(let error): return AdTagResolution(errors: [error], warnings: warnings)
            }
        case .wrapper(let wrapper):
            let errorURLs = context.errorURLs + ad.errorURLs
            func failure(_ code: VASTErrorCode, _ message: String) -> AdTagResolution {
                AdTagResolution(errors: [AdError(code, message, errorURLs: errorURLs)])
            }
            guard context.followWrappers else {
                return failure(.wrapperLimit, "wrapper \(where_) not followed: \(context.followWrappersSetBy) forbids further wrappers")
            }
            guard context.hops.count < settings.maximumWrapperDepth else {
                return failure(.wrapperLimit, "wrapper \(where_) not followed: wrapper limit of \(settings.maximumWrapperDepth) reached")
            }
            guard let tag = wrapper.tagURI else {
                return failure(.schemaValidation, "wrapper \(where_) has no VASTAdTagURI")
            }
            guard let target = location.resolving(tag) else {
                return failure(.wrapperTimeout, "wrapper \(where_): VASTAdTagURI '\(tag)' is not an http(s) URL, file URL or path")
            }
            if let refusal = settings.originPolicy.refusal(ofDocument: target, from: location) {
                return failure(.wrapperTimeout, "wrapper \(where_): VASTAdTagURI refused: \(refusal)")
            }
            guard !context.visited.contains(target) else {
                return failure(.wrapperLimit, "wrapper loop: \(where_) points back at \(target)")
            }
            let next: VASTDocument
            do {
                next = try await loadVAST(target, timeout: settings.wrapperTimeout)
            } catch {
                return failure(error.code, "wrapper \(where_): \(error.message)")
            }
            var inner = context
            inner.hops.append(LinearAdAssembler.Hop(ad: ad, wrapper: wrapper, source: document.source))
            inner.visited.insert(target)
            inner.allowMultipleAds = wrapper.allowMultipleAds ?? false
            inner.followWrappers = wrapper.followAdditionalWrappers ?? true
            inner.followWrappersSetBy = "followAdditionalWrappers=\"false\" on \(where_)"
            return await resolve(next, at: target, context: inner)
        }
    }
}
