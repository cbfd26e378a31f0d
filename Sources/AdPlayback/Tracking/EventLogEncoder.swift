import MediaCore

/// Writes a flat `Encodable` value (strings, integers, floating-point numbers, booleans) as one line of JSON with
/// reproducible bytes.
///
/// Keys come in the order the value encodes them (for a synthesized `Encodable`, the order of its `CodingKeys`),
/// nil fields are left out, strings are escaped minimally (non-ASCII stays UTF-8, `/` is not escaped), and
/// floating-point numbers are plain decimals rounded to at most six fractional digits, trailing zeros removed:
/// `12.5`, `0.033333`, `3` — never `1e-07`. The same value therefore always gives the same bytes.
enum EventLogEncoder {
    /// The JSON object for `value`, without a newline.
    static func line<T: Encodable>(_ value: T) throws(EventLogError) -> String {
        let encoder = FlatObjectEncoder()
        do {
            try value.encode(to: encoder)
        } catch let error as EventLogError {
            throw error
        } catch {
            throw .unencodable(field: "?", reason: "\(error)")
        }
        return "{" + encoder.fields.map { "\(JSONString.quoted($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }

    /// `value` as a JSON number: at most six fractional digits, no exponent.
    static func decimal(_ value: Double, field: String) throws(EventLogError) -> String {
        guard value.isFinite else { throw .unencodable(field: field, reason: "\(value) is not a finite number") }
        let micros = (value * 1_000_000).rounded()
        // Beyond 2^53 µs (285 years) Double no longer holds every integer; such values are not media times.
        guard abs(micros) < 9_007_199_254_740_992 else {
            throw .unencodable(field: field, reason: "\(value) is too large for the event log")
        }
        let total = Int64(micros)
        let sign = total < 0 ? "-" : ""
        let whole = total.magnitude / 1_000_000, fraction = total.magnitude % 1_000_000
        guard fraction > 0 else { return sign + String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)"
    }
}

/// An `Encoder` that accepts one keyed container of scalar fields and records them in order.
private final class FlatObjectEncoder: Encoder {
    var fields: [(key: String, value: String)] = []
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FieldContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure(Self.flatOnly) }
    func singleValueContainer() -> any SingleValueEncodingContainer { preconditionFailure(Self.flatOnly) }

    static let flatOnly = "the event log writes flat objects of scalar fields only"
}

private struct FieldContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FlatObjectEncoder
    var codingPath: [any CodingKey] { [] }

    private func add(_ key: Key, _ json: String) { encoder.fields.append((key.stringValue, json)) }

    // Nil fields are left out, so that a reader sees absent and null alike.
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, value ? "true" : "false") }
    mutating func encode(_ value: String, forKey key: Key) throws { add(key, JSONString.quoted(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        add(key, try EventLogEncoder.decimal(value, field: key.stringValue))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(key, String(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        throw EventLogError.unencodable(field: key.stringValue, reason: "\(T.self) is not a scalar")
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure(FlatObjectEncoder.flatOnly)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure(FlatObjectEncoder.flatOnly)
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure(FlatObjectEncoder.flatOnly) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure(FlatObjectEncoder.flatOnly) }
}

extension SessionEvent {
    /// The event as one line of the event log (no newline), the same bytes `EventLog` writes.
    public var jsonLine: String { (try? EventLogEncoder.line(self)) ?? "{\"type\":\"\(type.rawValue)\"}" }
}
