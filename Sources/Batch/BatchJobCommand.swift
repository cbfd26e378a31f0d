/// A manifest job as the command line of its render, with the files it reads and writes: what `pipctl` makes of a
/// `BatchJob` with render's own parser (`BatchJobCommand+Render` in pipctl), and what `BatchPlan` plans with.
///
/// Paths are as written (relative to the manifest's directory).
public struct BatchJobCommand: Hashable, Sendable {
    /// `["render", "--content", …]`.
    public var arguments: [String]
    /// Files the job reads: they fingerprint it (`JobRecord`), and a missing one makes its dry run say it would fail.
    public var inputs: [String]
    /// Files its local ads documents name (their media, the documents their wrappers and VMAP breaks name), found
    /// without the network: read by the render only if their ads play, so they are checked against the batch's
    /// outputs (`BatchPlan`) but neither fingerprint the job nor make its dry run say it would fail.
    public var namedInputs: [String]
    /// Files the job writes: the output, its timeline and event log, a frame-hash file.
    public var outputs: [String]
    /// The timeline's path.
    public var timeline: String
    /// Whether the options set `--threads` (then `--jobs` does not).
    public var setsThreads: Bool

    public init(arguments: [String], inputs: [String], namedInputs: [String], outputs: [String], timeline: String,
                setsThreads: Bool) {
        self.arguments = arguments
        self.inputs = inputs
        self.namedInputs = namedInputs
        self.outputs = outputs
        self.timeline = timeline
        self.setsThreads = setsThreads
    }
}
