import AdDecisioning
import AdPlayback
import Foundation
import MediaCore

extension JSONPathReader {
    /// A scene's `native` placements (docs/SESSION.md): `id`, `source`, `style`, `top`, `maxRetries`,
    /// `loadImages`, `latencyMs`, `template`, each checked where it stands so that an error names its JSON path.
    ///
    /// - Parameter taken: the ids of placements read so far in the session; a `load slider NAME` must name one.
    func nativePlacements(_ value: Any, _ path: String, scene: SceneID,
                          taken: [NativePlacement]) throws(SessionFileError) -> [NativePlacement] {
        var placements: [NativePlacement] = []
        for (i, item) in try array(value, path).enumerated() {
            let at = "\(path)[\(i)]"
            let object = try self.object(item, at)
            try only(object, ["id", "source", "style", "top", "maxRetries", "loadImages", "latencyMs", "template"], at)
            let id = try string(object["id"], at + ".id")
            guard !id.isEmpty, !id.contains(where: \.isWhitespace) else { throw fail(at + ".id", "\"\(id.excerpt)\" is not a word") }
            guard !(taken + placements).contains(where: { $0.id == id }) else {
                throw fail(at + ".id", "\"\(id.excerpt)\" names an earlier native placement too")
            }
            let source = try string(object["source"], at + ".source")
            guard !source.isEmpty else { throw fail(at + ".source", "is empty") }
            var placement = NativePlacement(id: id, scene: scene, source: source)
            placement.declaredAt = "\(file): \(at)"
            if let style = object["style"] { placement.style = try choice(style, at + ".style", NativePlacement.Style.self) }
            if let top = object["top"] { placement.top = try count(top, at + ".top") }
            if let retries = object["maxRetries"] { placement.maximumRetries = try count(retries, at + ".maxRetries") }
            if let images = object["loadImages"] { placement.loadImages = try bool(images, at + ".loadImages") }
            if let latency = object["latencyMs"] {
                placement.latency = MediaDuration(value: Int64(try count(latency, at + ".latencyMs")), timeBase: Rational(1, 1000))
            }
            if let template = object["template"] {
                do throws(NativeError) { placement.template = try NativeCardTemplate(json: template, source: file, path: at + ".template") } catch {
                    guard case .invalidTemplate(_, let valuePath, let message) = error else { throw fail(at + ".template", error.description) }
                    throw fail(valuePath, message)
                }
            }
            placements.append(placement)
        }
        return placements
    }

    /// A whole number in 0…10000 (points or a count).
    private func count(_ value: Any, _ path: String) throws(SessionFileError) -> Int {
        let whole = try int(value, path)
        guard (0...10_000).contains(whole) else { throw fail(path, "\(whole) is not in 0…10000") }
        return whole
    }
}

/// The native placements of a render, loaded and evaluated before it starts: what each frame shows of them, their
/// events, the bytes of every image their blocks name and the resolved ad of every video.
public struct NativeAds: Sendable {
    public let outcome: NativeScreenRun.Outcome
    /// Each image URL of the loaded blocks (as resolved by the loader) and its bytes; an image whose fetch failed
    /// is absent (its frame shows the grey placeholder).
    public let images: [String: Data]
    /// Where each fetched image was read from (an absolute path or a URL), by its URL as the response names it:
    /// what the timeline's card layers give as their `source`, so that verify can read it again.
    public let imageSources: [String: String]
    /// Each video asset's `vastTag` and its linear ad, renditions chosen for the card's media frame (a video whose
    /// VAST does not resolve is absent: its frame shows the grey placeholder).
    public let videos: [String: LinearAd]
    /// Why each video asset that did not resolve cannot play, by its `vastTag` (also among the `warnings`).
    public let videoFailures: [String: String]
    /// What the loader's origin policy dropped, and the images and videos that cannot be shown, one line each.
    public let warnings: [String]
}

