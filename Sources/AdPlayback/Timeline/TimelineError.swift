import Foundation

/// Why a timeline file cannot be used, with the JSON path of the value at fault (`segments[3].outEndFrame`).
///
/// A timeline is input: `pipctl verify` may be handed one that was edited, truncated or written by someone
/// hostile, so every value is named where it fails instead of trapping or allocating what it claims.
public enum TimelineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The JSON is not a timeline's: not JSON at all, a value missing, of the wrong type or not a whole number.
    case malformed(jsonPath: String, reason: String)
    /// A value the media it describes cannot have: past the output's frames, another sample rate, segments out of
    /// order or overlapping, a rectangle outside the picture.
    case outOfBounds(jsonPath: String, reason: String)

    public var description: String {
        switch self {
        case .malformed(let path, let reason):
            "not a pipctl timeline: " + (path.isEmpty ? reason : "\(path): \(reason)")
        case .outOfBounds(let path, let reason):
            "\(path): \(reason)"
        }
    }

    /// The JSON path of the value at fault; empty for the document itself.
    public var jsonPath: String {
        switch self {
        case .malformed(let path, _), .outOfBounds(let path, _): path
        }
    }

    /// Foundation's decoding error as one line with its JSON path.
    init(_ error: DecodingError) {
        func oneLine(_ text: String) -> String {
            text.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            self = .malformed(jsonPath: TimelineError.path(context.codingPath), reason: oneLine(context.debugDescription))
        case .keyNotFound(let key, let context):
            self = .malformed(jsonPath: TimelineError.path(context.codingPath + [key]), reason: "missing")
        case .dataCorrupted(let context):
            self = .malformed(jsonPath: TimelineError.path(context.codingPath), reason: oneLine(context.debugDescription))
        @unknown default:
            self = .malformed(jsonPath: "", reason: oneLine("\(error)"))
        }
    }

    /// `segments[3].outEndFrame` from a coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }
}

extension KeyedDecodingContainer {
    /// Decodes a whole number; a JSON number that is not one of this width (`1.5`, `1e30`) fails naming its key.
    ///
    /// Foundation fails such a number with an internal error that surfaces as "not valid JSON" with no path at
    /// all, which tells a user nothing.
    func wholeNumber<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        do { return try decode(T.self, forKey: key) } catch {
            guard let number = try? decode(Double.self, forKey: key) else { throw error }
            throw DecodingError.dataCorruptedError(forKey: key, in: self,
                                                   debugDescription: "\(number) is not a whole number of \(T.bitWidth) bits")
        }
    }

    /// `wholeNumber` for a value that may be absent or null.
    func wholeNumberIfPresent<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try wholeNumber(T.self, forKey: key)
    }
}
