/// Writes the help of a command from its definition: overview, description, usage line, and every parameter with
/// its meaning and default.
struct HelpFormatter {
    /// Lines are wrapped to this many columns (a fixed width, so that help reads the same everywhere).
    var width = 80
    /// Where parameter descriptions start.
    var helpColumn = 26

    /// The full help text, ending with a newline.
    /// - Parameters:
    ///   - command: the command's full name, `pipctl ads inspect`.
    ///   - subcommands: the commands below it, for a command that only groups others.
    ///   - hasVersion: whether `--version` is understood (the tool itself).
    func help(command: String, definition: CommandDefinition, subcommands: [CommandDefinition] = [],
              hasVersion: Bool = false) -> String {
        let wrapper = TextWrapper(width: width)
        var out = wrapper.wrap("OVERVIEW: " + definition.abstract, indent: "  ")
        out.append("")
        out += wrapper.wrap(definition.discussion)
        out.append("")
        // A command that runs and also has subcommands (`pipctl batch`, `pipctl batch merge`) shows its own usage.
        out += synopsis(command: command, definition: definition, hasSubcommands: !subcommands.isEmpty && definition.parameters.isEmpty)
        let arguments = definition.parameters.filter { $0.kind == .positional }
        if !arguments.isEmpty {
            out += ["", "ARGUMENTS:"]
            for spec in arguments { out += entry(label(of: spec), describe(spec)) }
        }
        out += ["", "OPTIONS:"]
        let options = definition.parameters.filter { $0.kind != .positional } + [.help] + (hasVersion ? [.version] : [])
        for spec in options { out += entry(label(of: spec), describe(spec)) }
        if !subcommands.isEmpty {
            out += ["", "COMMANDS:"]
            for sub in subcommands { out += entry(sub.name, sub.abstract) }
            out += [""] + wrapper.wrap("See '\(command) <command> --help' for the options of each command.",
                                       firstIndent: "  ", indent: "  ")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// `USAGE: pipctl render [--content FILE] …`, wrapped under its own start.
    func synopsis(command: String, definition: CommandDefinition, hasSubcommands: Bool) -> [String] {
        let lead = "USAGE: \(command) "
        var units: [String] = []
        if hasSubcommands {
            units = ["<command>"]
        } else {
            var shownGroups: Set<Int> = []
            for spec in definition.parameters {
                guard let group = definition.exclusiveGroups.firstIndex(where: { $0.contains(spec.key) }) else {
                    units.append(usageUnit(spec))
                    continue
                }
                guard shownGroups.insert(group).inserted else { continue }
                let members = definition.parameters.filter { definition.exclusiveGroups[group].contains($0.key) }
                units.append("[" + members.map { usageForm($0) }.joined(separator: " | ") + "]")
            }
        }
        return TextWrapper(width: width).wrap(units: units, firstIndent: lead,
                                              indent: String(repeating: " ", count: lead.count))
    }

    /// `[--size WxH]`, `-o OUT`, `FILE`, `[--break SPEC ...]`.
    private func usageUnit(_ spec: ParameterSpec) -> String {
        spec.isRequired ? usageForm(spec) : "[\(usageForm(spec))]"
    }

    private func usageForm(_ spec: ParameterSpec) -> String {
        switch spec.kind {
        case .positional: spec.shownPlaceholder ?? spec.name
        case .flag: spec.long.map { "--" + $0 } ?? spec.name
        case .option: "\(shortestName(spec)) \(spec.placeholder ?? "")"
        case .repeatingOption: "\(shortestName(spec)) \(spec.placeholder ?? "") ..."
        }
    }

    private func shortestName(_ spec: ParameterSpec) -> String {
        spec.short.map { "-" + String($0) } ?? spec.name
    }

    /// `-o, --output OUT`, `--size WxH`, `FILE`.
    private func label(of spec: ParameterSpec) -> String {
        if spec.kind == .positional { return spec.shownPlaceholder ?? spec.name }
        var names = [spec.short.map { "-" + String($0) }, spec.long.map { "--" + $0 }].compactMap { $0 }
            .joined(separator: ", ")
        if spec.takesValue, let placeholder = spec.placeholder { names += " " + placeholder }
        return names
    }

    /// The help sentence, the accepted words when the placeholder does not show them, the default.
    private func describe(_ spec: ParameterSpec) -> String {
        var text = spec.help
        if !spec.choices.isEmpty && spec.placeholder != spec.choices.joined(separator: "|") {
            text += " One of: " + spec.choices.joined(separator: ", ") + "."
        }
        if spec.kind == .repeatingOption { text += " May be repeated." }
        if let value = spec.defaultDescription { text += " (default: \(value))" }
        return text
    }

    /// A two-column entry: the label, then its text from `helpColumn` (on the next line if the label is long).
    private func entry(_ label: String, _ text: String) -> [String] {
        let wrapper = TextWrapper(width: width)
        let indent = String(repeating: " ", count: helpColumn)
        let head = "  " + label
        if head.count + 2 <= helpColumn {
            let padded = head + String(repeating: " ", count: helpColumn - head.count)
            return wrapper.wrap(text, firstIndent: padded, indent: indent)
        }
        return [head] + wrapper.wrap(text, firstIndent: indent, indent: indent)
    }
}
