import AdInsertion
import Foundation
import MediaCore
import VideoPipeline

/// Turns `render`/`play` options into what the libraries take: the demo defaults, the ad plan, the settings.
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

    /// The content to play and the script to follow, with the demo's filled in when nothing was given.
    func resolvedInputs() throws -> (content: String, ads: Ads?, urlMap: String?, script: ScriptSource?) {
        if let session = try sessionInputs(command: "pipctl") { return (session.content, session.ads, session.urlMap, session.script) }
        guard usesDemo else { return (content ?? "", ads, urlMap, script) }
        let demo = try Demo.locate()
        return (demo.content, .document(.file(path: demo.vmap)), urlMap ?? demo.urlMap, script ?? .file(path: demo.script))
    }

    /// Loads the ad plan for content of `contentDuration`: from the VMAP/VAST document or the `--break` values.
    ///
    /// An `--ads` document that cannot be loaded (unreachable, not XML, not VAST/VMAP) leaves a plan without breaks
    /// whose only entry is that error, so that the content plays and the event log carries the VAST code, with a
    /// warning on standard error; with `--strict-ads` it fails the command instead.
    func loadPlan(ads: Ads?, urlMap: String?, contentDuration: MediaDuration, window: PixelSize,
                  context: CommandContext) async throws -> AdPlan {
        let command = context.command
        var settings = AdsLoaderSettings()
        settings.urlMap = try SessionOptions.loadURLMap(urlMap, command: command)
        settings.mediaSelection.window = self.window ?? window
        try decisioning.apply(to: &settings, command: command)
        let loader = AdsLoader(settings: settings)
        switch ads {
        case nil:
            return .empty
        case .document(let location):
            let request = AdsRequest(adTag: location.description, contentDuration: contentDuration, cuePoints: cuePoints)
            do {
                return try await loader.loadPlan(request)
            } catch {
                if strictAds || error.isUserError || Task.isCancelled { throw error }
                context.warn("--ads: \(error); playing the content without these ads (--strict-ads makes this an error)")
                return AdPlan(breaks: [], errors: [error.adError])
            }
        case .breaks(let values):
            let planned = Result { () throws(DecisioningError) in
                try loader.plan(quickBreaks: values.map(\.quick), contentDuration: contentDuration)
            }
            switch planned {
            case .success(let plan): return plan
            case .failure(let error) where error.isUserError:
                throw UsageError(command: command, message: "--break: \(error.message)")
            case .failure(let error): throw error
            }
        }
    }

    /// Reads `--url-map FILE`; a file that cannot be read or has a bad line is a usage error naming the line.
    static func loadURLMap(_ path: String?, command: String) throws(UsageError) -> URLMap? {
        guard let path else { return nil }
        switch Result(catching: { () throws(DecisioningError) in try URLMap.load(contentsOfFile: path) }) {
        case .success(let map): return map
        case .failure(let error): throw UsageError(command: command, message: "--url-map: \(error.message)")
        }
    }

    /// The session's settings for ads and picture-in-picture.
    var adsSettings: AdsRenderingSettings {
        AdsRenderingSettings(playAdsAfterTime: playAdsAfter, seekPolicy: seekPolicy.library, playsPrerolls: playsPreroll,
                             playsMidrolls: playsMidrolls, playsPostrolls: playsPostroll)
    }

    var pictureInPictureSettings: PictureInPictureSettings {
        PictureInPictureSettings(isBackgroundPlaybackEnabled: backgroundPlaybackEnabled,
                                 widthFraction: pictureInPictureSize, corner: pictureInPictureCorner.library,
                                 margin: pictureInPictureMargin, transitionFrames: Int64(pictureInPictureTransition),
                                 breakPolicy: pictureInPictureAdPolicy.library)
    }

    /// Reads the script text (inline or `@FILE`) and parses it.
    static func loadScript(_ source: ScriptSource?, command: String) throws -> SessionScript {
        guard let source else { return SessionScript() }
        let text: String
        switch source {
        case .text(let inline): text = inline
        case .file(let path):
            // Read bounded: a script larger than its limit is refused before it is read whole.
            let data: Data
            do throws(BoundedRead.Failure) { data = try BoundedRead.contents(ofFile: path, limit: SessionScript.maximumBytes) } catch {
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
