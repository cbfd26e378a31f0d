import Foundation
import MediaCore
import VideoPipeline

/// The banner creatives a `ScreenAdRun` loaded, opened for drawing: each image written once into a temporary
/// directory (removed with this value) and decoded by the same `MediaSource` as a `--banner` file.
///
/// The loader holds the bytes it fetched (under the ad fetches' size limit and origin policy); writing them to a
/// file lets FFmpeg's image demuxers read them the way they read any other input, with no second download.
final class ScreenAdPictures {
    let run: ScreenAdRun
    /// The source of `run.bannerChanges[i]`; `nil` where that change has no creative or it is not an image.
    private let sources: [MediaSource?]
    /// The source of `run.fullScreenChanges[i]`, likewise (a video full-screen ad is not drawn yet).
    private let fullScreenSources: [MediaSource?]
    private let directory: URL

    init(run: ScreenAdRun, format: OutputFormat) throws(RenderError) {
        self.run = run
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipctl-banners-\(UUID().uuidString)")
        var opened: [Data: MediaSource] = [:]
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .output(.outputNotWritable(path: directory.path, reason: "\(error)"))
        }
        sources = try Self.open(run.bannerChanges, "banner", in: directory, format: format, opened: &opened)
        fullScreenSources = try Self.open(run.fullScreenChanges, "fullscreen", in: directory, format: format, opened: &opened)
    }

    /// Each change's image written once into `directory` and opened; identical bytes share one source.
    private static func open(_ changes: [ScreenAdRun.BannerChange], _ prefix: String, in directory: URL, format: OutputFormat,
                             opened: inout [Data: MediaSource]) throws(RenderError) -> [MediaSource?] {
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
            let file = directory.appendingPathComponent("\(prefix)\(index).\(header.format == .jpeg ? "jpg" : header.format.rawValue)")
            do { try data.write(to: file) } catch {
                throw .output(.outputNotWritable(path: file.path, reason: "\(error)"))
            }
            do {
                let source = try MediaSource(path: file.path, format: format)
                opened[data] = source
                sources.append(source)
            } catch {
                // Named by where the creative came from, not by the temporary copy.
                throw .banner(.truncated(path: location.description, detail: "\(error)"))
            }
        }
        return sources
    }

    /// The creative `scene`'s presented full-screen ad shows at output time `time`: the last one loaded for it.
    func fullScreen(of scene: SceneID, at time: MediaTime) -> (source: MediaSource, url: String)? {
        guard let index = run.fullScreenChanges.lastIndex(where: { $0.scene == scene && $0.time <= time }),
              let source = fullScreenSources[index], let creative = run.fullScreenChanges[index].creative else { return nil }
        return (source, creative.requestURL)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// What `scene`'s banner shows at output time `time`: its creative's picture source and its request URL, or
    /// `nil` when it has none then.
    func banner(of scene: SceneID, at time: MediaTime) -> (source: MediaSource, url: String)? {
        guard let index = run.bannerChanges.lastIndex(where: { $0.scene == scene && $0.time <= time }),
              let source = sources[index], let creative = run.bannerChanges[index].creative else { return nil }
        return (source, creative.requestURL)
    }
}
