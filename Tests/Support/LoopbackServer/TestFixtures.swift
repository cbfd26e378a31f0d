import Foundation

/// Test media made once and kept between runs: each fixture is a directory `.build/test-fixtures/<key hash>/`,
/// where the key names the generator and every parameter (and, for our own generators, a hash of their sources,
/// so that a change to them makes the media again). A second run, or a second test process, makes nothing.
///
/// Two processes may make the same fixture at once: each makes it in a directory of its own beside the cache and
/// renames it into place; the first rename wins and the loser's copy is removed. A fixture directory that exists
/// is therefore whole. `PIPCTL_TEST_FIXTURES` moves the cache (`.build/` of this checkout by default).
///
/// Tests must not change what they get from here; a test that writes beside its inputs copies them first
/// (`copy(_:into:)`).
public enum TestFixtures {
    /// The checkout this file belongs to (Tests/Support/LoopbackServer/ is three levels down).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Where the fixtures live.
    public static var root: String {
        ProcessInfo.processInfo.environment["PIPCTL_TEST_FIXTURES"] ?? repositoryRoot + "/.build/test-fixtures"
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The fixture directory for `key`, made by `make(directory)` into an empty directory when it is not cached.
    public static func directory(for key: String, make: (String) throws -> Void) throws -> String {
        try directory(for: key, in: root, make: make)
    }

    /// `directory(for:make:)` with the cache at `root`.
    public static func directory(for key: String, in root: String, make: (String) throws -> Void) throws -> String {
        let target = root + "/" + hash(key)
        if FileManager.default.fileExists(atPath: target) { return target }
        let scratch = try scratchDirectory(for: target, in: root)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try make(scratch)
        return try publish(scratch, as: target, key: key)
    }

    /// `directory(for:make:)` for a maker that waits (one that runs `pipctl`).
    public static func directory(for key: String, make: (String) async throws -> Void) async throws -> String {
        let target = root + "/" + hash(key)
        if FileManager.default.fileExists(atPath: target) { return target }
        let scratch = try scratchDirectory(for: target, in: root)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try await make(scratch)
        return try publish(scratch, as: target, key: key)
    }

    private static func scratchDirectory(for target: String, in root: String) throws -> String {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let scratch = target + ".making-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        return scratch
    }

    /// Renames the finished `scratch` to `target`, unless another process got there first.
    private static func publish(_ scratch: String, as target: String, key: String) throws -> String {
        // The key beside the media, for whoever wonders what a directory holds.
        try Data(key.utf8).write(to: URL(fileURLWithPath: scratch + "/.key"))
        // rename(2) of a directory onto an existing non-empty one fails: then another process made it first.
        if rename(scratch, target) != 0 && !FileManager.default.fileExists(atPath: target) {
            throw Failure(description: "\(target): rename failed: \(String(cString: strerror(errno)))")
        }
        return target
    }

    /// The fixture file `name` for `key`, made by `make(path)` when it is not cached.
    public static func file(_ name: String, key: String, make: (String) throws -> Void) throws -> String {
        try directory(for: key + "\nfile " + name) { try make($0 + "/" + name) } + "/" + name
    }

    /// `file(_:key:make:)` for a maker that waits.
    public static func file(_ name: String, key: String, make: (String) async throws -> Void) async throws -> String {
        try await directory(for: key + "\nfile " + name) { try await make($0 + "/" + name) } + "/" + name
    }

    /// Copies the fixture file at `path` to `destination` (replacing nothing: the destination must not exist).
    public static func copy(_ path: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: path, toPath: destination)
    }

    /// A key part naming the current contents of the source folders `folders` (relative to the checkout): a change
    /// to any file in them changes the key.
    public static func sources(_ folders: [String]) -> String {
        var text = ""
        for folder in folders {
            let base = repositoryRoot + "/" + folder
            let files = (FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []).sorted()
            for file in files where file.hasSuffix(".swift") || file.hasSuffix(".h") || file.hasSuffix(".modulemap") {
                let data = (try? Data(contentsOf: URL(fileURLWithPath: base + "/" + file))) ?? Data()
                text += "\(folder)/\(file) \(hash(data))\n"
            }
        }
        return "sources " + hash(Data(text.utf8))
    }

    /// FNV-1a, 64 bits, as 16 hex digits: stable across runs and machines (Swift's `Hasher` is seeded per process).
    public static func hash(_ text: String) -> String { hash(Data(text.utf8)) }

    public static func hash(_ data: Data) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
