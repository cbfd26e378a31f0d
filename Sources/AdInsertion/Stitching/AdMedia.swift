import MediaCore
import VideoPipeline

/// Opens each ad's media when the session is about to play it, and keeps it open while it plays.
final class AdMedia: AdMediaProvider {
    let format: OutputFormat
    let threads: Int
    private var open: [AdReference: MediaSource] = [:]

    init(format: OutputFormat, threads: Int) {
        self.format = format
        self.threads = threads
    }

    func source(_ ad: AdReference) -> MediaSource? { open[ad] }

    func close(_ ad: AdReference) { open[ad] = nil }

    func closeAll() { if !open.isEmpty { open.removeAll() } }

    /// A missing file is VAST 401; anything that keeps the file from playing (not media, no video, no frames,
    /// truncated) is 405; an ad without a chosen rendition is 403.
    func prepareAd(breakIndex: Int, adIndex: Int, ad: LinearAd) -> Result<AdMediaInfo, AdError> {
        guard let path = ad.localMediaPath else {
            return .failure(AdError(.noSupportedMedia, "ad \(ad.id ?? String(adIndex)) has no playable media file"))
        }
        do {
            let source = try MediaSource(path: path, format: format, threads: threads)
            open[AdReference(breakIndex, adIndex)] = source
            return .success(AdMediaInfo(frameCount: source.frameCount, duration: source.videoDuration))
        } catch .fileNotFound(let p) {
            return .failure(AdError(.fileNotFound, "\(p): no such file"))
        } catch {
            return .failure(AdError(.mediaDisplay, "\(error)"))
        }
    }
}
