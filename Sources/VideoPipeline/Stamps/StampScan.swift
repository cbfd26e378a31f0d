/// The stamps of every frame of a file, and their summary as runs: `pipctl stamps`.
public struct StampScan: Sendable {
    /// One frame's stamp, or `nil` when it carries none.
    public var stamps: [FrameStamp?]
    public var runs: [Run]

    /// Consecutive frames that show one source going forward: same id, indexes never going back and never
    /// jumping by more than `StampScan.maximumStep` (a jump means a cut); or consecutive frames without a stamp.
    public struct Run: Hashable, Sendable, CustomStringConvertible {
        /// Output frames `first...last`.
        public var first: Int64
        public var last: Int64
        /// `nil` for frames without a stamp.
        public var sourceID: String?
        public var firstIndex: Int?
        public var lastIndex: Int?

        public var description: String {
            let frames = "output \(first)–\(last)"
            guard let sourceID, let firstIndex, let lastIndex else { return "\(frames): no stamp" }
            return "\(frames): \(sourceID) \(firstIndex)–\(lastIndex)"
        }
    }

    /// The largest forward step between consecutive frames of one run (60 fps into 12 fps drops 4 frames per step).
    public static let maximumStep = 8

    /// Reads every frame of `path`.
    public static func scan(_ path: String) throws(MediaError) -> StampScan {
        let reader = try FrameReader(path: path)
        var stamps: [FrameStamp?] = []
        while let picture = try reader.next() { stamps.append(picture.readStamp()) }
        guard !stamps.isEmpty else { throw .noFrames(path: path) }
        return StampScan(stamps: stamps)
    }

    public init(stamps: [FrameStamp?]) {
        self.stamps = stamps
        var runs: [Run] = []
        for (offset, stamp) in stamps.enumerated() {
            let n = Int64(offset)
            if var run = runs.last, run.last == n - 1, StampScan.continues(run, with: stamp) {
                run.last = n
                run.lastIndex = stamp?.frameIndex
                runs[runs.count - 1] = run
            } else {
                runs.append(Run(first: n, last: n, sourceID: stamp?.sourceID, firstIndex: stamp?.frameIndex, lastIndex: stamp?.frameIndex))
            }
        }
        self.runs = runs
    }

    private static func continues(_ run: Run, with stamp: FrameStamp?) -> Bool {
        guard let stamp else { return run.sourceID == nil }
        guard run.sourceID == stamp.sourceID, let last = run.lastIndex else { return false }
        return stamp.frameIndex >= last && stamp.frameIndex - last <= maximumStep
    }

    /// One line per run.
    public var summary: String { runs.map(\.description).joined(separator: "\n") }
}
