/// Everything that can go wrong while reading, converting or writing media, with what a user needs to act on.
///
/// `description` is one line that names the file (or value) and what is wrong; FFmpeg failures also name the C
/// function that failed and FFmpeg's own message.
public enum MediaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input file does not exist.
    case fileNotFound(path: String)
    /// The input path is a directory.
    case isDirectory(path: String)
    /// The input file has no bytes.
    case emptyFile(path: String)
    /// FFmpeg does not recognise the file as media (random bytes, a text file, …).
    case unreadable(path: String, function: String, message: String)
    /// The file ends before the data its own index promises (a download or copy cut short).
    case truncated(path: String, detail: String)
    /// The file has no stream of the kind the job needs.
    case missingStream(path: String, kind: StreamKind)
    /// The video stream decodes to no frame at all.
    case noFrames(path: String)
    /// The output cannot be created where asked.
    case outputNotWritable(path: String, reason: String)
    /// A setting that cannot work (odd size, unknown preset, …).
    case invalidSetting(name: String, value: String, reason: String)
    /// The job was interrupted (SIGINT/SIGTERM) before it finished; nothing was written.
    case interrupted
    /// A file whose packets cannot be copied into the output (passthrough): why not.
    case cannotCopy(path: String, reason: CopyRefusal)
    /// A video stream whose coded size (from its codec parameters, read before any decoder opens) is over the
    /// picture limit its caller set (`PictureLimit`); `detail` gives the stream, its size and the limit.
    case pictureTooLarge(path: String, detail: String)
    /// A libebur128 call failed (loudness measurement): the C function and what it said.
    case loudness(function: String, detail: String)
    /// An FFmpeg call failed. `function` is the C function, `code` its return value, `message` FFmpeg's text.
    case ffmpeg(function: String, code: Int32, message: String, path: String?)

    public var description: String {
        switch self {
        case .fileNotFound(let path): "\(path): no such file"
        case .isDirectory(let path): "\(path): is a directory, not a media file"
        case .emptyFile(let path): "\(path): the file is empty"
        case .unreadable(let path, let function, let message):
            "\(path): not a media file FFmpeg can read (\(function): \(message))"
        case .truncated(let path, let detail): "\(path): the file is truncated (\(detail))"
        case .missingStream(let path, let kind): "\(path): has no \(kind.rawValue) stream"
        case .noFrames(let path): "\(path): the video stream has no frames"
        case .outputNotWritable(let path, let reason): "\(path): cannot write the output: \(reason)"
        case .invalidSetting(let name, let value, let reason): "\(name) \(value): \(reason)"
        case .interrupted: "interrupted; nothing was written"
        case .cannotCopy(let path, let reason): "\(path): cannot be copied: \(reason)"
        case .pictureTooLarge(let path, let detail): "\(path): \(detail)"
        case .loudness(let function, let detail): "\(function) failed: \(detail)"
        case .ffmpeg(let function, _, let message, let path):
            (path.map { "\($0): " } ?? "") + "\(function) failed: \(message)"
        }
    }
}

/// The kinds of elementary stream pipctl reads.
public enum StreamKind: String, Hashable, Sendable {
    case video, audio, subtitle, data, other
}
