import Foundation

extension NativeCardTemplate {
    /// The numbers a template object may set, each a whole number of points (or lines) in 0…2000.
    static var numberKeys: [(String, WritableKeyPath<NativeCardTemplate, Int>)] { [
        ("width", \.width), ("padding", \.padding), ("spacing", \.spacing), ("iconSize", \.iconSize),
        ("feedbackSize", \.feedbackSize), ("titleLines", \.titleLines), ("bodyLines", \.bodyLines),
        ("warningLines", \.warningLines), ("callToActionHeight", \.callToActionHeight), ("titleFontSize", \.titleFontSize),
        ("rowFontSize", \.rowFontSize), ("bodyFontSize", \.bodyFontSize), ("warningFontSize", \.warningFontSize),
    ] }

    /// A template from its JSON object (a session file's `template`, docs/NATIVE.md): `slots`, the slots laid
    /// out (the default's when absent), and any of the default's numbers to change.
    ///
    /// - Parameters:
    ///   - value: the parsed JSON value.
    ///   - source: the file, for errors; `path` the value's JSON path in it.
    /// - Throws: `NativeError.invalidTemplate` naming the JSON path of the first bad value.
    public init(json value: Any, source: String, path: String = "") throws(NativeError) {
        let reader = JSONPathReader(file: source)
        do throws(SessionFileError) {
            let object = try reader.object(value, path)
            let at = { (key: String) in path.isEmpty ? key : "\(path).\(key)" }
            try reader.only(object, Set(["slots"] + Self.numberKeys.map(\.0)), path)
            var template = NativeCardTemplate.default
            if let slots = object["slots"] {
                let names = try reader.array(slots, at("slots"))
                guard names.count <= NativeAssetSlot.allCases.count * 2 else { throw reader.fail(at("slots"), "too many entries") }
                template.slots = []
                for (i, name) in names.enumerated() {
                    template.slots.insert(try reader.choice(name, "\(at("slots"))[\(i)]", NativeAssetSlot.self))
                }
            }
            for (key, keyPath) in Self.numberKeys {
                guard let number = object[key] else { continue }
                let whole = try reader.int(number, at(key))
                guard (0...2000).contains(whole) else { throw reader.fail(at(key), "\(whole) is not in 0…2000") }
                template[keyPath: keyPath] = whole
            }
            guard template.titleFontSize > 0, template.rowFontSize > 0, template.bodyFontSize > 0, template.warningFontSize > 0 else {
                throw reader.fail(path, "font sizes must be positive")
            }
            self = template
        } catch {
            throw .invalidTemplate(source: source, path: error.path, message: error.message)
        }
    }
}
