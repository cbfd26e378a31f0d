/// Everything the parser and the help need to know about one parameter of a command, without its Swift type.
struct ParameterSpec: Sendable {
    enum Kind: Sendable, Hashable {
        /// `--json`: present or not.
        case flag
        /// `--size WxH`: the last occurrence wins.
        case option
        /// `--break SPEC`: every occurrence is kept, in order.
        case repeatingOption
        /// `FILE`: taken by position.
        case positional
    }

    let kind: Kind
    /// The long name without dashes (`size`); nil for positionals.
    let long: String?
    /// The one-letter name (`o` for `-o`).
    let short: Character?
    /// The value's placeholder (`WxH`); nil for flags.
    let placeholder: String?
    /// Accepted words of an enumerated value.
    let choices: [String]
    let help: String
    /// What applies when the parameter is not given, shown as `(default: …)`; nil for flags and required ones.
    let defaultDescription: String?
    let isRequired: Bool
    /// Turns one occurrence's text into its value; nil for flags.
    let convert: (@Sendable (String) throws(InvalidValue) -> any Sendable)?
    /// A positional that takes every remaining argument (`SUMMARY...`); it must be the last positional.
    var takesRest = false

    /// How messages and help name it: `--size`, `-o` or `FILE`.
    var name: String {
        if let long { return "--" + long }
        if let short { return "-" + String(short) }
        return placeholder ?? "ARGUMENT"
    }

    /// The name and its placeholder, as in `missing required option --duration SEC`.
    var nameWithPlaceholder: String {
        guard kind != .positional, kind != .flag, let placeholder else { return name }
        return "\(name) \(placeholder)"
    }

    /// Identifies the parameter within its command.
    var key: String { kind == .positional ? "<\(name)>" : name }

    /// The placeholder as usage shows it: `SUMMARY...` for one that takes the rest.
    var shownPlaceholder: String? { placeholder.map { takesRest ? $0 + "..." : $0 } }

    var takesValue: Bool { kind == .option || kind == .repeatingOption }
}

/// Anything that declares parameters: one `Parameter`, or a group of them shared by several commands.
protocol ParameterDeclaration: Sendable {
    var specs: [ParameterSpec] { get }
}

/// One declared parameter of a command (an option, a flag or a positional argument) and how its occurrences on
/// the command line read back as a `Value`.
///
/// A command declares each parameter once, as a `static let`; the same value feeds the parser, the help and the
/// typed read-back `arguments[parameter]`, so that they cannot disagree.
struct Parameter<Value: Sendable>: ParameterDeclaration {
    let spec: ParameterSpec
    /// Reads the converted values of every occurrence, in command-line order.
    let read: @Sendable ([any Sendable]) -> Value

    var specs: [ParameterSpec] { [spec] }
}

/// Casts a stored occurrence back to the type its parameter converted it to.
private func cast<T>(_ value: any Sendable) -> T {
    guard let typed = value as? T else { preconditionFailure("parameter value \(value) is not a \(T.self)") }
    return typed
}

extension Parameter {
    /// An option that may be omitted, with a default value: `--fps RATE (default: 30)`.
    static func option(_ long: String, short: Character? = nil, _ value: ArgumentValue<Value>, default: Value,
                       help: String) -> Parameter {
        let spec = ParameterSpec(kind: .option, long: long, short: short, placeholder: value.placeholder,
                                 choices: value.choices, help: help, defaultDescription: value.describe(`default`),
                                 isRequired: false, convert: { text throws(InvalidValue) in try value.parse(text) })
        return Parameter(spec: spec, read: { $0.last.map(cast) ?? `default` })
    }

    /// An option that must be given: `-o FILE`.
    static func required(_ long: String, short: Character? = nil, _ value: ArgumentValue<Value>,
                         help: String) -> Parameter {
        let spec = ParameterSpec(kind: .option, long: long, short: short, placeholder: value.placeholder,
                                 choices: value.choices, help: help, defaultDescription: nil, isRequired: true,
                                 convert: { text throws(InvalidValue) in try value.parse(text) })
        return Parameter(spec: spec, read: { occurrences in
            guard let last = occurrences.last else { preconditionFailure("the parser admitted a missing \(spec.name)") }
            return cast(last)
        })
    }

    /// An option that may be omitted, read back as nil; `absent` says in words what happens then
    /// (`the input's size`, `none`), shown as its default.
    static func optional<Wrapped>(_ long: String, short: Character? = nil, _ value: ArgumentValue<Wrapped>,
                                  absent: String, help: String) -> Parameter where Value == Wrapped? {
        let spec = ParameterSpec(kind: .option, long: long, short: short, placeholder: value.placeholder,
                                 choices: value.choices, help: help, defaultDescription: absent, isRequired: false,
                                 convert: { text throws(InvalidValue) in try value.parse(text) })
        return Parameter(spec: spec, read: { $0.last.map { cast($0) as Wrapped } })
    }

    /// An option that may be given several times, read back as every value in order (empty when absent).
    static func repeating<Element>(_ long: String, short: Character? = nil, _ value: ArgumentValue<Element>,
                                   absent: String, help: String) -> Parameter where Value == [Element] {
        let spec = ParameterSpec(kind: .repeatingOption, long: long, short: short, placeholder: value.placeholder,
                                 choices: value.choices, help: help, defaultDescription: absent, isRequired: false,
                                 convert: { text throws(InvalidValue) in try value.parse(text) })
        return Parameter(spec: spec, read: { $0.map { cast($0) as Element } })
    }

    /// A positional argument that must be given.
    static func positional(_ value: ArgumentValue<Value>, help: String) -> Parameter {
        let spec = ParameterSpec(kind: .positional, long: nil, short: nil, placeholder: value.placeholder,
                                 choices: value.choices, help: help, defaultDescription: nil, isRequired: true,
                                 convert: { text throws(InvalidValue) in try value.parse(text) })
        return Parameter(spec: spec, read: { occurrences in
            guard let last = occurrences.last else { preconditionFailure("the parser admitted a missing \(spec.name)") }
            return cast(last)
        })
    }
}

extension Parameter {
    /// Positional arguments, at least one, that take every remaining argument: `pipctl batch merge SUMMARY...`.
    static func positionals<Element>(_ value: ArgumentValue<Element>, help: String) -> Parameter where Value == [Element] {
        var spec = ParameterSpec(kind: .positional, long: nil, short: nil, placeholder: value.placeholder,
                                 choices: value.choices, help: help, defaultDescription: nil, isRequired: true,
                                 convert: { text throws(InvalidValue) in try value.parse(text) })
        spec.takesRest = true
        return Parameter(spec: spec, read: { $0.map { cast($0) as Element } })
    }
}

extension Parameter where Value == Bool {
    /// A flag: true when given.
    static func flag(_ long: String, short: Character? = nil, help: String) -> Parameter {
        let spec = ParameterSpec(kind: .flag, long: long, short: short, placeholder: nil, choices: [], help: help,
                                 defaultDescription: nil, isRequired: false, convert: nil)
        return Parameter(spec: spec, read: { !$0.isEmpty })
    }
}

extension ParameterSpec: ParameterDeclaration {
    var specs: [ParameterSpec] { [self] }
}
