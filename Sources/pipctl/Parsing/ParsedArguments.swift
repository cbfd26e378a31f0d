/// The parameters of one command as given on its command line, converted to their types.
struct ParsedArguments: Sendable {
    /// `pipctl ads inspect`: where messages about these arguments come from.
    let command: String
    private var occurrences: [String: [any Sendable]] = [:]

    init(command: String) { self.command = command }

    mutating func record(_ value: any Sendable, for spec: ParameterSpec) {
        occurrences[spec.key, default: []].append(value)
    }

    /// The parameter's value: what was given, or its default.
    subscript<Value>(_ parameter: Parameter<Value>) -> Value {
        parameter.read(occurrences[parameter.spec.key] ?? [])
    }

    /// Whether the parameter appeared on the command line (a default does not count).
    func isGiven(_ declaration: some ParameterDeclaration) -> Bool {
        declaration.specs.contains { occurrences[$0.key] != nil }
    }

    /// A usage error about these arguments, for checks that span several parameters.
    func usageError(_ message: String) -> UsageError { UsageError(command: command, message: message) }
}
