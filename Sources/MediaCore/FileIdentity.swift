import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which file a path names, so that an output is never the same file as an input or as another output.
///
/// An existing file is its device and inode (after following symlinks), so hard links, symlinks and `..` spellings
/// of one file are one file; a path that does not exist yet is its normalised path (symlinks resolved on its
/// existing directory). Character devices are never the same as anything: they are written through, never
/// replaced, so `/dev/null` may take several outputs.
public enum FileIdentity: Hashable, Sendable {
    case node(device: UInt64, inode: UInt64)
    case path(String)
    case device

    /// The identity of `path` now.
    public init(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            self = (info.st_mode & S_IFMT) == S_IFCHR
                ? .device : .node(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        } else if let resolved = try? OutputDestination.resolvingLinks(path) {
            self = .path(resolved.target)
        } else {
            self = .path((OutputDestination.absolute(path) as NSString).standardizingPath)
        }
    }

    /// A path with the words that name it on the command line (`--events x.json`).
    public struct Named: Hashable, Sendable {
        public var label: String
        public var path: String

        public init(_ label: String, _ path: String) {
            self.label = label
            self.path = path
        }

        /// `--events x.json`, or the label alone when it already shows the path.
        public var description: String { label.contains(path) ? label : "\(label) \(path)" }
    }

    /// Two paths that name one file, the output first.
    public struct Collision: Error, Hashable, Sendable, CustomStringConvertible {
        public var output: Named
        public var other: Named
        public var description: String { "\(output.description) is the same file as \(other.description)" }
    }

    /// The first output that names the same file as an input or as an earlier output, or nil.
    public static func firstCollision(inputs: [Named], outputs: [Named]) -> Collision? {
        let inputIDs = inputs.map { ($0, FileIdentity($0.path)) }
        var seen: [(Named, FileIdentity)] = []
        for output in outputs {
            let id = FileIdentity(output.path)
            if id != .device {
                if let earlier = seen.first(where: { $0.1 == id }) { return Collision(output: output, other: earlier.0) }
                if let input = inputIDs.first(where: { $0.1 == id }) { return Collision(output: output, other: input.0) }
            }
            seen.append((output, id))
        }
        return nil
    }
}
