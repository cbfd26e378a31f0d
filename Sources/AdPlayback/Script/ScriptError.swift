import MediaCore

/// A command of a `--script` (or one typed live) that cannot be read; each case names the command as written.
public enum ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A script command has no `@time`, or more than one.
    case missingTime(command: String)
    /// A time (after `@`, or the target of `seek`) is not seconds, `hh:mm:ss[.mmm]` or a fraction `n/d`.
    case badTime(command: String, time: String)
    /// The command word is not one of `pip`, `seek`, `pause`, `resume`, `skip`, `click`, `quit` or a screen
    /// command (`ScreenCommand.words`).
    case unknownCommand(command: String)
    /// The command word is known but what follows it is not what it takes.
    case badArgument(command: String, detail: String)
    /// A player command names a scene (`in SCENE`) that the session does not have, or that has no player.
    case badScene(command: String, detail: String)
    /// The script is larger than `SessionScript.maximumBytes`, or holds more than `SessionScript.maximumCommands`
    /// commands; checked before (bytes) and while (commands) it is read, so a huge script costs no parsing.
    case tooLarge(Size)

    /// What made a script too large.
    public enum Size: Hashable, Sendable {
        /// Its text, of this many bytes.
        case bytes(Int)
        /// Its commands, one more than the limit (the script is read no further).
        case commands
    }

    /// How the script exceeds its limit, without the leading "script": for a session file's `script` error.
    public var limitDescription: String {
        switch self {
        case .tooLarge(.bytes(let bytes)): "\(bytes) bytes, more than the limit of \(SessionScript.maximumBytes) bytes"
        case .tooLarge(.commands): "more than the limit of \(SessionScript.maximumCommands) commands"
        default: description
        }
    }

    public var description: String {
        switch self {
        case .missingTime(let command):
            "script command \"\(command.excerpt)\": needs exactly one \"@time\" on the output clock, as in \"pip on@12.5\""
        case .badTime(let command, let time):
            "script command \"\(command.excerpt)\": \"\(time.excerpt)\" is not a time; write seconds (12.5), hh:mm:ss.mmm or a fraction (1001/30)"
        case .unknownCommand(let command):
            "script command \"\(command.excerpt)\": unknown command; use pip, pip on, pip off, seek T, pause, resume, skip, click, quit, or a screen command: rotate, resize, split, fold, unfold, activate, present interstitial, tap, dismiss, or a native command: load slider, load images, swipe left|right, scroll N"
        case .badArgument(let command, let detail), .badScene(let command, let detail):
            "script command \"\(command.excerpt)\": \(detail)"
        case .tooLarge: "script: " + limitDescription
        }
    }
}
