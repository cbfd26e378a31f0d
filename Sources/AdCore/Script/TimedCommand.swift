import Foundation
import MediaCore

/// A command and the output time at which it applies: the first output frame that starts at or after `time`.
public struct TimedCommand: Hashable, Sendable, CustomStringConvertible {
    /// On the output clock.
    public var time: MediaTime
    public var command: SessionCommand

    public init(time: MediaTime, command: SessionCommand) {
        self.time = time
        self.command = command
    }

    /// Parses `command@time`, as in `pip on@12`, `seek 30@0:00:40`, `skip@1001/30`.
    ///
    /// - Throws: `ScriptError`, naming the text.
    public init(parsing text: String) throws(ScriptError) {
        let written = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let parts = written.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .missingTime(command: written) }
        let timeText = parts[1].trimmingCharacters(in: .whitespaces)
        guard let time = ScriptTime.parse(timeText) else { throw .badTime(command: written, time: timeText) }
        do {
            self.init(time: time, command: try SessionCommand(parsing: String(parts[0])))
        } catch {
            throw error.naming(written)
        }
    }

    /// `command@time` with the time written exactly.
    public var description: String {
        "\(command.text(formattingTime: ScriptTime.formatExactly))@\(ScriptTime.formatExactly(time))"
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
        }
    }
}
