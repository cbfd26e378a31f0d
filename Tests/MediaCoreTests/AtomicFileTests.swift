import Foundation
import MediaCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory for one test, removed when dropped.
final class Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pipctl-atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func at(_ name: String) -> String { path + "/" + name }

    func entries(_ name: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: name.isEmpty ? path : at(name))) ?? []).sorted()
    }

    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: at(name)))
        return at(name)
    }

    func text(_ name: String) throws -> String { try String(contentsOfFile: at(name), encoding: .utf8) }
}

func fileType(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
}

/// `AtomicFile`'s rules for where bytes go and when they appear (docs/FILES.md).
@Suite struct AtomicFileTests {
    @Test func commitAllReplacesEveryPreviousFile() throws {
        let dir = try Scratch()
        try dir.write("old a", to: "a")
        try dir.write("old b", to: "b")
        let a = try AtomicFile(destination: dir.at("a"))
        let b = try AtomicFile(destination: dir.at("b"))
        try a.write(Data("new a".utf8))
        try b.write(Data("new b".utf8))
        try AtomicFile.commitAll([a, b])
        #expect(try dir.text("a") == "new a")
        #expect(try dir.text("b") == "new b")
        #expect(dir.entries() == ["a", "b"])
    }

    /// The last rename fails (its directory was moved away after the file was prepared): the first destination,
    /// already replaced, gets its previous file back, and nothing else is left behind.
    @Test func aFailingLastRenameRestoresEveryPreviousFile() throws {
        let dir = try Scratch()
        try FileManager.default.createDirectory(atPath: dir.at("one"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir.at("two"), withIntermediateDirectories: false)
        try dir.write("previous output", to: "one/out.mp4")
        let previousInode = try #require(FileManager.default.attributesOfItem(atPath: dir.at("one/out.mp4"))[.systemFileNumber] as? Int)
        let output = try AtomicFile(destination: dir.at("one/out.mp4"))
        let events = try AtomicFile(destination: dir.at("two/out.events.jsonl"))
        try output.write(Data("new output".utf8))
        try events.write(Data("new events".utf8))
        try FileManager.default.moveItem(atPath: dir.at("two"), toPath: dir.at("moved"))
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.commitAll([output, events]) }
        #expect(try dir.text("one/out.mp4") == "previous output")
        #expect(try FileManager.default.attributesOfItem(atPath: dir.at("one/out.mp4"))[.systemFileNumber] as? Int == previousInode)
        #expect(dir.entries("one") == ["out.mp4"])
        // The event log's temporary file went with its directory, out of this run's reach; a later run that writes
        // there removes it as the file of a process that is gone.
        #expect(dir.entries("moved").allSatisfy { $0.hasPrefix(".out.events.jsonl.pipctl-\(getpid())-") })
    }

