extension JobRecord {
    /// Why a job renders rather than being skipped as up to date; its description is the reason the dry run gives.
    public enum Staleness: Hashable, Sendable, CustomStringConvertible {
        /// `--force`.
        case forced
        /// There is no record beside the output, or it cannot be read as one.
        case noRecord
        /// The record was written by another pipctl (its version).
        case otherVersion(String)
        /// The render's command line changed.
        case optionsChanged
        /// The job reads other files (by path) than it did.
        case inputsChanged
        /// An input it read no longer exists.
        case inputGone(String)
        /// An input's size or modification time changed.
        case inputChanged(String)
        /// An output it wrote no longer exists.
        case outputMissing(String)
        /// An output's size or modification time changed since the render.
        case outputChanged(String)
        /// The job writes other files than it did.
        case outputsChanged

        public var description: String {
            switch self {
            case .forced: "--force"
            case .noRecord: "not rendered yet"
            case .otherVersion(let version): "made by pipctl \(version)"
            case .optionsChanged: "its options changed"
            case .inputsChanged: "its inputs changed"
            case .inputGone(let path): "\(path) is gone"
            case .inputChanged(let path): "\(path) changed"
            case .outputMissing(let path): "\(path) is missing"
            case .outputChanged(let path): "\(path) changed since it was rendered"
            case .outputsChanged: "its outputs changed"
            }
        }
    }

    /// Why `self` (the stored record) does not let the job be skipped, or nil when the job is up to date with
    /// `current` (the record it would write now, before rendering: its outputs are checked on disk instead).
    public func staleness(against current: JobRecord, in directory: String) -> Staleness? {
        if pipctlVersion != current.pipctlVersion { return .otherVersion(pipctlVersion) }
        if arguments != current.arguments { return .optionsChanged }
        if inputs.map(\.path) != current.inputs.map(\.path) { return .inputsChanged }
        for (old, new) in zip(inputs, current.inputs) where old != new {
            return new.size == nil && !BatchManifest.isURL(new.path) ? .inputGone(new.path) : .inputChanged(new.path)
        }
        for output in outputs {
            let now = FileState(output.path, in: directory)
            if now.size == nil { return .outputMissing(output.path) }
            if now != output { return .outputChanged(output.path) }
        }
        if Set(outputs.map(\.path)) != Set(current.outputs.map(\.path)) { return .outputsChanged }
        return nil
    }
}
