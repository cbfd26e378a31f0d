import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is dropped.
final class TemporaryDirectory {
    let url: URL

    init(_ label: String = "pipctl-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names in the directory, hidden files included (to catch stray temporary files).
    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted() ?? [] }
}
