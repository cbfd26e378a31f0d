/// One render of a batch manifest: a line that named its content, its ads and its output correctly.
///
/// Paths are as the manifest wrote them; relative ones are relative to the manifest's directory, which is where
/// the job runs (`BatchManifest.directory`).
public struct BatchJob: Hashable, Sendable {
    /// Where the ads come from: a VMAP/VAST document (path or URL) or quick breaks in `--break` form.
    public enum Ads: Hashable, Sendable {
        case document(String)
        case breaks([String])
    }

    /// What the job renders: content with its ads, or a session file (`pipctl render --session FILE`) whose
    /// player names them.
    public enum Source: Hashable, Sendable {
        case content(String, ads: Ads)
        case session(String)
    }

    /// One render option by its long name, as the manifest gave it: `"fps": 30` is `.text(["30"])`, `"no-preroll":
    /// true` is `.boolean(true)`, a list is one text per occurrence. Which of these an option accepts is the
    /// command line's to say (`pipctl` checks them against `render`'s parameters).
    public struct Option: Hashable, Sendable {
        public enum Value: Hashable, Sendable {
            case boolean(Bool)
            case text([String])
        }

        public var name: String
        public var value: Value

        public init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }

    public var id: String
    /// The 1-based line of the manifest.
    public var line: Int
    public var source: Source
    public var output: String
    /// In the order of their names, so that the same options always make the same command line.
    public var options: [Option]

    public init(id: String, line: Int, source: Source, output: String, options: [Option]) {
        self.id = id
        self.line = line
        self.source = source
        self.output = output
        self.options = options
    }

    public init(id: String, line: Int, content: String, ads: Ads, output: String, options: [Option]) {
        self.init(id: id, line: line, source: .content(content, ads: ads), output: output, options: options)
    }

    /// The local files its own fields name (content and ads document, or session file), as written.
    public var inputsAsWritten: [String] {
        switch source {
        case .content(let content, .document(let document)) where !BatchManifest.isURL(document): [content, document]
        case .content(let content, _): [content]
        case .session(let file): [file]
        }
    }
}
