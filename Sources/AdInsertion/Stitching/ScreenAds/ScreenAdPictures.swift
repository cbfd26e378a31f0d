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
    private let directory: URL

    init(run: ScreenAdRun, format: OutputFormat) throws(RenderError) {
        self.run = run
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipctl-banners-\(UUID().uuidString)")
        var sources: [MediaSource?] = []
        var opened: [Data: MediaSource] = [:]
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .output(.outputNotWritable(path: directory.path, reason: "\(error)"))
        }
        for (index, change) in run.bannerChanges.enumerated() {
            guard case .image(let location, let header, let data)? = change.creative?.content else {
                sources.append(nil)
                continue
            }
            if let same = opened[data] {
                sources.append(same)
                continue
            }
            let file = directory.appendingPathComponent("\(index).\(header.format == .jpeg ? "jpg" : header.format.rawValue)")
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
        self.sources = sources
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
