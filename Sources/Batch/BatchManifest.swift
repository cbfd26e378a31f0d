import Foundation

/// A batch manifest: JSON Lines, one render job per line (docs/BATCH.md, docs/batch-manifest.schema.json).
///
/// ```
/// {"id": "title1-fr", "content": "title1.mp4", "ads": "fr.vmap.xml", "output": "out/title1-fr.mp4"}
/// {"id": "title1-de", "content": "title1.mp4", "breaks": ["pre=ad1.mp4", "50%=ad2.mp4,ad3.mp4"],
///  "output": "out/title1-de.mp4", "options": {"fps": "30", "passthrough": "auto"}}
/// ```
///
/// A line that is not a valid job is kept as its error, with its line number and field; the other lines are
/// jobs. Blank lines are skipped. Relative paths are relative to the manifest's directory.
public struct BatchManifest: Sendable {
    /// One non-blank line: a job, or why it is not one.
    public enum Entry: Hashable, Sendable {
        case job(BatchJob)
        case invalid(BatchLineError)

        public var line: Int {
            switch self {
            case .job(let job): job.line
            case .invalid(let error): error.line
            }
        }

        /// The job's id, or the invalid line's when it had a readable one.
        public var id: String? {
            switch self {
            case .job(let job): job.id
            case .invalid(let error): error.id
            }
        }
    }

    /// Refused outright rather than read line by line: a manifest is text the user wrote, not a media file.
    public static let maximumSize = 64 << 20
    public static let maximumLineLength = 1 << 20
    public static let maximumIDLength = 200

    /// The manifest as given.
    public let path: String
    /// Absolute; the jobs run here.
    public let directory: String
    public let entries: [Entry]
    /// A digest of the manifest's bytes, so that `batch merge` can tell shards of different manifests apart.
    public let digest: String

    public var jobs: [BatchJob] {
        entries.compactMap { if case .job(let job) = $0 { job } else { nil } }
    }

    public var errors: [BatchLineError] {
        entries.compactMap { if case .invalid(let error) = $0 { error } else { nil } }
    }

    /// Why a manifest cannot be read at all.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Reads the manifest at `path`; `isCancelled` is asked before each line, and once it says yes the reading
    /// stops with a `Failure` (the caller then reports its signal).
    public init(contentsOf path: String, isCancelled: () -> Bool = { false }) throws(Failure) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw Failure(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(path: path, reason: "not a regular file") }
        guard info.st_size <= BatchManifest.maximumSize else {
            throw Failure(path: path, reason: "\(info.st_size) bytes is more than a manifest may hold (\(BatchManifest.maximumSize))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(path: path, reason: "cannot be read")
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        try self.init(data: data, path: path, directory: ((absolute as NSString).deletingLastPathComponent as NSString).standardizingPath,
                      isCancelled: isCancelled)
    }

    /// Parses manifest text; `directory` is where relative paths are resolved.
    public init(data: Data, path: String, directory: String, isCancelled: () -> Bool = { false }) throws(Failure) {
        guard data.count <= BatchManifest.maximumSize else {
            throw Failure(path: path, reason: "\(data.count) bytes is more than a manifest may hold (\(BatchManifest.maximumSize))")
        }
        self.path = path
        self.directory = directory
        digest = Fingerprint.hex(of: data)
        var entries: [Entry] = []
        var ids: [String: Int] = [:]
        var outputs: [String: BatchJob] = [:]
        var number = 0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if isCancelled() { throw Failure(path: path, reason: "stopped at line \(number)") }
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            var entry = BatchManifest.entry(Data(line), number: number)
            if case .job(let job) = entry {
                if let earlier = ids[job.id] {
                    entry = .invalid(BatchLineError(line: number, path: "id",
                                                    message: "\(quoted(job.id)) is already the id of line \(earlier)"))
                } else if let other = outputs[BatchManifest.resolve(job.output, in: directory)] {
                    entry = .invalid(BatchLineError(line: number, id: job.id, path: "output",
                                                    message: "\(quoted(job.output)) is also the output of \(quoted(other.id)) (line \(other.line))"))
                } else {
                    outputs[BatchManifest.resolve(job.output, in: directory)] = job
                }
            }
            if let id = entry.id, ids[id] == nil { ids[id] = number }
            entries.append(entry)
        }
        self.entries = entries
    }

