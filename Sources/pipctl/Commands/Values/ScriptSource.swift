/// The `--script` of a session: timed user actions given inline or in a file.
enum ScriptSource: Hashable, Sendable {
    /// The script itself, as typed on the command line.
    case text(String)
    /// A file holding the script (`@FILE` on the command line).
    case file(path: String)
}

extension ArgumentValue where Value == ScriptSource {
    /// `TEXT`, or `@FILE` to read it from FILE.
    static var script: ArgumentValue {
        ArgumentValue(placeholder: "TEXT|@FILE", parse: { text throws(InvalidValue) in
            if text.hasPrefix("@") {
                guard text.count > 1 else { throw .not(text, "a script or @FILE: the file name is empty") }
                return .file(path: String(text.dropFirst()))
            }
            guard !text.isEmpty else { throw InvalidValue("the value is empty") }
            return .text(text)
        }, describe: { source in
            switch source {
            case .text(let text): text
            case .file(let path): "@" + path
            }
        })
    }
}
