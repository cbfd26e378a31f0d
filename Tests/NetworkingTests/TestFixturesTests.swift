import Foundation
import LoopbackServer
import Testing

/// The tests' fixture cache (`TestFixtures`): made once per key, whole or not at all, and safe when two makers
/// race for the same key.
@Suite struct TestFixturesTests {
    @Test func aFixtureIsMadeOnceAndFoundAgainByItsKey() throws {
        let root = try TemporaryDirectory()
        var made = 0
        let first = try TestFixtures.directory(for: "clip 320x180", in: root.path) { dir in
            made += 1
            try Data("frames".utf8).write(to: URL(fileURLWithPath: dir + "/clip.mp4"))
        }
        let again = try TestFixtures.directory(for: "clip 320x180", in: root.path) { _ in made += 1 }
        let other = try TestFixtures.directory(for: "clip 640x360", in: root.path) { _ in made += 1 }
        #expect(again == first && other != first)
        #expect(made == 2, "the second call for a key makes nothing")
        #expect(try String(contentsOfFile: first + "/clip.mp4", encoding: .utf8) == "frames")
    }

    @Test func twoMakersOfOneKeyAtOnceLeaveOneWholeFixtureAndNoScratch() throws {
        let root = try TemporaryDirectory()
        // Both makers are inside `make` before either finishes: each has its own scratch directory.
        let inside = DispatchGroup()
        inside.enter()
        inside.enter()
        let results = LockedResults()
        let done = DispatchGroup()
        let path = root.path
        for i in 0..<2 {
            done.enter()
            // Threads of their own: each maker blocks until the other is inside too.
            Thread {
                do {
                    let dir = try TestFixtures.directory(for: "shared", in: path) { dir in
                        inside.leave()
                        inside.wait()
                        try Data("maker \(i)".utf8).write(to: URL(fileURLWithPath: dir + "/clip.mp4"))
                    }
                    results.append(.success(dir))
                } catch {
                    results.append(.failure(error))
                }
                done.leave()
            }.start()
        }
        done.wait()
        let paths = try results.all.map { try $0.get() }
        #expect(paths.count == 2 && Set(paths).count == 1, "both get the one that won")
        let text = try String(contentsOfFile: try #require(paths.first) + "/clip.mp4", encoding: .utf8)
        #expect(text == "maker 0" || text == "maker 1")
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(left == [TestFixtures.hash("shared")], "the loser's scratch directory is gone")
    }

    @Test func aMakerThatFailsLeavesNothing() throws {
        let root = try TemporaryDirectory()
        struct Broken: Error {}
        #expect(throws: Broken.self) {
            _ = try TestFixtures.directory(for: "broken", in: root.path) { dir in
                try Data("half".utf8).write(to: URL(fileURLWithPath: dir + "/clip.mp4"))
                throw Broken()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }
}

private final class LockedResults: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var results: [Result<String, any Error>] = []
    func append(_ result: Result<String, any Error>) { lock.lock(); results.append(result); lock.unlock() }
    var all: [Result<String, any Error>] { lock.lock(); defer { lock.unlock() }; return results }
}
