import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// The banner creatives a `ScreenAdRun` loaded, opened for drawing: each image written once into a temporary
/// directory (removed with this value) and decoded by the same `MediaSource` as a `--banner` file.
///
/// The loader holds the bytes it fetched (under the ad fetches' size limit and origin policy); writing them to a
/// file lets FFmpeg's image demuxers read them the way they read any other input, with no second download. A video
/// full-screen creative is opened from its local (or URL-mapped) file, or downloaded through the media cache (bounded
/// in size and time), before the render starts: whether it opens decides whether it can present at all.
final class ScreenAdPictures {
    let run: ScreenAdRun
    /// The source of `run.bannerChanges[i]`; `nil` where that change has no creative or it is not an image.
    private let sources: [MediaSource?]
    /// The source of `run.fullScreenChanges[i]`, likewise, for an image.
    private let fullScreenSources: [MediaSource?]
    /// Each video full-screen creative that opened, by request; read from its first frame when it presents.
    private(set) var videoSources: [Int: MediaSource]
    /// The image full-screen creatives loaded live (handed over by the director), by request, with their request URLs.
    private var liveImages: [Int: (source: MediaSource, url: String)] = [:]
    private let cache: MediaCacheSettings
    private let directory: URL
    private let format: OutputFormat
    /// Banners loaded live (the director's live banner requests), in the order they took effect: from `time` on, `scene` shows
    /// `source` (`nil`: the request failed, so its slot shows nothing of the ad's).
    private var live: [(time: MediaTime, scene: SceneID, source: MediaSource?, url: String?)] = []

