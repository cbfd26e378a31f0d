import Foundation
import MediaCore

/// The timed commands of a batch session, as `pipctl render --script` takes them:
/// `"pip on@12; pip off@20.5; seek 30@40; pause@50; resume@52; skip@61; pip@70"`.
///
/// Commands are separated by `;` or new lines; blank ones and `#` comments (to the end of a line) are ignored.
/// Times are on the OUTPUT clock; a `seek` target is on the content clock. A command applies at the first output
/// frame that starts at or after its time. Commands are kept in time order; commands with the same time keep the
/// order they were written in.
public struct SessionScript: Hashable, Sendable, CustomStringConvertible {
    public private(set) var commands: [TimedCommand]

    public init(_ commands: [TimedCommand] = []) {
        self.commands = commands.enumerated()
            .sorted { $0.element.time == $1.element.time ? $0.offset < $1.offset : $0.element.time < $1.element.time }
            .map(\.element)
    }

    /// The longest script text, in UTF-8 bytes: a session file's own limit (`SessionFileLimits.maximumFileBytes`).
    public static let maximumBytes = 4 << 20
    /// The most commands a script may hold (after comments and blank ones are left out): hours of a live session's
    /// commands, each applied frame by frame.
    public static let maximumCommands = 10_000

    /// Parses a whole script.
    ///
    /// - Throws: `ScriptError` for the first command that cannot be read, naming it as written, or `.tooLarge`
    ///   for a text over `maximumBytes` (before anything is parsed) or over `maximumCommands` commands.
    public init(parsing text: String) throws(ScriptError) {
        let bytes = text.utf8.count
        guard bytes <= Self.maximumBytes else { throw .tooLarge(.bytes(bytes)) }
        var commands: [TimedCommand] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for piece in code.split(separator: ";") where !piece.allSatisfy(\.isWhitespace) {
                guard commands.count < Self.maximumCommands else { throw .tooLarge(.commands) }
                commands.append(try TimedCommand(parsing: String(piece)))
            }
        }
        self.init(commands)
    }

    public var isEmpty: Bool { commands.isEmpty }

    /// Appends a command that applies at or after every command already here (as a live session records them).
    mutating func append(_ command: TimedCommand) {
        precondition(commands.last.map { $0.time <= command.time } ?? true, "commands are recorded in time order")
        commands.append(command)
    }

    /// The script in its own syntax with exact times: `parse(formatted())` gives this script back, value for value.
    /// A time without a finite decimal is written as a fraction (`401/30`).
    public func formatted() -> String {
        commands.map(\.description).joined(separator: "; ")
    }

    /// The script with each time (and seek target) written as the shortest decimal that applies at the same frame
    /// at `rate`: replaying it at that rate gives the same frames, and the text stays readable (`13.366` for frame
    /// 401 at 30 fps).
    public func formatted(frameRate rate: FrameRate) -> String {
        let snap = { (time: MediaTime) in ScriptTime.formatSnapped(time, to: rate) }
        return commands.map { $0.text(formattingTime: snap) }.joined(separator: "; ")
    }

    /// Checks that every command naming a scene (`pip on in side@12`) names one of `players`' scenes.
    ///
    /// - Throws: `ScriptError.badScene` naming the command and the scene: not among the screen's `scenes`, or
    ///   without a player.
    public func checkScenes(players: [SceneID], scenes: [SceneID]) throws(ScriptError) {
        for timed in commands {
            guard let scene = timed.scene, !players.contains(scene) else { continue }
            let known = scenes.contains(scene)
            let detail = if known { "scene \"\(scene)\" has no player" } else if players.isEmpty {
                "no scene \"\(scene)\": without a device (--device, --session) there are no scenes"
            } else {
                "no scene \"\(scene)\" (scenes with a player: \(players.map { "\"\($0)\"" }.joined(separator: ", ")))"
            }
            throw .badScene(command: timed.description, detail: detail)
        }
    }

    public var description: String { formatted() }
}
