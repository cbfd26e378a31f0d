import MediaCore

/// Why a piece of command-line text is not a value of the expected kind.
struct InvalidValue: Error, Hashable, Sendable {
    /// The phrase that follows the parameter's name in the message, quoting the text:
    /// `"abc" is not a frame rate (e.g. 30, 25, 30000/1001)`.
    let explanation: String

    init(_ explanation: String) { self.explanation = explanation }

    /// `"text" is not <what>`, the usual shape of the explanation.
    static func not(_ text: String, _ what: String) -> InvalidValue { InvalidValue("\(quoted(text)) is not \(what)") }
}

/// How the text of an option or positional argument becomes a typed value, and how a value is shown in help.
struct ArgumentValue<Value: Sendable>: Sendable {
    /// The placeholder in usage and help, such as `WxH`, `RATE` or `delivery|lossless`.
    let placeholder: String
    /// The accepted words, for a value that is one of a fixed set (shown in help; empty otherwise).
    let choices: [String]
    let parse: @Sendable (String) throws(InvalidValue) -> Value
    /// The value as a user would type it, for defaults in help.
    let describe: @Sendable (Value) -> String

    init(placeholder: String, choices: [String] = [], parse: @escaping @Sendable (String) throws(InvalidValue) -> Value,
         describe: @escaping @Sendable (Value) -> String) {
        self.placeholder = placeholder
        self.choices = choices
        self.parse = parse
        self.describe = describe
    }

    /// The same value behind a different placeholder, such as `OUT` instead of `FILE`.
    func named(_ placeholder: String) -> ArgumentValue {
        ArgumentValue(placeholder: placeholder, choices: choices, parse: parse, describe: describe)
    }

    /// Adds a check on the parsed value; `check` returns the explanation when the value is refused.
    func refined(_ check: @escaping @Sendable (_ text: String, _ value: Value) -> InvalidValue?) -> ArgumentValue {
        let parse = self.parse
        return ArgumentValue(placeholder: placeholder, choices: choices, parse: { text throws(InvalidValue) in
            let value = try parse(text)
            if let refusal = check(text, value) { throw refusal }
            return value
        }, describe: describe)
    }
}

/// `"text"` with quotes and backslashes escaped, so that empty and spaced values are visible in messages.
func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

extension ArgumentValue where Value == String {
    /// Any non-empty text: a file name, an identifier.
    static func text(_ placeholder: String) -> ArgumentValue {
        ArgumentValue(placeholder: placeholder, parse: { text throws(InvalidValue) in
            guard !text.isEmpty else { throw InvalidValue("the value is empty") }
            return text
        }, describe: { $0 })
    }
}

extension ArgumentValue where Value == PixelSize {
    /// `WxH` in pixels, both sides positive.
    static var size: ArgumentValue {
        ArgumentValue(placeholder: "WxH", parse: { text throws(InvalidValue) in
            guard let size = PixelSize(parsing: text) else { throw .not(text, "a size (e.g. 640x360)") }
            return size
        }, describe: \.description)
    }

    /// A size whose sides are even, as 4:2:0 video needs.
    static var evenSize: ArgumentValue {
        size.refined { text, size in
            size.width % 2 == 0 && size.height % 2 == 0 ? nil : .not(text, "an even size (e.g. 640x360)")
        }
    }
}

extension ArgumentValue where Value == FrameRate {
    /// A positive rate: `30`, `29.97`, `30000/1001`.
    static var frameRate: ArgumentValue {
        ArgumentValue(placeholder: "RATE", parse: { text throws(InvalidValue) in
            guard let rate = FrameRate(parsing: text) else { throw .not(text, "a frame rate (e.g. 30, 25, 30000/1001)") }
            return rate
        }, describe: \.description)
    }
}

extension ArgumentValue where Value == MediaTime {
    /// A point in time: seconds (`90`, `12.5`) or a clock time (`1:30`, `0:01:30.250`).
    static var time: ArgumentValue {
        ArgumentValue(placeholder: "TIME", parse: { text throws(InvalidValue) in
            guard let time = MediaTime(parsing: text) else { throw .not(text, "a time (e.g. 90, 12.5, 1:30, 0:01:30.250)") }
            return time
        }, describe: { exactDecimal($0.seconds) })
    }
}

