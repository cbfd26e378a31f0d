import AdInsertion
import MediaCore

/// One `--break TIME=FILE[,FILE…]`: an ad break at a position on the content clock, playing the given ad videos
/// in order.
struct BreakArgument: Hashable, Sendable {
    let position: BreakPosition
    /// Local ad videos, in play order.
    let files: [String]
}

extension ArgumentValue where Value == BreakArgument {
    /// `TIME=FILE[,FILE…]`, where TIME is `pre`, `post` or a content time (`0` is the pre-roll).
    static var adBreak: ArgumentValue {
        ArgumentValue(placeholder: "TIME=FILE[,FILE...]", parse: { text throws(InvalidValue) in
            guard let equals = text.firstIndex(of: "=") else {
                throw .not(text, "TIME=FILE[,FILE...] (e.g. pre=ad.mp4, 30=ad1.mp4,ad2.mp4, post=ad.mp4)")
            }
            let timeText = String(text[..<equals])
            let files = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            guard !files.isEmpty, files.allSatisfy({ !$0.isEmpty }) else {
                throw .not(text, "TIME=FILE[,FILE...]: a file name is empty")
            }
            let position: BreakPosition
            switch timeText.lowercased() {
            case "pre", "start": position = .preroll
            case "post", "end": position = .postroll
            default:
                guard let time = MediaTime(parsing: timeText) else {
                    throw InvalidValue("\(quoted(timeText)) in \(quoted(text)) is not pre, post or a time (e.g. 30, 1:30)")
                }
                position = time == .zero ? .preroll : .midroll(time)
            }
            return BreakArgument(position: position, files: files.map(String.init))
        }, describe: { argument in
            let time = switch argument.position {
            case .preroll: "pre"
            case .postroll: "post"
            case .midroll(let t): t.description
            }
            return time + "=" + argument.files.joined(separator: ",")
        })
    }
}
