import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import Rendering

extension SessionOptions {
    /// The session on a device: read from `--session` (once per command: pass it on), or the one scene the
    /// shortcuts (`--device`, `--orientation`, `--point-scale`, `--banner`, `--test-mode`) describe; `nil` without a
    /// device.
    ///
    /// - Parameter isCancelled: asked while a session file that is a FIFO waits for its writer: the command's
    ///   interrupt flag, so that a signal ends the wait.
    /// - Throws: `UsageError` for a shortcut without `--device`, an option the session file takes the place of,
    ///   a session file that cannot be read or used (its message names the JSON path), or a `--script` (which
    ///   replaces the file's script) that cannot be read.
    func screenSession(command: String, isCancelled: () -> Bool = { false }) throws(UsageError) -> ScreenSession? {
        if let sessionFile {
            let given: [(Bool, String)] = [
                (content != nil, "--content"), (ads != nil, "--ads/--break"),
                (shortcuts.device != nil, "--device"), (shortcuts.orientation != nil, "--orientation"),
                (shortcuts.pointScale != nil, "--point-scale"), (shortcuts.banner != nil, "--banner"),
                (shortcuts.bannerLayout != nil, "--banner-layout"), (shortcuts.testMode, "--test-mode"),
            ]
            if let name = given.first(where: \.0)?.1 {
                throw UsageError(command: command, message: "\(name): the --session file says this; give one or the other")
            }
            let session: ScreenSession
            do throws(SessionFileError) { session = try RenderRequest.session(contentsOfFile: sessionFile, isCancelled: isCancelled) } catch {
                throw UsageError(command: command, message: "--session: \(error)")
            }
            // `--script` takes the place of the file's script: `play`'s command log (which holds the file's script
            // commands as they applied) replays with `render --session FILE --script @LOG`.
            guard let script else { return session }
            let replacement: SessionScript
            do { replacement = try SessionOptions.loadScript(script, command: command) } catch let error as UsageError {
                throw error
            } catch {
                throw UsageError(command: command, message: "--script: \(error)")
            }
            return session.replacingScript(replacement.formatted())
        }
        guard let device = shortcuts.device else {
            for (given, name) in [(shortcuts.orientation != nil, "--orientation"), (shortcuts.pointScale != nil, "--point-scale"),
                                  (shortcuts.banner != nil, "--banner"), (shortcuts.bannerLayout != nil, "--banner-layout"),
                                  (shortcuts.testMode, "--test-mode")] where given {
                throw UsageError(command: command, message: "\(name) needs --device")
            }
            return nil
        }
        if shortcuts.bannerLayout != nil, shortcuts.banner == nil {
            throw UsageError(command: command, message: "--banner-layout needs --banner")
        }
        return .oneScene(device: device, orientation: shortcuts.orientation, pointScale: shortcuts.pointScale,
                         banner: shortcuts.banner, bannerLayout: shortcuts.bannerLayout ?? .below, testMode: shortcuts.testMode)
    }

    /// `screenSession(command:)` for a command that catches interrupts: a signal that arrives while a session file
    /// that is a FIFO waits for its writer ends the wait, and the command stops as interrupted (128 + the signal).
    func screenSession(context: CommandContext) throws -> ScreenSession? {
        do { return try screenSession(command: context.command, isCancelled: { context.interrupt.isSet }) } catch {
            try context.interrupt.checkpoint()
            throw error
        }
    }

    /// The local file of an ads document, for the files check; `nil` for a URL or quick breaks.
    static func localDocument(_ ads: AdSource?) -> String? {
        guard case .document(let tag)? = ads else { return nil }
        let lower = tag.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://"), URL(string: tag) != nil { return nil }
        return tag
    }
}

extension ScreenSession {
    /// The same session with `script` (script syntax) in place of its own.
    func replacingScript(_ script: String) -> ScreenSession {
        ScreenSession(screen: screen, testMode: testMode, banners: banners, fullScreenAds: fullScreenAds,
                      nativePlacements: nativePlacements, players: players, script: script, urlMap: urlMap, directory: directory)
    }
}
