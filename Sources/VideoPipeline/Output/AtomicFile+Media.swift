import MediaCore

extension AtomicFile {
    /// An atomic output for media, its failures as `MediaError`.
    static func forMedia(_ destination: String) throws(MediaError) -> AtomicFile {
        do { return try AtomicFile(destination: destination) } catch {
            throw .outputNotWritable(path: error.path, reason: error.reason)
        }
    }

    /// Puts the file in place, its failure as `MediaError`.
    public func commitMedia() throws(MediaError) {
        do { try commit() } catch { throw .outputNotWritable(path: error.path, reason: error.reason) }
    }
}

extension MediaError {
    /// An output that could not be put in place.
    public init(_ failure: AtomicFile.Failure) {
        self = .outputNotWritable(path: failure.path, reason: failure.reason)
    }
}
