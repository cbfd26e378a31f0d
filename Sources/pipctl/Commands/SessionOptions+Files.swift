import AdScreen
import Foundation
import Rendering

extension SessionOptions {
    /// Where a render's MP4 goes: `-o`, else the demo's `out/demo.mp4` or `out.mp4`.
    func outputPath(_ output: String?) -> String { output ?? (usesDemo ? "out/demo.mp4" : "out.mp4") }

    /// The files the session reads (the demo's when it plays the demo), for `CommandFiles.check`: the content, a
    /// local ads document, the `--break` media, the URL map, a script file, the picture-in-picture background and
    /// the font; with a session file (`screen`, read once by `screenSession(command:)`), each scene's content and
    /// ads, and the local sources of its banners, full-screen ads and native placements.
    ///
    /// What those documents name in turn (an ad's media, a wrapper's next document, a card's image) is known only
    /// once they are read: `RenderRequest.readFiles` lists it, checked after the request is built.
    func inputFiles(screen: ScreenSession?) throws -> CommandFiles {
        var files = CommandFiles()
        if sessionFile != nil, let session = screen, let player = session.player {
            files.read("--content", session.contentPath(of: player))
            files.read("--ads", Self.localDocument(session.adSource(of: player)))
            files.read("--url-map", adRequest.urlMap ?? session.urlMap.map(session.resolved))
            if case .file(let path) = script { files.read("--script", path) }
        } else {
            let inputs = try resolvedInputs()
            files.read("--content", inputs.content)
            switch inputs.ads {
            case .document(.file(let path)): files.read("--ads", path)
            case .breaks(let values): for file in values.flatMap(\.quick.files) { files.read("--break", file) }
            default: break
            }
            files.read("--url-map", inputs.urlMap)
            if case .file(let path) = inputs.script { files.read("--script", path) }
        }
        files.read("--pip-background", pictureInPicture.background)
        files.read("--session", sessionFile)
        if sessionFile != nil, let session = screen {
            for player in session.players.dropFirst() {
                files.read("--session (scene \(player.scene))", session.contentPath(of: player))
                files.read("--session (scene \(player.scene))", Self.localDocument(session.adSource(of: player)))
            }
        }
        files.read("--banner", shortcuts.banner.flatMap { CreativeSource(argument: $0).localPath })
        files.read("--font", font)
        if sessionFile != nil, let session = screen {
            for banner in session.banners {
                files.read("--session (the \(banner.label))", banner.source.localPath.map(session.resolved))
            }
            for ad in session.fullScreenAds {
                files.read("--session (the \(ad.kind) in scene \"\(ad.scene)\")", ad.source.localPath.map(session.resolved))
            }
            for placement in session.nativePlacements {
                files.read("--session (native \"\(placement.id)\" in scene \"\(placement.scene)\")",
                           Self.localDocument(.document(placement.source)).map(session.resolved))
            }
        }
        return files
    }
}
