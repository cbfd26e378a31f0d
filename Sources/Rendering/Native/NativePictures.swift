import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// The images, videos and font of a render's native placements, opened for drawing: each image's bytes (fetched
/// by the loader under the ad fetches' limits) written once into a temporary directory (removed with this value)
/// and decoded by `MediaSource`, each card's video opened as an ad's is (`AdMedia`: the chosen rendition, else its
/// fallbacks; remote ones through the media cache), and a `TextRasterizer` with the font the cards were measured
/// with. In `play` images are added as they arrive (`add(_:)`); videos are a render's only.
final class NativePictures {
    let rasterizer: TextRasterizer
    let format: OutputFormat
    /// The opened image of each URL; an image that does not decode is absent (its frame shows the placeholder).
    private var sources: [String: MediaSource] = [:]
    /// The render's loaded placements (videos); `nil` in `play`.
    let ads: NativeAds?
    /// Where each image was read from (a render's `NativeAds.imageSources`, or in `play` each as it arrives): the
    /// timeline's source of a card's image, which `verify` draws from.
    private var origins: [String: String]
    /// Each card's video, or why it cannot play (its frame shows the placeholder); see `video(of:)`.
    var videos: [NativeVideoKey: Result<MediaSource, AdError>] = [:]
    /// What opens the videos (`nil` without any) and the downloads of their remote renditions, begun at once.
    let videoMedia: AdMedia?
    private let videoDownloads: MediaDownloads?
    /// How many images were written into `directory`, to name the next one.
    private var written = 0
    private let directory: URL
    /// Text already drawn, by what was drawn: a card's text is the same frame after frame.
    private var texts: [TextKey: RenderedText] = [:]

    private struct TextKey: Hashable {
        var text: String
        var pixelSize: Int
        var width: Int
        var lineLimit: Int
    }

    init(ads: NativeAds?, images: [String: Data], font: String?, format: OutputFormat, threads: Int,
         cache: MediaCacheSettings) throws(RenderError) {
        self.ads = ads
        origins = ads?.imageSources ?? [:]
        self.format = format
        (videoMedia, videoDownloads) = Self.videoMedia(ads?.videos ?? [:], format: format, threads: threads, cache: cache)
        do throws(FontError) {
            rasterizer = TextRasterizer(font: try FreeTypeTextMeasurer.face(font))
        } catch {
            throw .session("--font: \(error)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipctl-native-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw .output(.outputNotWritable(path: directory.path, reason: "\(error)"))
        }
        add(images, origins: [:])
        // Every video that starts is opened before the render: its length places its quartiles.
        for start in ads?.outcome.videoStarts ?? [] { _ = video(of: NativeVideoKey(start)) }
    }

    /// Opens `images` (bytes by URL), in URL order, each read from its `origins` entry; one that does not decode is
    /// left out.
    func add(_ images: [String: Data], origins: [String: String]) {
        self.origins.merge(origins) { first, _ in first }
        for (url, data) in images.sorted(by: { $0.key < $1.key }) where sources[url] == nil {
            guard let header = ImageHeader(data), let location = ResourceLocation(userInput: url, relativeTo: directory.path) else { continue }
            sources[url] = try? ScreenAdPictures.openImage(data, header: header, from: location, as: "image\(written)",
                                                          in: directory, format: format)
            written += 1
        }
    }

    deinit {
        videoDownloads?.cancel()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The decoded image at `url`, if it was fetched and decodes.
    func image(_ url: String) -> MediaSource? { sources[url] }

    /// Where the image at `url` was read from.
    func origin(of url: String) -> String? { origins[url] }

    /// `text` drawn at `pixelSize` within `width` pixels in at most `lineLimit` lines.
    func text(_ text: String, pixelSize: Int, width: Int, lineLimit: Int) throws(FontError) -> RenderedText {
        let key = TextKey(text: text, pixelSize: pixelSize, width: width, lineLimit: lineLimit)
        if let drawn = texts[key] { return drawn }
        if texts.count > 256 { texts.removeAll() }
        let drawn = try rasterizer.render(text, pixelSize: pixelSize, width: width, lineLimit: lineLimit)
        texts[key] = drawn
        return drawn
    }
}
