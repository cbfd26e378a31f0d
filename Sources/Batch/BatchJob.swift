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
    public var content: String
    public var ads: Ads
    public var output: String
    /// In the order of their names, so that the same options always make the same command line.
    public var options: [Option]

    public init(id: String, line: Int, content: String, ads: Ads, output: String, options: [Option]) {
        self.id = id
        self.line = line
        self.content = content
        self.ads = ads
        self.output = output
        self.options = options
    }
}
