import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import Rendering
import VideoPipeline

/// Turns `render`/`play` options into what the libraries take: the demo defaults, the settings.
extension SessionOptions {
    /// The bundled demo: its files are found in `media/` of the current directory, or of the checkout the tool
    /// was built in (`.build/<config>/pipctl` → `../../media`).
    struct Demo {
        var content: String
        var vmap: String
        var urlMap: String
        var script: String

        static func locate() throws -> Demo {
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            let candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("media"),
                              executable.deletingLastPathComponent().appendingPathComponent("../../../media").standardized]
            for directory in candidates where FileManager.default.fileExists(atPath: directory.appendingPathComponent("content.mp4").path) {
                let relative = directory.path == candidates[0].path ? "media" : directory.path
                return Demo(content: "\(relative)/content.mp4", vmap: "\(relative)/demo-vmap.xml",
                            urlMap: "\(relative)/demo.urlmap", script: "\(relative)/demo.script")
            }
            throw CommandFailure("the bundled demo media (media/content.mp4) is not here; run from the pipctl checkout or give --content")
        }
    }

    /// The content, ads, URL map and script given on the command line (without `--session`), with the demo's
    /// filled in when nothing was given.
    func resolvedInputs() throws -> (content: String, ads: Ads?, urlMap: String?, script: ScriptSource?) {
        guard usesDemo else { return (content ?? "", ads, adRequest.urlMap, script) }
        let demo = try Demo.locate()
        return (demo.content, .document(.file(path: demo.vmap)), adRequest.urlMap ?? demo.urlMap, script ?? .file(path: demo.script))
    }

    /// Reads `--url-map FILE`; a file that cannot be read or has a bad line is a usage error naming the line.
    static func loadURLMap(_ path: String?, command: String) throws(UsageError) -> URLMap? {
        guard let path else { return nil }
        switch Result(catching: { () throws(DecisioningError) in try URLMap.load(contentsOfFile: path) }) {
        case .success(let map): return map
        case .failure(let error): throw UsageError(command: command, message: "--url-map: \(error.message)")
        }
    }

    /// The library's value of `--ads` or `--break`.
    static func adSource(_ ads: Ads) -> AdSource {
        switch ads {
        case .document(let location): .document(location.description)
        case .breaks(let values): .breaks(values.map(\.quick))
        }
    }

    /// Reads the script text (inline or `@FILE`) and parses it.
    static func loadScript(_ source: ScriptSource?, command: String) throws -> SessionScript {
        guard let source else { return SessionScript() }
        let text: String
        switch source {
        case .text(let inline): text = inline
        case .file(let path):
            // Read bounded: a script larger than its limit is refused before it is read whole. A FIFO's wait ends
            // when the task is cancelled (`CommandContext.interruptible`, on a signal).
            let data: Data
            do throws(BoundedRead.Failure) {
                data = try BoundedRead.contents(ofFile: path, limit: SessionScript.maximumBytes, isCancelled: { Task.isCancelled })
            } catch {
                throw UsageError(command: command, message: "--script: \(path): \(error)")
            }
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw UsageError(command: command, message: "--script: \(path): not UTF-8 text")
            }
            text = decoded
        }
        do { return try SessionScript(parsing: text) } catch {
            throw UsageError(command: command, message: "--script: \(error)")
        }
    }
}

extension SessionOptions.AdBreaks {
    /// The session's settings for ads.
    var settings: AdsRenderingSettings {
        AdsRenderingSettings(playAdsAfterTime: playAdsAfter, seekPolicy: seekPolicy.library, playsPrerolls: playsPreroll,
                             playsMidrolls: playsMidrolls, playsPostrolls: playsPostroll)
    }
}

extension SessionOptions.PictureInPicture {
    /// The session's settings for picture-in-picture.
    var settings: PictureInPictureSettings {
        PictureInPictureSettings(isBackgroundPlaybackEnabled: backgroundPlaybackEnabled, widthFraction: size,
                                 corner: corner.library, margin: margin, transitionFrames: Int64(transition),
                                 breakPolicy: adPolicy.library)
    }
}
