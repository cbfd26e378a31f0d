/// How a script writes a native command: the native model knows the commands, the script language their words.
extension NativeCommand {
    /// The command words this type reads.
    public static let words: Set<String> = ["load", "swipe", "scroll"]

    /// Reads the words of a command (keywords in any case, placement names as written).
    ///
    /// - Throws: `ScriptError.badArgument` naming what the command takes.
    public init(words: [String]) throws(ScriptError) {
        let written = words.joined(separator: " ")
        let lower = words.map { $0.lowercased() }
        func placement(after count: Int) throws(ScriptError) -> String? {
            guard words.count <= count + 1 else {
                throw .badArgument(command: written, detail: "\(lower[0]) takes at most one placement name after its arguments")
            }
            return words.count == count + 1 ? words[count] : nil
        }
        switch lower.first {
        case "load":
            switch lower.dropFirst().first {
            case "slider": self = .loadSlider(placement: try placement(after: 2))
            case "images": self = .loadImages(placement: try placement(after: 2))
            default: throw .badArgument(command: written, detail: "load takes \"slider [PLACEMENT]\" or \"images [PLACEMENT]\"")
            }
        case "swipe":
            guard words.count >= 2, let direction = Direction(rawValue: lower[1]) else {
                throw .badArgument(command: written, detail: "swipe takes left or right, as in \"swipe left\"")
            }
            self = .swipe(direction, placement: try placement(after: 2))
        case "scroll":
            guard words.count >= 2, let index = Int(words[1]), index >= 0, index < 10_000 else {
                throw .badArgument(command: written, detail: "scroll takes a card number from 0, as in \"scroll 3\"")
            }
            self = .scroll(to: index, placement: try placement(after: 2))
        default:
            throw .unknownCommand(command: written)
        }
    }
}
