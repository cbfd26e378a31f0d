import Foundation
import MediaCore

/// One break of a guided session as its asset list gives it: the ads conditioned for every rendition in time, each
/// played by the player as an HLS interstitial's asset (docs/SERVE.md, "Guided mode").
public struct GuidedBreak: Sendable {
    /// Its index among the session's decided breaks (`SessionAds.breaks`).
    public var index: Int
    /// The ads ready within the stitcher's wait, in the break's order.
    public var ads: [GuidedAd]
    /// Why an ad of the break is left out of its asset list.
    public var notes: [String]
}

/// One ad of a guided break, conditioned for each rendition: the cache's `ads/` entries, the same segments stitched
/// mode splices in.
public struct GuidedAd: Sendable {
    /// Its index in the decided break.
    public var index: Int
    /// Per rendition, in the content's order, the ad's segments.
    public var renditions: [[RenditionSplice.Piece]]

    /// How long it plays (the first rendition's segments; every rendition's ad has the same frames).
    public var duration: Rational { renditions.first?.reduce(.zero) { $0 + $1.duration } ?? .zero }
}

extension BreakStitcher {
    /// Break `index` of a guided session: each ad downloaded and conditioned for every rendition through the shared
    /// cache. An ad not ready within `wait` (or that cannot be conditioned) is left out, and its build goes on for
    /// the next viewer; none ready gives an empty break, never an error.
    func guidedBreak(_ index: Int, _ adBreak: SessionAds.Break, content: OriginContent) async -> GuidedBreak {
        let deadline = ContinuousClock.now + wait
        let media: [RenditionMedia]
        switch renditionMedia(content) {
        case .success(let found): media = found
        case .failure(let error): return GuidedBreak(index: index, ads: [], notes: ["break \(index): \(error)"])
        }
        // Every ad starts at once; the cache builds one at a time, in this order.
        let builds = adBreak.ads.indices.map { a in
            Task { await guidedAd(a, adBreak.ads[a], content: content, media: media) }
        }
        var ads: [GuidedAd] = [], notes: [String] = []
        for (a, build) in builds.enumerated() {
            guard let result = await Self.value(of: build, within: max(.zero, deadline - ContinuousClock.now)) else {
                notes.append("break \(index) ad \(a): not ready within \(wait); built for the next viewer")
                continue
            }
            switch result {
            case .success(let ad): ads.append(ad)
            case .failure(let error): notes.append("break \(index) ad \(a): \(error)")
            }
        }
        return GuidedBreak(index: index, ads: ads, notes: notes)
    }

    private func guidedAd(_ a: Int, _ ad: SessionAds.Ad, content: OriginContent,
                          media: [RenditionMedia]) async -> Result<GuidedAd, StitchBuildError> {
        let path: String, target: Double?
        switch await adMediaFile(ad) {
        case .success(let found): path = found
        case .failure(let error): return .failure(error)
        }
        switch await loudnessTarget(content, media: media) {
        case .success(let found): target = found
        case .failure(let error): return .failure(error)
        }
        var renditions: [[RenditionSplice.Piece]] = []
        for (r, rendition) in content.renditions.enumerated() {
            switch await conditioned(path, media: media[r], encoding: adEncoding(rendition), loudness: target,
                                     segmentSeconds: Self.adSegmentSeconds(content)) {
            case .success(let ad): renditions.append(ad.pieces)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(GuidedAd(index: a, renditions: renditions))
    }
}
