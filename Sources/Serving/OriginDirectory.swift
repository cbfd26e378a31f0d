import Foundation
import HTTPServing
import MediaCore

/// The folder `pipctl serve --origin` serves from, and the one rule for reaching a file inside it: a path made of
/// plain names (no empty name, `.`, `..`, hidden name, `/`, `\` or NUL), whose real path, symlinks followed,
/// is still inside the folder and is a regular file.
public struct OriginDirectory: Sendable {
    /// The folder's real path.
    public let root: String

    public init(path: String) throws(ServeSetupError) {
        guard let real = Self.realPath(path) else { throw ServeSetupError("--origin \"\(path.excerpt)\": no such folder") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ServeSetupError("--origin \"\(path.excerpt)\": not a folder")
        }
        root = real
    }

    /// The regular file at `components` under the origin, or nil.
    public func file(_ components: [String]) -> String? {
        guard !components.isEmpty, components.count <= 32, components.allSatisfy(Self.isPlainName) else { return nil }
        return confined(root + "/" + components.joined(separator: "/"))
    }

    /// The regular file a playlist's `uri` names, relative to the playlist at `playlist` (a file under the origin):
    /// nil for a URL with a scheme, an absolute path, a query or fragment, or a path that leaves the origin.
    public func file(uri: String, relativeTo playlist: String) -> String? {
        guard !uri.hasPrefix("/"), !uri.contains("?"), !uri.contains("#"), !uri.contains("\\"),
              uri.firstIndex(of: ":").map({ colon in uri[..<colon].contains("/") }) ?? true,
              let decoded = PercentDecoding.decode(uri, plusIsSpace: false) else { return nil }
        let directory = (playlist as NSString).deletingLastPathComponent
        guard directory.hasPrefix(root) else { return nil }
        var parts = directory.dropFirst(root.count).split(separator: "/").map(String.init)
        for part in decoded.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "", ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default:
                guard Self.isPlainName(String(part)) else { return nil }
                parts.append(String(part))
            }
        }
        return file(parts)
    }

    /// `path` relative to the origin (for URLs), or nil when it is not inside.
    public func relative(_ path: String) -> [String]? {
        guard path.hasPrefix(root + "/") else { return nil }
        return path.dropFirst(root.count + 1).split(separator: "/").map(String.init)
    }

    private func confined(_ path: String) -> String? {
        guard let real = Self.realPath(path), real.hasPrefix(root + "/") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return real
    }

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(validatingCString: resolved)
    }
}

/// Why `pipctl serve` cannot start: one line naming the option or file.
public struct ServeSetupError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

