import AdDecisioning
import AdPlayback
import Foundation
import MediaCore
import VideoPipeline

/// Opens each ad's media when the session is about to play it, and keeps it open while it plays.
///
/// Remote media comes from `downloads`, which fetched it ahead while the content played; when it has not arrived
/// yet the render's thread waits here for that one file (Ctrl-C cancels the downloads and ends the wait at once).
final class AdMedia: AdMediaProvider {
    let format: OutputFormat
    let threads: Int
    let downloads: MediaDownloads
    /// Whether waits are remembered for `AD_BUFFERING` (a live session; a batch render's event log must not
    /// depend on the network's speed).
    let reportsWaits: Bool
    private var open: [AdReference: MediaSource] = [:]
    private var waits: [Buffering] = []
    private var drops: [CacheDrop] = []
    /// In a normalised render, measures each ad when it is first opened and sets its gain.
    var normaliser: LoudnessNormaliser?
    /// The ads opened so far whose media stops before its declared duration, in play order.
    private(set) var earlyEnds: [InputEarlyEnd] = []

    /// An ad whose media the session had to wait for.
    struct Buffering: Hashable {
        var breakIndex: Int
        var adIndex: Int
        var url: URL
        var waited: Duration
    }

    /// A cache entry of an ad's media that was dropped as untrustworthy before the media was fetched again.
    struct CacheDrop: Hashable {
        var breakIndex: Int
        var adIndex: Int
        var drop: MediaCacheDrop
    }

    init(format: OutputFormat, threads: Int, downloads: MediaDownloads, reportsWaits: Bool) {
        self.format = format
        self.threads = threads
        self.downloads = downloads
        self.reportsWaits = reportsWaits
    }

    func source(_ ad: AdReference) -> MediaSource? { open[ad] }

    func close(_ ad: AdReference) { open[ad] = nil }

    func closeAll() { if !open.isEmpty { open.removeAll() } }

    /// The waits since the last call, in order.
    func takeWaits() -> [Buffering] {
        defer { waits.removeAll() }
        return waits
    }

    /// The dropped cache entries since the last call, in order.
    func takeCacheDrops() -> [CacheDrop] {
        defer { drops.removeAll() }
        return drops
    }

    /// A missing file is VAST 401, a download that failed 401 or 402 (see `MediaCacheError`); anything that keeps
    /// the file from playing (not media, no video, no frames, truncated) is 405; an ad without a chosen rendition
    /// is 403.
    ///
    /// A rendition that fails is followed by the ad's next fallback rendition (`MediaSelection.fallbacks`, best
    /// first); the ad fails with the chosen rendition's error only when every one of them fails.
    func prepareAd(breakIndex: Int, adIndex: Int, ad: LinearAd) -> Result<AdMediaInfo, AdError> {
        let renditions = ad.selection?.renditions ?? []
        guard !renditions.isEmpty else {
            return .failure(AdError(.noSupportedMedia, "ad \(ad.id ?? String(adIndex)) has no playable media file"))
        }
        var failures: [AdError] = []
        for rendition in renditions {
            switch open(rendition, breakIndex: breakIndex, adIndex: adIndex) {
            case .success(var info):
                if !failures.isEmpty {
                    info.fallback = AdMediaInfo.Fallback(rendition: rendition, failures: failures)
                }
                return .success(info)
            case .failure(let error):
                failures.append(error)
            }
        }
        guard failures.count > 1 else { return .failure(failures[0]) }
        let first = failures[0]
        return .failure(AdError(first.code, first.message + "; and every fallback rendition failed too: "
            + failures.dropFirst().map(\.message).joined(separator: "; ")))
    }

    /// Opens one rendition: a local file, or the media cache's copy of a remote one (waiting for its download).
    private func open(_ rendition: MediaSelection.Rendition, breakIndex: Int, adIndex: Int) -> Result<AdMediaInfo, AdError> {
        let path: String
        if let local = rendition.localPath {
            path = local
        } else if let url = rendition.remoteURL {
            let outcome = downloads.file(for: url)
            drops += outcome.dropped.map { CacheDrop(breakIndex: breakIndex, adIndex: adIndex, drop: $0) }
            if reportsWaits, let waited = outcome.waited {
                waits.append(Buffering(breakIndex: breakIndex, adIndex: adIndex, url: url, waited: waited))
            }
            switch outcome.result {
            case .success(let file): path = file
            case .failure(let error): return .failure(error.adError)
            }
        } else {
            return .failure(AdError(.fileNotFound, "media \(rendition.file.url): not located"))
        }
        do {
            let source = try MediaSource(path: path, format: format, threads: threads, pictureLimit: .creatives)
            try normaliser?.prepare(source, ad: AdReference(breakIndex, adIndex))
            open[AdReference(breakIndex, adIndex)] = source
            if let early = source.earlyEnd { earlyEnds.append(InputEarlyEnd(ad: AdReference(breakIndex, adIndex), earlyEnd: early)) }
            return .success(AdMediaInfo(frameCount: source.frameCount, duration: source.videoDuration,
                                        earlyEnd: source.earlyEnd))
        } catch .fileNotFound(let p) {
            return .failure(AdError(.fileNotFound, "\(p): no such file"))
        } catch {
            return .failure(AdError(.mediaDisplay, "\(error)"))
        }
    }
}