    /// `path` made absolute against `directory` (URLs and absolute paths are unchanged) and normalised.
    public static func resolve(_ path: String, in directory: String) -> String {
        if path.hasPrefix("/") || isURL(path) { return path.hasPrefix("/") ? (path as NSString).standardizingPath : path }
        return ((directory + "/" + path) as NSString).standardizingPath
    }

    /// True for `http://…` and `https://…`.
    public static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    static let fields: Set<String> = ["id", "content", "ads", "breaks", "session", "output", "options"]

    /// One line as a job, or its first error.
    static func entry(_ line: Data, number: Int) -> Entry {
        guard line.count <= maximumLineLength else {
            return .invalid(BatchLineError(line: number, message: "longer than \(maximumLineLength) bytes"))
        }
        if let problem = utf8Problem(line, number: number) { return .invalid(problem) }
        let object: [String: ManifestValue]
        do { object = try JSONDecoder().decode([String: ManifestValue].self, from: line) } catch {
            return .invalid(BatchLineError(line: number, message: "not a JSON object (\(jsonReason(error)))"))
        }
        var id: String?
        do throws(BatchLineError) {
            id = try text(object, "id", line: number)
            guard let id else { throw BatchLineError(line: number, path: "id", message: "missing") }
            guard id.count <= maximumIDLength else {
                throw BatchLineError(line: number, path: "id", message: "longer than \(maximumIDLength) characters")
            }
            guard !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw BatchLineError(line: number, path: "id", message: "contains a control character")
            }
            for key in object.keys.sorted() where !fields.contains(key) {
                let guess = closest(key, among: fields.sorted()).map { " (did you mean \($0)?)" } ?? ""
                throw BatchLineError(line: number, id: id, path: key, message: "unknown field\(guess)")
            }
            let content = try text(object, "content", line: number, id: id)
            let session = try text(object, "session", line: number, id: id)
            let document = try text(object, "ads", line: number, id: id)
            let breaks = try list(object, "breaks", line: number, id: id)
            let source: BatchJob.Source
            if let session {
                for key in ["content", "ads", "breaks"] where object[key] != nil {
                    throw BatchLineError(line: number, id: id, path: key, message: "the session file says this: give session, or content with ads or breaks, not both")
                }
                source = .session(session)
            } else {
                guard let content else {
                    throw BatchLineError(line: number, id: id, path: "content", message: "missing: give content (with ads or breaks) or session (a session file)")
                }
                switch (document, breaks) {
                case (let document?, nil): source = .content(content, ads: .document(document))
                case (nil, let breaks?): source = .content(content, ads: .breaks(breaks))
                case (nil, nil): throw BatchLineError(line: number, id: id, path: "ads", message: "missing: give ads (a VMAP/VAST path or URL) or breaks")
                case (_?, _?): throw BatchLineError(line: number, id: id, path: "breaks", message: "give either ads or breaks, not both")
                }
            }
            guard let output = try text(object, "output", line: number, id: id) else {
                throw BatchLineError(line: number, id: id, path: "output", message: "missing")
            }
            let options = try self.options(object["options"], line: number, id: id, path: "options.")
            return .job(BatchJob(id: id, line: number, source: source, output: output, options: options))
        } catch {
            var error = error
            if error.id == nil { error.id = id }
            return .invalid(error)
        }
    }

    /// A required-or-absent non-empty string field.
    private static func text(_ object: [String: ManifestValue], _ key: String, line: Int, id: String? = nil) throws(BatchLineError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .flat(.scalar(.string(let text))) = value else {
            throw BatchLineError(line: line, id: id, path: key, message: "expected a string, not \(value.kind)")
        }
        guard !text.isEmpty else { throw BatchLineError(line: line, id: id, path: key, message: "empty") }
        return text
    }

    /// An absent or non-empty list of non-empty strings.
    private static func list(_ object: [String: ManifestValue], _ key: String, line: Int, id: String) throws(BatchLineError) -> [String]? {
        guard let value = object[key] else { return nil }
        guard case .flat(.list(let items)) = value else {
            throw BatchLineError(line: line, id: id, path: key, message: "expected a list of strings, not \(value.kind)")
        }
        guard !items.isEmpty else { throw BatchLineError(line: line, id: id, path: key, message: "empty") }
        return try items.enumerated().map { (index, item) throws(BatchLineError) in
            guard case .string(let text) = item, !text.isEmpty else {
                throw BatchLineError(line: line, id: id, path: "\(key)[\(index)]", message: "expected a non-empty string, not \(item.kind)")
            }
            return text
        }
    }

    /// Options given as one JSON object, as a line's `options` holds them (`{"fps": 30, "passthrough": true,
    /// "trusted-proxy": ["10.0.0.0/8"]}`), sorted by name: a command's configuration file (`pipctl serve --config`).
    ///
    /// - Throws: `BatchLineError` for line 1, whose path names the wrong member (`listen`, `trusted-proxy[1]`; nil
    ///   for the document as a whole).
    public static func options(ofJSONObject data: Data) throws(BatchLineError) -> [BatchJob.Option] {
        let value: ManifestValue
        do { value = try JSONDecoder().decode(ManifestValue.self, from: data) } catch {
            throw BatchLineError(line: 1, message: "not a JSON object (\(jsonReason(error)))")
        }
        return try options(value, line: 1, id: nil, path: "")
    }

    /// The `options` object, sorted by name; each member's path is `path` and its name.
    private static func options(_ value: ManifestValue?, line: Int, id: String?, path prefix: String) throws(BatchLineError) -> [BatchJob.Option] {
        guard let value else { return [] }
        guard case .object(let object) = value else {
            throw BatchLineError(line: line, id: id, path: prefix.isEmpty ? nil : String(prefix.dropLast()),
                                 message: "expected an object of \(prefix.isEmpty ? "" : "render ")options, not \(value.kind)")
        }
        var options: [BatchJob.Option] = []
        for name in object.keys.sorted() {
            let path = prefix + name
            switch object[name]! {
            case .scalar(.bool(let flag)): options.append(.init(name: name, value: .boolean(flag)))
            case .scalar(let scalar):
                guard let text = scalar.text else {
                    throw BatchLineError(line: line, id: id, path: path, message: "expected a string, a number, a boolean or a list of those, not \(scalar.kind)")
                }
                options.append(.init(name: name, value: .text([text])))
            case .list(let items):
                let texts = try items.enumerated().map { (index, item) throws(BatchLineError) in
                    guard let text = item.text else {
                        throw BatchLineError(line: line, id: id, path: "\(path)[\(index)]", message: "expected a string or a number, not \(item.kind)")
                    }
                    return text
                }
                options.append(.init(name: name, value: .text(texts)))
            }
        }
        return options
    }

    /// The closest of `names` to a misspelt `word`, within two edits.
    static func closest(_ word: String, among names: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var current = [i + 1]
                for (j, y) in b.enumerated() {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
                }
                previous = current
            }
            return previous[b.count]
        }
        let scored = names.map { ($0, distance(Array(word), Array($0))) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }

    private static func jsonReason(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        if case DecodingError.typeMismatch = error { return "the line is not an object" }
        return "\(error)"
    }
}

extension ManifestValue.Scalar {
    /// A string as it is; a number as JSON wrote it in its shortest form (`30`, `29.97`); nil for other kinds.
    var text: String? {
        switch self {
        case .string(let s): return s
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
            return String(n)
        default: return nil
        }
    }
}

/// `"x"`, with JSON's escapes, for messages.
func quoted(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    let data = (try? encoder.encode(text)) ?? Data()
    return String(decoding: data, as: UTF8.self)
}
