import AdCore
import MediaCore
import VideoPipeline

extension NativePictures {
    /// Opens each resolved video as the stitcher opens an ad (`AdMedia.prepareAd`: the chosen rendition, else the
    /// next fallback; remote ones downloaded through the media cache, all started together).
    static func openVideos(_ videos: [String: LinearAd], format: OutputFormat, threads: Int,
                           cache: MediaCacheSettings) -> [String: Result<MediaSource, AdError>] {
        guard !videos.isEmpty else { return [:] }
        let remote = videos.values.flatMap { $0.selection?.renditions.compactMap(\.remoteURL) ?? [] }
        let downloads = MediaDownloads(urls: remote, cache: MediaCache(settings: cache))
        downloads.start()
        defer { downloads.cancel() }
        let media = AdMedia(format: format, threads: threads, downloads: downloads, reportsWaits: false)
        var opened: [String: Result<MediaSource, AdError>] = [:]
        for (index, (tag, ad)) in videos.sorted(by: { $0.key < $1.key }).enumerated() {
            opened[tag] = media.prepareAd(breakIndex: 0, adIndex: index, ad: ad).flatMap { _ in
                media.source(AdReference(0, index)).map { .success($0) } ?? .failure(AdError(.mediaDisplay, "not opened"))
            }
        }
        return opened
    }

    /// The run's events with each card video's own merged in, in time order (a video's after the run's of the same
    /// moment): where it starts, its VAST impressions and `start` trackers; its `firstQuartile`, `midpoint`,
    /// `thirdQuartile` and `complete` trackers when its own clock reaches a quarter, half, three quarters and all of
    /// its media's real length (output frames past the render's end never come, so neither do their beacons); or,
    /// for a video that cannot play, a `videoFailed` event saying why.
    var events: [NativeAdEvent] {
        var video: [NativeAdEvent] = []
        for start in ads.outcome.videoStarts {
            func event(_ kind: NativeAdEvent.Kind, at time: MediaTime) -> NativeAdEvent {
                NativeAdEvent(time: time, placement: start.placement, scene: start.scene, kind: kind, card: start.card, ad: start.ad)
            }
            guard let ad = ads.videos[start.vastTag], case .success(let source)? = videos[start.vastTag] else {
                var failed = event(.videoFailed, at: start.time)
                let why = if case .failure(let error)? = videos[start.vastTag] { error.message } else { ads.videoFailures[start.vastTag] }
                failed.message = "card video cannot play, its frame shows the placeholder: \(why ?? "not resolved")"
                video.append(failed)
                continue
            }
            let marks: [(TrackingEventName, Rational)] = [
                (.start, .zero), (.firstQuartile, Rational(1, 4)), (.midpoint, Rational(1, 2)), (.thirdQuartile, Rational(3, 4)),
                (.complete, .one),
            ]
            for (name, fraction) in marks {
                let time = start.time + source.videoDuration * fraction
                let urls = (name == .start ? ad.impressions.map { (TrackingEventName.impression, $0) } : [])
                    + ad.tracking.filter { $0.event == name }.map { (name, $0.url) }
                for (beacon, url) in urls {
                    var e = event(.beacon, at: time)
                    e.beacon = beacon
                    e.url = url
                    video.append(e)
                }
            }
        }
        // In time order, each moment's in the order made (a stable sort), then merged after the run's.
        var merged: [NativeAdEvent] = []
        var rest = video.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)[...]
        for event in ads.outcome.events {
            while let next = rest.first, next.time < event.time { merged.append(rest.removeFirst()) }
            merged.append(event)
        }
        return merged + rest
    }
}
