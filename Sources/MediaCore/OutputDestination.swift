import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a path given for an output is now, and where a file written to it lands.
///
/// The rules (docs/FILES.md): a missing file or a regular file is replaced by rename; a symlink is followed to its
/// target (even a dangling one), so the rename goes to the target's directory and the link stays a link; a character
/// device or a FIFO is written through in place; a directory, a socket or a block device is refused.
public struct OutputDestination: Hashable, Sendable {
    /// What the destination is.
    public enum Kind: Hashable, Sendable {
        /// Nothing there yet: the file is created.
        case absent
        case regularFile
        case characterDevice
        case fifo

        /// True for the kinds that are opened and written in place instead of renamed over.
        public var writesThrough: Bool { self == .characterDevice || self == .fifo }
    }

    /// Why a path cannot take an output.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The path as given.
    public let path: String
    /// The absolute path with every symlink resolved (the path as given for a device or FIFO, whose links may
    /// lead to names that are not paths, such as `/dev/stdout` to a pipe).
    public let target: String
    /// The resolved directory that holds `target`.
    public let directory: String
    public let kind: Kind

    /// Looks at `path` without changing anything.
    /// - Throws: `Refusal` when its directory does not exist, or it is a directory, a socket or a block device.
    public init(_ path: String) throws(Refusal) {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: kind = .regularFile
            case S_IFCHR: kind = .characterDevice
            case S_IFIFO: kind = .fifo
            case S_IFDIR: throw Refusal(path: path, reason: "it is a directory")
            case S_IFSOCK: throw Refusal(path: path, reason: "it is a socket")
            case S_IFBLK: throw Refusal(path: path, reason: "it is a block device")
            default: throw Refusal(path: path, reason: "it is not a regular file")
            }
        } else {
            kind = .absent
        }
        if kind.writesThrough {
            target = path
            directory = OutputDestination.parent(of: path)
            return
        }
        let resolved = try OutputDestination.resolvingLinks(path)
        target = resolved.target
        directory = resolved.directory
    }

    /// Follows the symlinks of `path` (the last component by hand, so a dangling link gives its target's path),
    /// then resolves its directory with `realpath`.
    static func resolvingLinks(_ path: String) throws(Refusal) -> (target: String, directory: String) {
        var current = absolute(path)
        var hops = 0
        while true {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { break }
            hops += 1
            guard hops <= 40 else { throw Refusal(path: path, reason: "too many levels of symbolic links") }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { break }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : OutputDestination.parent(of: current) + "/" + link
        }
        let name = OutputDestination.name(of: current)
        let parent = OutputDestination.parent(of: current)
        guard !name.isEmpty, name != ".", name != "..", !current.hasSuffix("/") else {
            throw Refusal(path: path, reason: "it is a directory")
        }
        guard let real = realpath(parent, nil) else {
            throw Refusal(path: path, reason: "the directory \(parent) does not exist")
        }
        defer { free(real) }
        let directory = String(cString: real)
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw Refusal(path: path, reason: "\(parent) is not a directory")
        }
        return (directory == "/" ? "/" + name : directory + "/" + name, directory)
    }

    /// The directory part of `path` (`.` for a bare name, `/` for a name at the root); Foundation's
    /// `deletingLastPathComponent` traps on some bare names.
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = path[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    /// The last component of `path` (empty when it ends with `/`).
    public static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `path` made absolute against the current directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
