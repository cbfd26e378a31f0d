import Foundation
import MediaCore
#if canImport(Glibc)
import Glibc
#endif

/// The files a command reads and writes, checked before it reads or writes anything.
///
/// An output that names an input or another output (by device and inode, or by normalised path when it does not
/// exist yet) would destroy the user's file or its sibling, so it is a usage error; so is an output that is a
/// directory, a socket or a block device, which no output may replace (docs/FILES.md).
struct CommandFiles {
    var inputs: [FileIdentity.Named] = []
    var outputs: [FileIdentity.Named] = []

    /// Adds an input given on the command line.
    mutating func read(_ label: String, _ path: String?) {
        if let path { inputs.append(FileIdentity.Named(label, path)) }
    }

    /// Adds an output.
    mutating func write(_ label: String, _ path: String?) {
        if let path { outputs.append(FileIdentity.Named(label, path)) }
    }

    /// Adds inputs the library found (`RenderRequest.readFiles`: ads' media and documents, creatives, the font).
    mutating func read(_ files: [FileIdentity.Named]) {
        inputs += files
    }

    /// Throws the first output that cannot be written without destroying something.
    func check(command: String) throws(UsageError) {
        for output in outputs {
            var info = stat()
            guard stat(output.path, &info) == 0 else { continue }
            do { _ = try OutputDestination(output.path) } catch {
                throw UsageError(command: command, message: "\(output.description): \(error.reason); nothing was written")
            }
        }
        if let collision = FileIdentity.firstCollision(inputs: inputs, outputs: outputs) {
            throw UsageError(command: command, message: "\(collision); nothing was written")
        }
    }
}
