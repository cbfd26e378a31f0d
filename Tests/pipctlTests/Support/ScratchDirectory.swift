import Foundation

/// A fresh directory under the system's temporary directory for one test's files, removed when dropped.
final class ScratchDirectory: Sendable {
    let url: URL

    init(_ label: String = "pipctl-e2e") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The absolute path of `name` inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Creates the subdirectory `name` and returns its path.
    func subdirectory(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: path(name), withIntermediateDirectories: true)
        return path(name)
    }

    /// Every name below the directory (or below its subdirectory `name`), hidden files included, as sorted
    /// relative paths: what a user would find there, stray temporary files too.
    func entries(in name: String = "") -> [String] {
        let root = name.isEmpty ? url.path : path(name)
        return (FileManager.default.subpaths(atPath: root) ?? []).sorted()
    }

    /// The UTF-8 text of the file `name`.
    func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// Writes `text` to the file `name` and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
        return path(name)
    }
}