extension ScreenSession {
    /// Runs the session's native placements over a render: the loads `script`'s `load slider` commands make
    /// (under `settings`' limits, relative paths from the session's directory), then their images and videos' VAST,
    /// then the frame-by-frame evaluation until `end`; `nil` when the session has no native placement.
    ///
    /// - Throws: `NativeError.unknownPlacement` for a native command naming no placement. A load that fails is
    ///   not an error: it is the run's `onAdFailure`.
    /// - Parameter timeline: the screen over the render as its screen ads settle it (`ScreenAdRun.timeline`: a
    ///   failed present covers nothing); `nil` for the script's own timeline.
    public func loadNative(script: SessionScript, settings: AdsLoaderSettings, frameRate: FrameRate, end: MediaTime,
                           measurer: any TextMeasurer, timeline: ScreenTimeline? = nil) async throws(NativeError) -> NativeAds? {
        guard !nativePlacements.isEmpty else { return nil }
        let run = try NativeScreenRun(screen: timeline ?? ScreenTimeline(initial: screen, script: script), placements: nativePlacements,
                                      script: script, frameRate: frameRate, end: end, measurer: measurer)
        let loader = nativeLoader(settings: settings)
        var loads: [(result: NativeAdLoader.NativeLoadResult, placement: NativePlacement)] = [], warnings: [String] = []
        // Each load's images are fetched with it, so that one over the picture limit is refused before the run
        // binds its card (a required one is the card's binding failure).
        var fetched = NativeAdLoader.FetchedImages(), asked: Set<String> = []
        let outcome = await run.run { (placement) throws(NativeError) in
            var result = try await loader.load(placement.source)
            let more = await loader.fetchImages(of: [result.block], except: asked)
            asked.formUnion(more.asked)
            fetched.images.merge(more.images) { first, _ in first }
            fetched.oversized.merge(more.oversized) { first, _ in first }
            fetched.failures += more.failures
            result.block = result.block.refusing(images: fetched.oversized)
            loads.append((result, placement))
            warnings += result.warnings
            return result.block
        }
        // Overlapping placements have no rule for which is on top, in the drawing or in verify: refused.
        if let overlap = outcome.firstOverlap() {
            throw .overlappingPlacements(placement: overlap.placement.id, declaredAt: overlap.placement.declaredAt,
                                         other: overlap.other.id, scene: overlap.placement.scene.description,
                                         span: overlap.span, otherSpan: overlap.otherSpan,
                                         time: overlap.time.description)
        }
        let (images, failures) = (fetched.images, fetched.failures)
        let sources = images.keys.reduce(into: [String: String]()) { sources, url in
            sources[url] = loader.origin(of: url)
        }
        var videos: [String: LinearAd] = [:], videoFailures: [String: String] = [:]
        for (result, placement) in loads {
            // The media frame of a card of the template's width: 16:9 across the width inside the padding.
            let inner = max(0, placement.template.width - 2 * placement.template.padding)
            let window = screen.pointScale.pixels(PointSize(width: inner, height: inner * 9 / 16))
            let resolved = await loader.videos(of: result, window: window)
            videos.merge(resolved.videos) { first, _ in first }
            for (tag, failure) in resolved.failures.sorted(by: { $0.key < $1.key }) where videoFailures[tag] == nil && videos[tag] == nil {
                videoFailures[tag] = failure
                warnings.append(failure)
            }
        }
        return NativeAds(outcome: outcome, images: images, imageSources: sources, videos: videos, videoFailures: videoFailures,
                         warnings: warnings + failures)
    }
}

/// A session's native placements for a run evaluated as it plays (`play`): each `load slider` is fetched in the
/// background, with `loader`, when the command applies.
public struct LiveNativePlacements: Sendable {
    public let placements: [NativePlacement]
    /// The loader of the responses and their images; `play` gives it its outputs as `forbiddenFiles`.
    public var loader: NativeAdLoader
    /// `play --step`: every fetch started at a frame (a load's answer, a block's images) is waited for before the
    /// next frame, as a render fetches before it lands, so that where they land does not depend on the machine.
    public var waitsForFetches = false
}

extension ScreenSession {
    /// The session's native placements to be loaded as `play` applies their commands, under `settings`' limits
    /// (relative paths from the session's directory); `nil` when it has none.
    public func liveNative(settings: AdsLoaderSettings) -> LiveNativePlacements? {
        nativePlacements.isEmpty ? nil : LiveNativePlacements(placements: nativePlacements, loader: nativeLoader(settings: settings))
    }

    /// The loader of the session's native responses and images.
    func nativeLoader(settings: AdsLoaderSettings) -> NativeAdLoader {
        NativeAdLoader(settings: settings, directory: directory)
    }
}
