import MediaCore

/// One thing a user can do to a playing session, typed live or written in a `--script`.
public enum SessionCommand: Hashable, Sendable, CustomStringConvertible {
    /// `pip`: start picture-in-picture when it is inactive, stop it otherwise.
    case togglePictureInPicture
    /// `pip on`
    case startPictureInPicture
    /// `pip off`
    case stopPictureInPicture
    /// `seek T`: move the content to `T` on the content clock (refused while an ad plays).
    case seek(MediaTime)
    /// `pause`: freeze the picture until `resume`.
    case pause
    /// `resume`
    case resume
    /// `skip`: skip the playing ad, once it is skippable and its skip offset has passed.
    case skip
    /// `click`: click the ad on screen (`CLICK` and its ClickTracking beacons; the ClickThrough URL is recorded,
    /// never opened). Refused while no ad is on screen.
    case click
    /// `quit`: end the session at once.
    case quit
    /// A change to the screen: `rotate`, `resize`, `split`, `fold`, `unfold`, `activate`, `present interstitial`,
    /// `tap`, `dismiss` (see `ScreenCommand`).
    case screen(ScreenCommand)
    /// A native placement's command: `load slider`, `load images`, `swipe left|right`, `scroll N` (see
    /// `NativeCommand`).
    case native(NativeCommand)

    /// Parses one command without a time, as typed live: `pip`, `pip on`, `pip off`, `seek 1:30`, `pause`,
    /// `resume`, `skip`, `click`, `quit` (case and extra spaces do not matter).
    ///
    /// - Throws: `ScriptError.unknownCommand` or `.badArgument`, naming the text.
    public init(parsing text: String) throws(ScriptError) {
        let asWritten = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let words = asWritten.map { $0.lowercased() }
        let written = words.joined(separator: " ")
        switch words.first {
        case "pip":
            switch words.dropFirst().first {
            case nil: self = .togglePictureInPicture
            case "on" where words.count == 2: self = .startPictureInPicture
            case "off" where words.count == 2: self = .stopPictureInPicture
            default: throw .badArgument(command: written, detail: "pip takes nothing, \"on\" or \"off\"")
            }
        case "seek":
            guard words.count == 2 else {
                throw .badArgument(command: written, detail: "seek takes one content time, as in \"seek 1:30\"")
            }
            guard let target = ScriptTime.parse(words[1]) else { throw .badTime(command: written, time: words[1]) }
            self = .seek(target)
        case "pause": self = try Self.single(.pause, words, written)
        case "resume": self = try Self.single(.resume, words, written)
        case "skip": self = try Self.single(.skip, words, written)
        case "click": self = try Self.single(.click, words, written)
        case "quit": self = try Self.single(.quit, words, written)
        case let word? where ScreenCommand.words.contains(word):
            // Scene names keep their case; only the keywords are read in any case.
            self = .screen(try ScreenCommand(words: asWritten))
        case let word? where NativeCommand.words.contains(word):
            self = .native(try NativeCommand(words: asWritten))
        default: throw .unknownCommand(command: written)
        }
    }

    /// The first words of the commands that go to one player (and so may name its scene, `pip on in side`).
    static let playerWords: Set<String> = ["pip", "seek", "pause", "resume", "skip", "click"]

    /// Whether the command goes to one player; screen commands, native ones (the screen's placements) and `quit`
    /// are the whole session's.
    public var isPlayerCommand: Bool {
        switch self {
        case .screen, .native, .quit: false
        default: true
        }
    }

    private static func single(_ command: SessionCommand, _ words: [String], _ written: String) throws(ScriptError) -> SessionCommand {
        guard words.count == 1 else { throw .badArgument(command: written, detail: "\(words[0].excerpt) takes no argument") }
        return command
    }

    /// The command as a script writes it; a seek target is written exactly.
    public var description: String { text(formattingTime: ScriptTime.formatExactly) }

    func text(formattingTime format: (MediaTime) -> String) -> String {
        switch self {
        case .togglePictureInPicture: "pip"
        case .startPictureInPicture: "pip on"
        case .stopPictureInPicture: "pip off"
        case .seek(let target): "seek \(format(target))"
        case .pause: "pause"
        case .resume: "resume"
        case .skip: "skip"
        case .click: "click"
        case .quit: "quit"
        case .screen(let command): command.description
        case .native(let command): command.description
        }
    }
}
