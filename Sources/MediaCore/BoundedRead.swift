import Foundation

/// Reads a whole file that must not be larger than a limit, without reading more than one byte past the limit
/// (so a huge file, a FIFO or a device is refused as soon as it is known to be too large).
public enum BoundedRead {
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file cannot be opened or read; the system's reason.
        case unreadable(String)
        /// The file holds more than `limit` bytes.
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot be read (\(reason))"
            case .tooLarge(let limit): "larger than the limit of \(limit) bytes"
            }
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them.
    public static func contents(ofFile path: String, limit: Int) throws(Failure) -> Data {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)) } catch {
            throw .unreadable((error as NSError).localizedDescription)
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw .unreadable((error as NSError).localizedDescription)
        }
        guard data.count <= limit else { throw .tooLarge(limit: limit) }
        return data
    }
}
