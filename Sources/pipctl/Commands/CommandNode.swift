/// A command in the tree of pipctl commands: either one that runs, or one that groups others (`pipctl`,
/// `pipctl ads`).
struct CommandNode: Sendable {
    typealias Action = @Sendable (ParsedArguments, CommandContext) async throws -> Void
    /// Builds the command's typed options from its parsed arguments and drops them: every check a command makes
    /// before it runs, with nothing run.
    typealias OptionsCheck = @Sendable (ParsedArguments) throws -> Void

    let definition: CommandDefinition
    let subcommands: [CommandNode]
    /// Printed by `--version`; only the tool itself has one.
    let version: String?
    let catchesInterrupts: Bool
    /// Nil for a group.
    let action: Action?
    /// Nil for a group.
    let checkOptions: OptionsCheck?

    /// A command that runs `C`.
    static func command<C: Command>(_ type: C.Type) -> CommandNode {
        CommandNode(definition: C.definition, subcommands: [], version: nil, catchesInterrupts: C.catchesInterrupts,
                    action: { arguments, context in try await C.run(try C.Options(arguments), context: context) },
                    checkOptions: { _ = try C.Options($0) })
    }

    /// A command that runs `C` unless its first argument names one of `subcommands` (`pipctl batch MANIFEST`,
    /// `pipctl batch merge …`).
    static func command<C: Command>(_ type: C.Type, subcommands: [CommandNode]) -> CommandNode {
        let node = command(type)
        return CommandNode(definition: node.definition, subcommands: subcommands, version: nil,
                           catchesInterrupts: node.catchesInterrupts, action: node.action,
                           checkOptions: node.checkOptions)
    }

    /// A command that only selects one of `subcommands`.
    static func group(_ definition: CommandDefinition, version: String? = nil,
                      subcommands: [CommandNode]) -> CommandNode {
        CommandNode(definition: definition, subcommands: subcommands, version: version, catchesInterrupts: false,
                    action: nil, checkOptions: nil)
    }

    /// What the command line asks for.
    enum Request: Sendable {
        case help(CommandNode, command: String)
        case version(String)
        case run(CommandNode, ParsedArguments, command: String)
    }

    /// Walks down the tree along the leading words of `arguments` and parses the rest for the command found.
    /// A group given no command shows its help.
    /// - Parameter command: this node's full name, `pipctl`.
    func resolve(_ arguments: [String], command: String) throws(UsageError) -> Request {
        if action != nil, let first = arguments.first, let sub = subcommands.first(where: { $0.definition.name == first }) {
            return try sub.resolve(Array(arguments.dropFirst()), command: command + " " + first)
        }
        guard action == nil else {
            let arguments = try ConfigFile.expand(arguments, definition: definition, command: command)
            switch try ArgumentParser(command: command, definition: definition).parse(arguments) {
            case .help: return .help(self, command: command)
            case .arguments(let parsed): return .run(self, parsed, command: command)
            }
        }
        guard let first = arguments.first, first != "--" else { return .help(self, command: command) }
        if first == "-h" || first == "--help" { return .help(self, command: command) }
        if let version, first == "--version" { return .version(version) }
        let names = subcommands.map(\.definition.name)
        if first.hasPrefix("-") {
            let known = ["help"] + (version == nil ? [] : ["version"])
            let typed = String(first.drop { $0 == "-" }.prefix { $0 != "=" })
            let guess = Suggestion.closest(to: typed, among: known).map { " (did you mean --\($0)?)" }
                ?? " (options go after the command: '\(command) <command> \(first)')"
            throw UsageError(command: command, message: "unknown option \(first)\(guess)")
        }
        guard let next = subcommands.first(where: { $0.definition.name == first }) else {
            let guess = Suggestion.closest(to: first, among: names).map { " (did you mean \($0)?)" }
                ?? " (commands: \(names.joined(separator: ", ")))"
            throw UsageError(command: command, message: "unknown command \(quoted(first))\(guess)")
        }
        return try next.resolve(Array(arguments.dropFirst()), command: command + " " + first)
    }

    /// Every command below this one with its full name, depth first, this one included.
    func allCommands(named command: String) -> [(command: String, node: CommandNode)] {
        [(command, self)] + subcommands.flatMap { $0.allCommands(named: command + " " + $0.definition.name) }
    }
}
