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

    public init(ads: [LinearAd] = [], errors: [AdError] = [], warnings: [AdError] = [], isNoFill: Bool = false) {
        self.ads = ads
        self.errors = errors
        self.warnings = warnings
        self.isNoFill = isNoFill
    }

    mutating func absorb(_ other: AdTagResolution) {
        ads += other.ads
        errors += other.errors
        warnings += other.warnings
    }
}

/// Follows VAST wrappers to inline ads, as IMA's ads loader does; never throws for a single bad ad.
///
/// Rules (VAST 4.x):
/// - Pods and buffets: the ads with a `sequence` are a pod, played in sequence order; the stand-alone ads are a
///   buffet. Without a pod, the first stand-alone ad that resolves is played and the others are fallbacks. In a
///   pod, an ad that fails is skipped, except a wrapper with `fallbackOnNoAd="true"` whose response has no ad:
///   it is replaced by the next unused stand-alone ad.
/// - `allowMultipleAds` on a wrapper (absent: false) limits its response to one ad: the first stand-alone ad, or
///   the first of the pod when there is none.
/// - `VASTAdTagURI` is resolved against the document that holds it and rewritten by the URL map; a relative path
///   in a local file is a file beside it.
/// - Limits, all reported as **302** (wrapper limit reached): a chain longer than `maximumWrapperDepth`; a
///   wrapper below one with `followAdditionalWrappers="false"` (or below a VMAP source with
///   `followRedirects="false"`), which sets the limit there; and a loop (a tag already in the chain), because a
///   loop is an endless chain and 302 is what a player without loop detection would report when it hit its limit.
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
        DocumentFetcher(urlMap: settings.urlMap, maximumBytes: settings.maximumDocumentBytes)
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

    func resolve(_ document: VASTDocument, at location: ResourceLocation, context: Context) async -> AdTagResolution {
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
            for ad in buffet {
                let r = await resolve(ad, in: document, at: location, context: context)
                out.absorb(r)
                if !r.ads.isEmpty { break }
            }
            return out
        }
        for ad in pod {
            let r = await resolve(ad, in: document, at: location, context: context)
            out.absorb(r)
            guard r.ads.isEmpty, r.isNoFill, case .wrapper(let w) = ad.kind, w.fallbackOnNoAd == true else { continue }
            while let fallback = buffet.popFirst() {
                let f = await resolve(fallback, in: document, at: location, context: context)
                out.absorb(f)
                if !f.ads.isEmpty { break }
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
            let (result, warnings) = LinearAdAssembler.assemble(ad, in: document, at: location, hops: context.hops)
            switch result {
            case .success(let linear): return AdTagResolution(ads: [linear], warnings: warnings)
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
