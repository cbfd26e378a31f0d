#if canImport(Glibc)
import Glibc
#endif

/// One version of a file: its device and inode, size, and modification and status-change times. Writing the file,
/// replacing it (another inode) or setting its times (which changes its status-change time, which no one can set)
/// gives another version, so what was checked of one version holds while the version is the same.
public struct FileVersion: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modified: Int64
    public let modifiedNanoseconds: Int
    public let changed: Int64
    public let changedNanoseconds: Int

    /// The version `info` (a `stat` of the file) describes.
    public init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int(info.st_ctim.tv_nsec)
    }
}
