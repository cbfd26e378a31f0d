import Foundation

/// One value of a manifest line, as far as the manifest's format nests: a scalar, a list of scalars, or (for
/// `options`) an object of those. Anything deeper decodes as `.unsupported` instead of failing, so that the
/// line's error can name its exact path; and decoding never recurses more than three levels, whatever the line.
enum ManifestValue: Decodable, Sendable {
    enum Scalar: Decodable, Sendable, Hashable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        /// An array or an object where a scalar belongs.
        case unsupported

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else { self = .unsupported }
        }

        /// What JSON calls it, for messages.
        var kind: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .null: "null"
            case .unsupported: "an array or object"
            }
        }
    }

    /// A scalar or a list of scalars.
    enum Flat: Decodable, Sendable {
        case scalar(Scalar)
        case list([Scalar])

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let list = try? c.decode([Scalar].self) { self = .list(list) } else { self = .scalar(try c.decode(Scalar.self)) }
        }

        var kind: String {
            switch self {
            case .scalar(let s): s.kind
            case .list: "a list"
            }
        }
    }

    case flat(Flat)
    case object([String: Flat])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let object = try? c.decode([String: Flat].self) { self = .object(object) } else { self = .flat(try c.decode(Flat.self)) }
    }

    var kind: String {
        switch self {
        case .flat(let f): f.kind
        case .object: "an object"
        }
    }
}