    /// Opens what `run` loaded. A creative that cannot be opened is not an error: its request fails (its
    /// failure event is logged) and its slot shows nothing of the ad's.
    ///
    /// - Throws: `RenderError.output` when the temporary directory cannot be created.
    init(run: ScreenAdRun, format: OutputFormat, cache: MediaCacheSettings) throws(RenderError) {
        self.format = format
        self.cache = cache
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipctl-banners-\(UUID().uuidString)")
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .output(.outputNotWritable(path: directory.path, reason: "\(error)"))
        }
        // Nothing below throws, so `deinit` removes the directory on every path.
        var opened: [Data: MediaSource] = [:], failures: [Int: ScreenAdError] = [:]
        sources = Self.open(run.bannerChanges, "banner", in: directory, format: format, opened: &opened, failures: &failures)
        fullScreenSources = Self.open(run.fullScreenChanges, "fullscreen", in: directory, format: format, opened: &opened,
                                      failures: &failures)
        let (videos, outcomes) = Self.openVideos(run.fullScreenChanges.map { ($0.request, $0.creative) }, format: format, cache: cache)
        videoSources = videos
        self.run = outcomes.isEmpty && failures.isEmpty ? run : run.opening(videos: outcomes, imageFailures: failures)
    }

    /// Opens each video creative: its file, or its download through the media cache (all started together).
    private static func openVideos(_ creatives: [(request: Int, creative: DisplayCreative?)], format: OutputFormat,
                                   cache: MediaCacheSettings) -> ([Int: MediaSource], [Int: FullScreenVideoOutcome]) {
        let videos = creatives.compactMap { loaded -> (request: Int, location: ResourceLocation)? in
            guard case .video(let location, _)? = loaded.creative?.content else { return nil }
            return (loaded.request, location)
        }
        guard !videos.isEmpty else { return ([:], [:]) }
        let remote = videos.compactMap { if case .remote(let url) = $0.location { url } else { nil } }
        let downloads = MediaDownloads(urls: remote, cache: MediaCache(settings: cache))
        downloads.start()
        defer { downloads.cancel() }
        var sources: [Int: MediaSource] = [:], outcomes: [Int: FullScreenVideoOutcome] = [:]
        for (request, location) in videos {
            let path: String
            switch location {
            case .file(let file): path = file
            case .remote(let url):
                switch downloads.file(for: url).result {
                case .success(let file): path = file
                case .failure(let error):
                    outcomes[request] = .failure(.mediaUnavailable(source: location.description, detail: "\(error)"))
                    continue
                }
            }
            do {
                let source = try MediaSource(path: path, format: format, pictureLimit: .creatives)
                sources[request] = source
                outcomes[request] = .success(source.videoDuration)
            } catch {
                outcomes[request] = .failure(.mediaUnavailable(source: location.description, detail: "\(error)"))
            }
        }
        return (sources, outcomes)
    }

    /// Each change's image written once into `directory` and opened; identical bytes share one source. An image
    /// that cannot be opened is `nil`, and its request's failure is in `failures`.
    private static func open(_ changes: [ScreenAdRun.BannerChange], _ prefix: String, in directory: URL, format: OutputFormat,
                             opened: inout [Data: MediaSource], failures: inout [Int: ScreenAdError]) -> [MediaSource?] {
        var sources: [MediaSource?] = []
        for (index, change) in changes.enumerated() {
            guard case .image(let location, let header, let data)? = change.creative?.content else {
                sources.append(nil)
                continue
            }
            if let same = opened[data] {
                sources.append(same)
                continue
            }
            do {
                let source = try openImage(data, header: header, from: location, as: "\(prefix)\(index)", in: directory, format: format)
                opened[data] = source
                sources.append(source)
            } catch {
                failures[change.request] = error
                sources.append(nil)
            }
        }
        return sources
    }

    /// An image creative written into `directory` as `name` and opened, within `PictureLimit.creatives`.
    ///
    /// - Throws: `ScreenAdError.mediaUnavailable`, named by where the creative came from (not the temporary copy).
    static func openImage(_ data: Data, header: ImageHeader, from location: ResourceLocation, as name: String,
                          in directory: URL, format: OutputFormat) throws(ScreenAdError) -> MediaSource {
        let file = directory.appendingPathComponent("\(name).\(header.format == .jpeg ? "jpg" : header.format.rawValue)")
        do { try data.write(to: file) } catch {
            throw .mediaUnavailable(source: location.description, detail: "cannot write a temporary copy: \(error)")
        }
        do {
            return try MediaSource(path: file.path, format: format, pictureLimit: .creatives)
        } catch {
            try? FileManager.default.removeItem(at: file)
            let detail = "\(error)".replacingOccurrences(of: file.path + ": ", with: "")
            throw .mediaUnavailable(source: location.description, detail: "the \(header.format.rawValue) image cannot be decoded: \(detail)")
        }
    }

    /// Shows `creative` (`nil`: nothing) as `scene`'s banner from output time `time` on, over what the run loaded.
    ///
    /// - Throws: `ScreenAdError.mediaUnavailable` when its image cannot be decoded; the banner then shows nothing.
    func showLive(_ creative: DisplayCreative?, in scene: SceneID, from time: MediaTime) throws(ScreenAdError) {
        guard let creative, case .image(let location, let header, let data) = creative.content else {
            live.append((time, scene, nil, nil))
            return
        }
        do {
            let source = try Self.openImage(data, header: header, from: location, as: "live\(live.count)", in: directory, format: format)
            live.append((time, scene, source, creative.origin))
        } catch {
            live.append((time, scene, nil, nil))
            throw error
        }
    }

    /// Opens `creative`, loaded by live full-screen request `index`, as the run's are opened before the render: an
    /// image is written and opened, a video opened from its file or through the media cache.
    ///
    /// - Returns: for a video, whether it opened and its length (an ad that cannot play fails to present).
    func openLive(_ creative: DisplayCreative, request index: Int) -> FullScreenVideoOutcome? {
        switch creative.content {
        case .image(let location, let header, let data):
            if let source = try? Self.openImage(data, header: header, from: location, as: "fullscreen-live\(index)",
                                                in: directory, format: format) {
                liveImages[index] = (source, creative.origin)
            }
            return nil
        case .video:
            let (sources, outcomes) = Self.openVideos([(index, creative)], format: format, cache: cache)
            videoSources.merge(sources) { $1 }
            return outcomes[index]
        }
    }


    /// The image request `request` loaded for a full-screen ad, with where it was read from; `nil` for a video or none.
    func fullScreenImage(request: Int) -> (source: MediaSource, url: String)? {
        if let live = liveImages[request] { return live }
        guard let index = run.fullScreenChanges.firstIndex(where: { $0.request == request }),
              let source = fullScreenSources[index], let creative = run.fullScreenChanges[index].creative else { return nil }
        return (source, creative.origin)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// What `scene`'s banner shows at output time `time`: its creative's picture source and where it was read from, or
    /// `nil` when it has none then.
    func banner(of scene: SceneID, at time: MediaTime) -> (source: MediaSource, url: String)? {
        let batch = run.bannerChanges.last { $0.scene == scene && $0.time <= time }
        if let latest = live.last(where: { $0.scene == scene && $0.time <= time }), batch.map({ $0.time <= latest.time }) ?? true {
            guard let source = latest.source, let url = latest.url else { return nil }
            return (source, url)
        }
        guard let index = run.bannerChanges.lastIndex(where: { $0.scene == scene && $0.time <= time }),
              let source = sources[index], let creative = run.bannerChanges[index].creative else { return nil }
        return (source, creative.origin)
    }
}
