import AdDecisioning
import AdPlayback
import AdScreen
import MediaCore
import VideoPipeline

/// One card's video: the placement, the card's index in its block and the asset's `vastTag`.
struct NativeVideoKey: Hashable {
    var placement: String
    var card: Int
    var tag: String

    init(placement: String, card: Int, tag: String) {
        self.placement = placement
        self.card = card
        self.tag = tag
    }

    init(_ start: NativeVideoStart) { self.init(placement: start.placement, card: start.card, tag: start.vastTag) }
}

extension NativePictures {
    /// What opens card videos as the stitcher opens ads (`AdMedia.prepareAd`), and the downloads of every remote
    /// rendition they may need, started now; `nil` without videos.
    static func videoMedia(_ videos: [String: LinearAd], format: OutputFormat, threads: Int,
                           cache: MediaCacheSettings) -> (AdMedia?, MediaDownloads?) {
        guard !videos.isEmpty else { return (nil, nil) }
        let remote = videos.sorted { $0.key < $1.key }.flatMap { $0.value.selection?.renditions.compactMap(\.remoteURL) ?? [] }
        let downloads = MediaDownloads(urls: remote, cache: MediaCache(settings: cache))
        downloads.start()
        return (AdMedia(format: format, threads: threads, downloads: downloads, reportsWaits: false), downloads)
    }

    /// `key`'s video, opened on first use (the chosen rendition, else the next fallback; a remote one waits for its
    /// download), or why it cannot play; `nil` when its VAST did not resolve. Each card has a source of its own: a
    /// picture is borrowed only until its source's next tick, and two cards' clocks differ.
    func video(of key: NativeVideoKey) -> Result<MediaSource, AdError>? {
        if let opened = videos[key] { return opened }
        guard let ad = ads?.videos[key.tag], let videoMedia else { return nil }
        let reference = AdReference(0, videos.count)
        let opened = videoMedia.prepareAd(breakIndex: reference.breakIndex, adIndex: reference.adIndex, ad: ad).outcome.flatMap { _ in
            videoMedia.source(reference).map { .success($0) } ?? .failure(AdError(.mediaDisplay, "\(key.tag): not opened"))
        }
        videos[key] = opened
        return opened
    }

    /// The run's events with each card video's own merged in, in time order (a video's after the run's of the same
    /// moment): where it starts, its VAST impressions and `start` trackers; its `firstQuartile`, `midpoint`,
    /// `thirdQuartile` and `complete` trackers when its own clock reaches a quarter, half, three quarters and all of
    /// its media's real length (output frames past the render's end never come, so neither do their beacons); or,
    /// for a video that cannot play, a `videoFailed` event saying why. The started videos were opened by `init`.
    var events: [NativeAdEvent] {
        guard let ads else { return [] }
        var video: [NativeAdEvent] = []
        for start in ads.outcome.videoStarts {
            func event(_ kind: NativeAdEvent.Kind, at time: MediaTime) -> NativeAdEvent {
                NativeAdEvent(time: time, placement: start.placement, scene: start.scene, kind: kind, card: start.card, ad: start.ad)
            }
            let opened = videos[NativeVideoKey(start)]
            guard let ad = ads.videos[start.vastTag], case .success(let source)? = opened else {
                let why = if case .failure(let error)? = opened { error.message } else { ads.videoFailures[start.vastTag] }
                video.append(event(.videoFailed("card video cannot play, its frame shows the placeholder: \(why ?? "not resolved")"),
                                   at: start.time))
                continue
            }
            let marks: [(TrackingEventName, Rational)] = [
                (.start, .zero), (.firstQuartile, Rational(1, 4)), (.midpoint, Rational(1, 2)), (.thirdQuartile, Rational(3, 4)),
                (.complete, .one),
            ]
            for (name, fraction) in marks {
                let time = start.time + source.videoDuration * fraction
                let urls = (name == .start ? ad.beacons.impressions.map { (TrackingEventName.impression, $0) } : [])
                    + ad.beacons.tracking.filter { $0.event == name }.map { (name, $0.url) }
                for (beacon, url) in urls {
                    video.append(event(.beacon(beacon, url: url), at: time))
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
