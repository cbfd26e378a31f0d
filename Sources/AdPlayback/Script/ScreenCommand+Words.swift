import MediaCore

/// How a script writes a screen command: the screen model knows the commands, the script language their words.
extension ScreenCommand {
    /// The command words `ScreenCommand(parsing:)` reads; the script parser hands it any of them.
    public static let words: Set<String> = ["rotate", "resize", "split", "fold", "unfold", "activate", "present", "tap", "dismiss"]

    /// Parses the words of one command (no time); keywords are read in any case, scene names as written.
    ///
    /// - Throws: `ScriptError.unknownCommand` when the first word is not a screen command, `.badArgument`
    ///   naming the value that is wrong and what the command takes.
    public init(words: [String]) throws(ScriptError) {
        let written = words.joined(separator: " ")
        let keyword = words.first?.lowercased() ?? ""
        let arguments = Array(words.dropFirst())
        func bad(_ detail: String) -> ScriptError { .badArgument(command: written, detail: detail) }
        func scene(_ usage: String) throws(ScriptError) -> SceneID {
            guard arguments.count == 1 else { throw bad("\(keyword) takes one scene name, as in \"\(usage)\"") }
            return SceneID(arguments[0])
        }
        switch keyword {
        case "rotate":
            guard arguments.count == 1, let orientation = Orientation(rawValue: arguments[0].lowercased()) else {
                throw bad("rotate takes \"portrait\" or \"landscape\"\(Self.got(arguments))")
            }
            self = .rotate(orientation)
        case "resize":
            guard arguments.count == 2 else { throw bad("resize takes a scene and a size in points, as in \"resize main 375x1194\"") }
            guard let size = PointSize(parsing: arguments[1]) else {
                throw bad("\"\(arguments[1].excerpt)\" is not a size; write WxH in points, as in 375x1194")
            }
            self = .resize(SceneID(arguments[0]), size)
        case "split":
            guard arguments.count == 1, let fraction = SplitFraction(rawValue: arguments[0]) else {
                throw bad("split takes 1/2, 2/3 or 1/3\(Self.got(arguments))")
            }
            self = .split(fraction)
        case "fold", "unfold":
            guard arguments.isEmpty else { throw bad("\(keyword) takes no argument") }
            self = keyword == "fold" ? .fold : .unfold
        case "activate":
            self = .activate(try scene("activate main"))
        case "present":
            guard arguments.count == 2, arguments[0].lowercased() == "interstitial" else {
                throw bad("present takes \"interstitial\" and a scene name, as in \"present interstitial side\"")
            }
            self = .presentInterstitial(SceneID(arguments[1]))
        case "tap":
            let point = arguments.count == 1 ? arguments[0].split(separator: ",", omittingEmptySubsequences: false) : []
            guard point.count == 2, let x = Int(point[0]), let y = Int(point[1]), x >= 0, y >= 0 else {
                throw bad("tap takes the device's points X,Y (non-negative whole numbers), as in \"tap 120,640\"\(Self.got(arguments))")
            }
            self = .tap(x: x, y: y)
        case "dismiss":
            self = .dismiss(try scene("dismiss side"))
        default:
            throw .unknownCommand(command: written)
        }
    }

    fileprivate static func got(_ arguments: [String]) -> String {
        arguments.isEmpty ? "" : ", not \"\(arguments.joined(separator: " ").excerpt)\""
    }
}
