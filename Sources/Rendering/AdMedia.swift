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
    /// Whether waits are noted for `AD_BUFFERING` (a live session; a batch render's event log must not depend on
    /// the network's speed).
    let reportsWaits: Bool
    private var open: [AdReference: MediaSource] = [:]
    /// In a normalised render, measures each ad when it is first opened and sets its gain.
    var normaliser: LoudnessNormaliser?
    /// The ads opened so far whose media stops before its declared duration, in play order.
    private(set) var earlyEnds: [InputEarlyEnd] = []

    init(format: OutputFormat, threads: Int, downloads: MediaDownloads, reportsWaits: Bool) {
        self.format = format
        self.threads = threads
        self.downloads = downloads
        self.reportsWaits = reportsWaits
    }

    func source(_ ad: AdReference) -> MediaSource? { open[ad] }

    func close(_ ad: AdReference) { open[ad] = nil }

    func closeAll() { if !open.isEmpty { open.removeAll() } }

    /// A missing file is VAST 401, a download that failed 401 or 402 (see `MediaCacheError`); anything that keeps
    /// the file from playing (not media, no video, no frames, truncated) is 405; an ad without a chosen rendition
    /// is 403.
    ///
    /// A rendition that fails is followed by the ad's next fallback rendition (`MediaSelection.fallbacks`, best
    /// first); the ad fails with the chosen rendition's error only when every one of them fails.
    ///
    /// The notes are the ad's loudness (`--loudness`), then the waits for its downloads (`play`), then the cache
    /// entries dropped on the way, so that a dropped entry's line is right before the ad's `LOADED`.
    func prepareAd(breakIndex: Int, adIndex: Int, ad: LinearAd) -> PreparedAdMedia {
        let renditions = ad.selection?.renditions ?? []
        guard !renditions.isEmpty else {
            return PreparedAdMedia(.failure(AdError(.noSupportedMedia, "ad \(ad.id ?? String(adIndex)) has no playable media file")))
        }
        var noted = Notes()
        var failures: [AdError] = []
        for rendition in renditions {
            switch open(rendition, ad: AdReference(breakIndex, adIndex), noting: &noted) {
            case .success(var info):
                if !failures.isEmpty {
                    info.fallback = AdMediaInfo.Fallback(rendition: rendition, failures: failures)
                }
                return PreparedAdMedia(.success(info), notes: noted.inOrder)
            case .failure(let error):
                failures.append(error)
            }
        }
        guard failures.count > 1 else { return PreparedAdMedia(.failure(failures[0]), notes: noted.inOrder) }
        let first = failures[0]
        return PreparedAdMedia(.failure(AdError(first.code, first.message + "; and every fallback rendition failed too: "
            + failures.dropFirst().map(\.message).joined(separator: "; "))), notes: noted.inOrder)
    }

    /// What opening an ad's renditions noted, by kind.
    private struct Notes {
        var loudness: [MediaNote] = []
        var waits: [MediaNote] = []
        var drops: [MediaNote] = []

        var inOrder: [MediaNote] { loudness + waits + drops }
    }

    /// Opens one rendition: a local file, or the media cache's copy of a remote one (waiting for its download).
    private func open(_ rendition: MediaSelection.Rendition, ad: AdReference, noting noted: inout Notes) -> Result<AdMediaInfo, AdError> {
        let path: String
        if let local = rendition.localPath {
            path = local
        } else if let url = rendition.remoteURL {
            let outcome = downloads.file(for: url)
            noted.drops += outcome.dropped.map { .log(.mediaCacheEntryDropped, message: $0.description) }
            if reportsWaits, let waited = outcome.waited {
                noted.waits.append(.buffered(url: url.absoluteString, waited: waited))
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
            if let normaliser {
                defer { noted.loudness += normaliser.takeNotes() }
                try normaliser.prepare(source, ad: ad)
            }
            open[ad] = source
            if let early = source.earlyEnd { earlyEnds.append(InputEarlyEnd(ad: ad, earlyEnd: early)) }
            return .success(AdMediaInfo(frameCount: source.frameCount, duration: source.videoDuration,
                                        earlyEnd: source.earlyEnd))
        } catch .fileNotFound(let p) {
            return .failure(AdError(.fileNotFound, "\(p): no such file"))
        } catch {
            return .failure(AdError(.mediaDisplay, "\(error)"))
        }
    }
}
