/// A mistake in the command line: printed as one line saying what and where, then a hint; exit status 2.
struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The command whose arguments are wrong, `pipctl render`.
    let command: String
    /// What is wrong, naming the parameter and quoting the value:
    /// `--fps: "abc" is not a frame rate (e.g. 30, 25, 30000/1001)`.
    let message: String

    /// `pipctl render: --fps: "abc" is not a frame rate (e.g. 30, 25, 30000/1001)`
    var description: String { "\(command): \(message)" }

    /// `See 'pipctl render --help'.`
    var hint: String { "See '\(command) --help'." }
}
