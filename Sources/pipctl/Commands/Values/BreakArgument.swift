import AdDecisioning
import Rendering

/// One `--break TIME=FILE[,FILE…]`: an ad break at a position on the content clock, playing the given ad videos
/// in order. TIME is `pre`, `post`, seconds, `hh:mm:ss[.mmm]` or `n%` of the content (read by `QuickBreak`).
struct BreakArgument: Hashable, Sendable {
    let quick: QuickBreak
}

extension ArgumentValue where Value == BreakArgument {
    static var adBreak: ArgumentValue {
        ArgumentValue(placeholder: "TIME=FILE[,FILE...]", parse: { text throws(InvalidValue) in
            switch Result(catching: { () throws(DecisioningError) in try QuickBreak(parsing: text) }) {
            case .success(let quick): return BreakArgument(quick: quick)
            case .failure(.invalidBreak(let value, let reason)): throw InvalidValue("\"\(value)\": \(reason)")
            case .failure(let error): throw InvalidValue(error.message)
            }
        }, describe: { $0.quick.value })
    }
}