    /// A destination that did not exist before a failed commit does not exist after it.
    @Test func aFailedCommitRemovesFilesThatWereNotThereBefore() throws {
        let dir = try Scratch()
        try FileManager.default.createDirectory(atPath: dir.at("two"), withIntermediateDirectories: false)
        let output = try AtomicFile(destination: dir.at("out.mp4"))
        let events = try AtomicFile(destination: dir.at("two/ev"))
        try output.write(Data("new".utf8))
        try FileManager.default.removeItem(atPath: dir.at("two"))
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.commitAll([output, events]) }
        #expect(dir.entries() == [])
    }

    @Test func theTemporaryNameCarriesTheProcessID() throws {
        let dir = try Scratch()
        let file = try AtomicFile(destination: dir.at("out.mp4"))
        let name = OutputDestination.name(of: file.temporaryPath)
        #expect(name.hasPrefix(".out.mp4.pipctl-\(getpid())-"))
        #expect(name.hasSuffix(".tmp"))
        #expect(OutputDestination.parent(of: file.temporaryPath) == dir.path)
    }

    /// A symlink stays a link: the file lands at its target, in the target's directory.
    @Test func aSymlinkDestinationIsWrittenThroughToItsTarget() throws {
        let dir = try Scratch()
        try FileManager.default.createDirectory(atPath: dir.at("real"), withIntermediateDirectories: false)
        try dir.write("old", to: "real/target.json")
        try FileManager.default.createSymbolicLink(atPath: dir.at("link.json"), withDestinationPath: "real/target.json")
        let file = try AtomicFile(destination: dir.at("link.json"))
        #expect(OutputDestination.parent(of: file.temporaryPath) == dir.at("real"))
        try file.write(Data("new".utf8))
        try file.commit()
        #expect(fileType(dir.at("link.json")) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.at("link.json")) == "real/target.json")
        #expect(try dir.text("real/target.json") == "new")
        #expect(dir.entries("real") == ["target.json"])
    }

    @Test func aDanglingSymlinkCreatesItsTarget() throws {
        let dir = try Scratch()
        try FileManager.default.createSymbolicLink(atPath: dir.at("link"), withDestinationPath: dir.at("made"))
        let file = try AtomicFile(destination: dir.at("link"))
        try file.write(Data("made".utf8))
        try file.commit()
        #expect(fileType(dir.at("link")) == S_IFLNK)
        #expect(try dir.text("made") == "made")
    }

    /// `/dev/null` is written to, never replaced by a regular file (the test runs as root, as CI does).
    @Test func aCharacterDeviceIsWrittenThroughInPlace() throws {
        let before = try #require(FileManager.default.attributesOfItem(atPath: "/dev/null")[.systemFileNumber] as? Int)
        let file = try AtomicFile(destination: "/dev/null")
        #expect(file.writesThrough)
        try file.write(Data(repeating: 7, count: 100_000))
        try file.commit()
        #expect(fileType("/dev/null") == S_IFCHR)
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.systemFileNumber] as? Int == before)
        #expect(!FileManager.default.fileExists(atPath: file.temporaryPath))
    }

    @Test func aFIFOIsWrittenThroughToItsReader() async throws {
        let dir = try Scratch()
        #expect(mkfifo(dir.at("fifo"), 0o600) == 0)
        let path = dir.at("fifo")
        let reader = Task.detached { () -> Data? in FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() }
        let file = try AtomicFile(destination: path)
        try file.write(Data("through the pipe".utf8))
        try file.commit()
        #expect(await reader.value == Data("through the pipe".utf8))
        #expect(fileType(path) == S_IFIFO)
        #expect(dir.entries() == ["fifo"])
    }

    @Test func aDirectoryIsRefused() throws {
        let dir = try Scratch()
        #expect(throws: AtomicFile.Failure(path: dir.path, reason: "it is a directory")) {
            try AtomicFile(destination: dir.path)
        }
    }

    @Test func aSocketIsRefused() throws {
        let dir = try Scratch()
        let path = dir.at("sock")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(throws: AtomicFile.Failure(path: path, reason: "it is a socket")) { try AtomicFile(destination: path) }
        #expect(fileType(path) == S_IFSOCK)
    }

    /// Preparing a file removes the temporary files of processes that are gone, never those of a live one, nor
    /// files that merely look alike.
    @Test func staleTemporaryFilesOfDeadProcessesAreRemoved() throws {
        let dir = try Scratch()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        #expect(kill(dead, 0) == -1 && errno == ESRCH)
        let live = getppid()
        try dir.write("x", to: ".out.mp4.pipctl-\(dead)-0.tmp")
        try dir.write("x", to: ".out.mp4.pipctl-\(dead)-3.bak")
        try dir.write("x", to: ".out.mp4.pipctl-\(live)-1.tmp")
        try dir.write("x", to: ".notes.\(dead)-2.tmp")
        try dir.write("x", to: "out.mp4")
        _ = try AtomicFile(destination: dir.at("out.mp4"))
        #expect(dir.entries() == [".notes.\(dead)-2.tmp", ".out.mp4.pipctl-\(live)-1.tmp", "out.mp4"])
    }
}

/// When two paths name one file.
@Suite struct FileIdentityTests {
    @Test func anOutputNamingAnInputThroughALinkOrADotDotIsACollision() throws {
        let dir = try Scratch()
        try FileManager.default.createDirectory(atPath: dir.at("sub"), withIntermediateDirectories: false)
        try dir.write("content", to: "content.mp4")
        try FileManager.default.createSymbolicLink(atPath: dir.at("alias.mp4"), withDestinationPath: "content.mp4")
        try FileManager.default.linkItem(atPath: dir.at("content.mp4"), toPath: dir.at("hard.mp4"))
        let input = FileIdentity.Named("--content", dir.at("content.mp4"))
        for path in [dir.at("alias.mp4"), dir.at("hard.mp4"), dir.at("sub/../content.mp4")] {
            let collision = FileIdentity.firstCollision(inputs: [input], outputs: [FileIdentity.Named("-o", path)])
            #expect(collision?.description == "-o \(path) is the same file as --content \(dir.at("content.mp4"))")
        }
        #expect(FileIdentity.firstCollision(inputs: [input], outputs: [FileIdentity.Named("-o", dir.at("out.mp4"))]) == nil)
    }

    /// Two outputs that do not exist yet are compared by path, with the symlinks of their directory resolved.
    @Test func twoNewOutputsThroughALinkedDirectoryCollide() throws {
        let dir = try Scratch()
        try FileManager.default.createDirectory(atPath: dir.at("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.at("linked"), withDestinationPath: "real")
        let outputs = [FileIdentity.Named("-o", dir.at("real/x")), FileIdentity.Named("--events", dir.at("linked/x"))]
        #expect(FileIdentity.firstCollision(inputs: [], outputs: outputs)?.output.label == "--events")
    }

    @Test func characterDevicesMayTakeSeveralOutputs() {
        let outputs = [FileIdentity.Named("-o", "/dev/null"), FileIdentity.Named("--events", "/dev/null")]
        #expect(FileIdentity.firstCollision(inputs: [], outputs: outputs) == nil)
    }
}
