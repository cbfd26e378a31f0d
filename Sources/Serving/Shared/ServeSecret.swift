import Foundation
import MediaCore

/// `--secret-file FILE`: the key every instance of one service signs its sessions' tokens and records with
/// (`head -c 64 /dev/urandom > secret; chmod 600 secret`). Refused, in one line naming the file, when it is missing,
/// not a regular file, empty, shorter than `minimumBytes`, longer than `maximumBytes`, or open to more than its owner
/// and the reading of its group: any mode bit for others, or for its group but read (a Kubernetes Secret mounted into a
/// pod with an `fsGroup` is made group-readable, 0440, and its group is the pod's own).
public struct ServeSecret: Sendable {
    public static let minimumBytes = 32
    public static let maximumBytes = 4096
    let key: [UInt8]

    public init(file: String) throws(ServeSetupError) {
        let shown = "--secret-file \(file.excerpt)"
        var info = stat()
        guard stat(file, &info) == 0 else { throw ServeSetupError("\(shown): \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ServeSetupError("\(shown): not a regular file") }
        let mode = info.st_mode & 0o777
        guard mode & 0o037 == 0 else {
            throw ServeSetupError("\(shown): readable by others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        guard info.st_size <= Self.maximumBytes else { throw ServeSetupError("\(shown): over \(Self.maximumBytes) bytes") }
        guard let data = FileManager.default.contents(atPath: file) else { throw ServeSetupError("\(shown): cannot be read") }
        guard !data.isEmpty else { throw ServeSetupError("\(shown): empty (head -c 64 /dev/urandom > FILE; chmod 600 FILE)") }
        guard data.count >= Self.minimumBytes, data.count <= Self.maximumBytes else {
            throw ServeSetupError("\(shown): \(data.count) bytes; a secret has \(Self.minimumBytes) to \(Self.maximumBytes) (head -c 64 /dev/urandom > FILE)")
        }
        key = Array(data)
    }

    /// A secret of these bytes (tests; a key shorter than `minimumBytes` is the caller's choice).
    package init(key: [UInt8]) { self.key = key }

    /// The code of `message` under this secret, for the purpose `domain` (so that a token's signature is never a
    /// record's).
    package func sign(_ domain: String, _ message: [UInt8]) -> [UInt8] {
        HMACSHA256.code(Array(domain.utf8) + [0] + message, key: key)
    }
}
