import Foundation
import MediaCore

/// A command and the output time at which it applies: the first output frame that starts at or after `time`.
public struct TimedCommand: Hashable, Sendable, CustomStringConvertible {
    /// On the output clock.
    public var time: MediaTime
    public var command: SessionCommand
    /// The scene whose player a player command is for (`pip on in side@12`); `nil` for the player of the
    /// `foregroundActive` scene, else the first player (and always for a screen command or `quit`).
    public var scene: SceneID?

    public init(time: MediaTime, command: SessionCommand, scene: SceneID? = nil) {
        self.time = time
        self.command = command
        self.scene = scene
    }

    /// Parses `command@time`, as in `pip on@12`, `seek 30@0:00:40`, `skip@1001/30`, and a player command for
    /// one scene's player, `pip on in side@12`, `seek 30 in side@40`.
    ///
    /// - Throws: `ScriptError`, naming the text.
    public init(parsing text: String) throws(ScriptError) {
        let written = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let parts = written.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .missingTime(command: written) }
        let timeText = parts[1].trimmingCharacters(in: .whitespaces)
        guard let time = ScriptTime.parse(timeText) else { throw .badTime(command: written, time: timeText) }
        do {
            var words = parts[0].split(whereSeparator: \.isWhitespace).map(String.init)
            var scene: SceneID?
            // `… in SCENE`: "in" is no argument of any player command, so the plain forms read as before.
            if words.count >= 3, words[words.count - 2].lowercased() == "in",
               SessionCommand.playerWords.contains(words[0].lowercased()) {
                scene = SceneID(words.removeLast())
                words.removeLast()
            }
            self.init(time: time, command: try SessionCommand(parsing: words.joined(separator: " ")), scene: scene)
        } catch {
            throw error.naming(written)
        }
    }

    /// `command@time` with the time written exactly.
    public var description: String { text(formattingTime: ScriptTime.formatExactly) }

    /// The command, its scene (`in SCENE`) and its time, each time written by `format`.
    func text(formattingTime format: (MediaTime) -> String) -> String {
        "\(command.text(formattingTime: format))\(scene.map { " in \($0)" } ?? "")@\(format(time))"
    }
}

extension ScriptError {
    /// The same error naming the whole command as written (with its time), so that the user finds it.
    func naming(_ command: String) -> ScriptError {
        switch self {
        case .missingTime: .missingTime(command: command)
        case .badTime(_, let time): .badTime(command: command, time: time)
        case .unknownCommand: .unknownCommand(command: command)
        case .badArgument(_, let detail): .badArgument(command: command, detail: detail)
        case .badScene(_, let detail): .badScene(command: command, detail: detail)
        case .tooLarge: self
        }
    }
}
