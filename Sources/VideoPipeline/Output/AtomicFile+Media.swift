import MediaCore

extension AtomicFile {
    /// An atomic output for media, its failures as `MediaError`.
    static func forMedia(_ destination: String) throws(MediaError) -> AtomicFile {
        do { return try AtomicFile(destination: destination) } catch {
            throw .outputNotWritable(path: error.path, reason: error.reason)
        }
    }

    func commitMedia() throws(MediaError) {
        do { try commit() } catch { throw .outputNotWritable(path: error.path, reason: error.reason) }
    }
}
