/// What a command is called, what it does, and the parameters it takes: the one table that both the parser and
/// the help read.
struct CommandDefinition: Sendable {
    /// The word that selects it, `render`.
    let name: String
    /// One sentence, shown in the parent's list of commands and at the top of the help.
    let abstract: String
    /// One paragraph on what it does and what it writes.
    let discussion: String
    /// In usage order; `-h, --help` is added by the parser and the help.
    let parameters: [ParameterSpec]
    /// Sets of parameters of which at most one may be given (their keys), shown as `[--a X | --b Y]`.
    let exclusiveGroups: [[String]]

    init(name: String, abstract: String, discussion: String, parameters: [any ParameterDeclaration] = [],
         exclusive: [[any ParameterDeclaration]] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.parameters = parameters.flatMap(\.specs)
        self.exclusiveGroups = exclusive.map { $0.flatMap(\.specs).map(\.key) }
        let keys = self.parameters.map(\.key)
        precondition(Set(keys).count == keys.count, "\(name) declares a parameter twice: \(keys)")
        precondition(self.exclusiveGroups.joined().allSatisfy(keys.contains), "\(name): exclusive group of undeclared parameters")
    }
}

extension ParameterSpec {
    /// `-h, --help`, understood by every command.
    static let help = ParameterSpec(kind: .flag, long: "help", short: "h", placeholder: nil, choices: [],
                                    help: "Show this help and exit.", defaultDescription: nil, isRequired: false,
                                    convert: nil)

    /// `--version`, understood by the tool itself.
    static let version = ParameterSpec(kind: .flag, long: "version", short: nil, placeholder: nil, choices: [],
                                       help: "Print the version and exit.", defaultDescription: nil,
                                       isRequired: false, convert: nil)
}
