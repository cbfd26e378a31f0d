import Foundation

/// Why a media cache directory is not used: it is not a directory, or someone other than this user could change
/// what it holds (and so which ads play, and fill the disk).
public enum MediaCacheDirectoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path exists and is not a directory (a regular file, a device).
    case notADirectory(path: String)
    /// Group or others may write to the directory (its permission bits, in octal); a sticky bit does not help,
    /// since others could still add files under names this user has not written yet.
    case writableByOthers(path: String, mode: UInt16)
    /// The directory belongs to another user, who can change it at will.
    case ownedByAnotherUser(path: String, owner: UInt32)
    /// The directory could not be made or inspected.
    case cannotCreate(path: String, reason: String)

    public var description: String {
        switch self {
        case .notADirectory(let path): "\(path) is not a directory"
        case .writableByOthers(let path, let mode):
            "\(path) can be written by other users (mode \(String(mode, radix: 8))); make it private (chmod go-w) "
                + "or pass --media-cache-shared"
        case .ownedByAnotherUser(let path, let owner):
            "\(path) belongs to another user (uid \(owner)); use a directory of your own or pass --media-cache-shared"
        case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
        }
    }
}
