/// Parses the arguments of one command, GNU style.
///
/// - Long options: `--size 640x360` or `--size=640x360`; flags take no value (`--json`).
/// - Short options: `-o FILE` or `-oFILE`; `-h`.
/// - A value-taking option takes the next argument unless that argument is itself an option (`--x`, or a known
///   short one such as `-o`); `--script=--x` passes such a value. Other text starting with `-` (`-5`) is a value.
/// - `--` ends the options: everything after it is positional. A lone `-` is positional (standard input).
/// - A single-valued option given twice keeps the last value; a repeating option keeps all, in order.
/// - `-h`/`--help` anywhere before `--` asks for help, even if other arguments are wrong.
///
/// Errors are reported for the first wrong argument, in command-line order, as one line naming it.
struct ArgumentParser {
    enum Outcome: Sendable {
        case arguments(ParsedArguments)
        case help
    }

    /// `pipctl render`, for messages.
    let command: String
    let parameters: [ParameterSpec]
    let exclusiveGroups: [[String]]

    init(command: String, definition: CommandDefinition) {
        self.command = command
        self.parameters = definition.parameters
        self.exclusiveGroups = definition.exclusiveGroups
    }

    func parse(_ tokens: [String]) throws(UsageError) -> Outcome {
        var scan = Scan(parser: self, tokens: tokens)
        scan.run()
        if scan.helpRequested { return .help }
        if let error = scan.firstError { throw error }
        let parsed = scan.parsed
        for spec in parameters where spec.isRequired && !parsed.isGiven(spec) {
            let what = spec.kind == .positional ? "argument" : "option"
            throw UsageError(command: command, message: "missing required \(what) \(spec.nameWithPlaceholder)")
        }
        for group in exclusiveGroups {
            let given = parameters.filter { group.contains($0.key) && parsed.isGiven($0) }
            if given.count > 1 {
                let names = given.map(\.name)
                throw UsageError(command: command, message: names.dropLast().joined(separator: ", ")
                                 + " and \(names.last!) cannot be used together")
            }
        }
        return .arguments(parsed)
    }

    /// The state of one pass over the tokens.
    private struct Scan {
        let parser: ArgumentParser
        let tokens: [String]
        var index = 0
        var parsed: ParsedArguments
        var firstError: UsageError?
        var helpRequested = false
        var positionalIndex = 0
        let positionals: [ParameterSpec]

        init(parser: ArgumentParser, tokens: [String]) {
            self.parser = parser
            self.tokens = tokens
            self.parsed = ParsedArguments(command: parser.command)
            self.positionals = parser.parameters.filter { $0.kind == .positional }
        }

        mutating func run() {
            var optionsEnded = false
            while index < tokens.count {
                let token = tokens[index]
                index += 1
                if optionsEnded || token == "-" || !token.hasPrefix("-") {
                    positional(token)
                } else if token == "--" {
                    optionsEnded = true
                } else if token == "--help" || token == "-h" {
                    helpRequested = true
                } else if token.hasPrefix("--") {
                    longOption(token.dropFirst(2))
                } else {
                    shortOption(token)
                }
            }
        }

        mutating func fail(_ message: String) {
            if firstError == nil { firstError = UsageError(command: parser.command, message: message) }
        }

        mutating func positional(_ text: String) {
            guard positionalIndex < positionals.count else { return fail("unexpected argument \(quoted(text))") }
            let spec = positionals[positionalIndex]
            if !spec.takesRest { positionalIndex += 1 }
            convert(text, for: spec, spelled: spec.name)
        }

        mutating func longOption(_ body: Substring) {
            let name = body.prefix { $0 != "=" }
            let inline = body.count > name.count ? String(body.dropFirst(name.count + 1)) : nil
            if name == "help", let inline { return fail("--help does not take a value (given \(quoted(inline)))") }
            guard let spec = parser.parameters.first(where: { $0.long == String(name) && $0.kind != .positional }) else {
                let known = parser.parameters.compactMap(\.long) + ["help"]
                let guess = Suggestion.closest(to: String(name), among: known).map { " (did you mean --\($0)?)" } ?? ""
                return fail("unknown option --\(name)\(guess)")
            }
            let spelled = "--" + name
            if spec.kind == .flag {
                guard let inline else { return parsed.record(true, for: spec) }
                return fail("\(spelled) does not take a value (given \(quoted(inline)))")
            }
            guard let value = inline ?? nextValue() else {
                return fail("missing value for \(spelled) \(spec.placeholder ?? "")")
            }
            convert(value, for: spec, spelled: spelled)
        }

        mutating func shortOption(_ token: String) {
            let letter = token.dropFirst().first!
            let rest = String(token.dropFirst(2))
            guard let spec = parser.parameters.first(where: { $0.short == letter }), spec.kind == .flag ? rest.isEmpty : true
            else {
                // `-fps` is usually `--fps` with a dash missing.
                let long = String(token.dropFirst())
                let known = parser.parameters.compactMap(\.long) + ["help"]
                let guess = (known.contains(long) ? long : Suggestion.closest(to: long, among: known))
                    .map { " (did you mean --\($0)?)" } ?? ""
                return fail("unknown option \(token)\(guess)")
            }
            let spelled = "-" + String(letter)
            if spec.kind == .flag { return parsed.record(true, for: spec) }
            guard let value = rest.isEmpty ? nextValue() : rest else {
                return fail("missing value for \(spelled) \(spec.placeholder ?? "")")
            }
            convert(value, for: spec, spelled: spelled)
        }

        /// The next token as an option's value, unless it is an option itself.
        mutating func nextValue() -> String? {
            guard index < tokens.count else { return nil }
            let candidate = tokens[index]
            let isOption = candidate.hasPrefix("--") || (candidate.count == 2 && candidate.hasPrefix("-")
                && (candidate.last == "h" || parser.parameters.contains { $0.short == candidate.last }))
            if isOption { return nil }
            index += 1
            return candidate
        }

        mutating func convert(_ text: String, for spec: ParameterSpec, spelled: String) {
            guard let convert = spec.convert else { return }
            do {
                parsed.record(try convert(text), for: spec)
            } catch {
                fail("\(spelled): \(error.explanation)")
            }
        }
    }
}