extension ArgumentValue where Value == MediaDuration {
    /// A positive length in seconds (`30`, `2.5`) or as a clock time (`1:30`).
    static func seconds(_ placeholder: String = "SEC") -> ArgumentValue {
        ArgumentValue(placeholder: placeholder, parse: { text throws(InvalidValue) in
            guard let time = MediaTime(parsing: text) else {
                throw .not(text, "a duration in seconds (e.g. 30, 2.5, 1:30)")
            }
            guard time.seconds > .zero else { throw .not(text, "a positive duration") }
            return MediaDuration(seconds: time.seconds)
        }, describe: { exactDecimal($0.seconds) })
    }
}

/// A number as a user types it: `8`, `0.25`, `-1.5`, or `1/3` when no decimal is exact.
func exactDecimal(_ value: Rational) -> String {
    if value.isInteger { return value.description }
    var denominator = value.denominator
    while denominator % 2 == 0 { denominator /= 2 }
    while denominator % 5 == 0 { denominator /= 5 }
    guard denominator == 1 else { return value.description }
    let magnitude = value < .zero ? -value : value
    let whole = magnitude.floor
    var remainder = magnitude - Rational(whole)
    var digits = ""
    while !remainder.isZero {
        remainder = remainder * Rational(10)
        let digit = remainder.floor
        digits += String(digit)
        remainder -= Rational(digit)
    }
    return (value < .zero ? "-" : "") + "\(whole).\(digits)"
}

extension ArgumentValue where Value == Int {
    /// A whole number within `range`.
    static func integer(_ placeholder: String = "N", in range: ClosedRange<Int>) -> ArgumentValue {
        ArgumentValue(placeholder: placeholder, parse: { text throws(InvalidValue) in
            guard let n = Int(text) else { throw .not(text, "a whole number") }
            guard range.contains(n) else {
                throw .not(text, "between \(range.lowerBound) and \(range.upperBound)")
            }
            return n
        }, describe: { String($0) })
    }
}

extension ArgumentValue where Value == Rational {
    /// An exact number (`0.25`, `1/4`) with `lower < value ≤ upper` (no upper bound when `upper` is nil).
    static func number(_ placeholder: String, above lower: Rational, atMost upper: Rational? = nil,
                       examples: String) -> ArgumentValue {
        let what = upper.map { "a number above \(lower) and at most \($0) (e.g. \(examples))" }
            ?? "a number above \(lower) (e.g. \(examples))"
        return ArgumentValue(placeholder: placeholder, parse: { text throws(InvalidValue) in
            guard let r = Rational(parsing: text), r > lower, upper.map({ r <= $0 }) ?? true else { throw .not(text, what) }
            return r
        }, describe: { exactDecimal($0) })
    }
}

extension ArgumentValue where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// One of the raw values of an enumeration. Short lists are the placeholder itself (`delivery|lossless`);
    /// longer ones use `placeholder` and are listed in the help text.
    static func choice(_ type: Value.Type = Value.self, placeholder: String = "NAME") -> ArgumentValue {
        let words = Value.allCases.map(\.rawValue)
        let inline = words.joined(separator: "|")
        return ArgumentValue(placeholder: inline.count <= 48 ? inline : placeholder, choices: words,
                             parse: { text throws(InvalidValue) in
            guard let value = Value(rawValue: text) else {
                throw .not(text, "one of: " + words.joined(separator: ", "))
            }
            return value
        }, describe: \.rawValue)
    }
}

extension ArgumentValue where Value == [MediaTime] {
    /// Content times separated by commas (`10,20.5,1:30`), each at or after 0 and each after the one before it:
    /// the content's cue points, in order. A bad entry is named in the message.
    static var cuePoints: ArgumentValue {
        ArgumentValue(placeholder: "T1,T2,…", parse: { text throws(InvalidValue) in
            var points: [MediaTime] = []
            for field in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                let entry = field.filter { $0 != " " }
                if entry.hasPrefix("-"), MediaTime(parsing: String(entry.dropFirst())) != nil {
                    throw InvalidValue("cue point \(quoted(entry)) is negative; cue points are content times from 0")
                }
                guard let time = MediaTime(parsing: entry) else {
                    throw InvalidValue("cue point \(quoted(entry)) is not a time (e.g. 90, 12.5, 1:30, 0:01:30.250)")
                }
                if let previous = points.last, time <= previous {
                    throw InvalidValue("cue point \(quoted(entry)) is not after the one before it "
                        + "(\(exactDecimal(previous.seconds))); list them in increasing order")
                }
                points.append(time)
            }
            return points
        }, describe: { $0.map { exactDecimal($0.seconds) }.joined(separator: ",") })
    }
}
