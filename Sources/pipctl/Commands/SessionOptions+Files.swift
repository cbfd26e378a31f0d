import AdInsertion
import AdScreen
import Foundation

extension SessionOptions {
    /// Where a render's MP4 goes: `-o`, else the demo's `out/demo.mp4` or `out.mp4`.
    func outputPath(_ output: String?) -> String { output ?? (usesDemo ? "out/demo.mp4" : "out.mp4") }

    /// The files the session reads (the demo's when it plays the demo), for `CommandFiles.check`: the content, a
    /// local ads document, the `--break` media, the URL map, a script file and the picture-in-picture background;
    /// with a session file (`screen`, read once by `screenSession(command:)`), each scene's content and ads.
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
        return files
    }
}
