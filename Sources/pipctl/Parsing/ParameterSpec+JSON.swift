import Batch

extension ParameterSpec {
    /// The command-line arguments that give this option `value` as a JSON document sets it (a batch job's `options`,
    /// a `--config` file): true or false for a flag, or for an option whose values are `on` and `off`; a string or a
    /// number for an option; a list for an option that repeats.
    ///
    /// - Throws: why the value cannot be this option's, for a message that names where it was given.
    func arguments(_ value: BatchJob.Option.Value) throws(InvalidValue) -> [String] {
        let spelled = name
        switch (kind, value) {
        case (.flag, .boolean(let on)):
            return on ? [spelled] : []
        case (.flag, .text):
            throw InvalidValue("a flag: give true or false")
        case (_, .boolean(let on)):
            guard choices.contains("on"), choices.contains("off") else {
                throw InvalidValue("expected a value (\(placeholder ?? "a string")), not a boolean")
            }
            return [spelled, on ? "on" : "off"]
        case (.option, .text(let values)):
            guard values.count == 1 else { throw InvalidValue("takes one value, not a list") }
            return [spelled, values[0]]
        case (_, .text(let values)):
            return values.flatMap { [spelled, $0] }
        }
    }
}
