import Foundation
import MediaCore

/// Reads JSON values, naming the JSON path of the one that is wrong.
struct JSONPathReader {
    let file: String

    func fail(_ path: String, _ message: String) -> SessionFileError { SessionFileError(file: file, path: path, message) }

    func object(_ value: Any?, _ path: String) throws(SessionFileError) -> [String: Any] {
        guard let value else { throw fail(path, "is missing") }
        guard let object = value as? [String: Any] else { throw fail(path, "not an object") }
        return object
    }

    func array(_ value: Any?, _ path: String) throws(SessionFileError) -> [Any] {
        guard let value else { throw fail(path, "is missing") }
        guard let array = value as? [Any] else { throw fail(path, "not an array") }
        return array
    }

    func string(_ value: Any?, _ path: String) throws(SessionFileError) -> String {
        guard let value else { throw fail(path, "is missing") }
        guard let text = value as? String else { throw fail(path, "not a string") }
        return text
    }

    func bool(_ value: Any, _ path: String) throws(SessionFileError) -> Bool {
        guard let number = value as? NSNumber, Self.isBoolean(number) else { throw fail(path, "not true or false") }
        return number.boolValue
    }

    func int(_ value: Any?, _ path: String) throws(SessionFileError) -> Int {
        guard let value else { throw fail(path, "is missing") }
        guard let number = value as? NSNumber, !Self.isBoolean(number),
              let whole = Int(exactly: number.doubleValue) else { throw fail(path, "not a whole number") }
        return whole
    }

    /// Whether JSONSerialization read `number` from `true` or `false` (an NSNumber of type `c`), not from 1 or 0.
    static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    func choice<T: RawRepresentable & CaseIterable>(_ value: Any, _ path: String, _ type: T.Type) throws(SessionFileError) -> T
        where T.RawValue == String {
        let text = try string(value, path)
        guard let chosen = T(rawValue: text) else {
            throw fail(path, "\"\(text.excerpt)\" is not one of \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        return chosen
    }

    /// Refuses a key this object does not have, so that a misspelt one is not silently ignored.
    func only(_ object: [String: Any], _ keys: Set<String>, _ path: String) throws(SessionFileError) {
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw fail(path.isEmpty ? unknown : "\(path).\(unknown)", "unknown key (expected one of \(keys.sorted().joined(separator: ", ")))")
        }
    }
}
