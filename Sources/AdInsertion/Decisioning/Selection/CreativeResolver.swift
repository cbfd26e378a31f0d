import Foundation

/// Turns the chosen media file's URL into a local file to decode.
///
/// In order: the URL map; a `file://` URL or a plain path, which must exist (else 401); an `http(s)://` URL,
/// downloaded into `cacheDirectory` when there is one (HTTP 404 or any other failure → 401, past the deadline →
/// 402) and otherwise left remote. Downloads are content-addressed: written to a temporary file in the cache
/// directory, named by the SHA-256 of their bytes and renamed into place, so a half-written file is never
/// mistaken for a cached one and equal media share one file. A small index file per URL lets a second
/// resolution skip the download.
public struct CreativeResolver: Sendable {
    /// Where the chosen media is.
    public enum Resolution: Hashable, Sendable {
        /// A local file, ready to decode.
        case local(String)
        /// A remote URL left as it is (no cache directory).
        case remote(URL)

        public var localPath: String? { if case .local(let p) = self { p } else { nil } }
    }

    public var urlMap: URLMap?
    public var cacheDirectory: String?
    public var timeout: Duration

    public init(urlMap: URLMap? = nil, cacheDirectory: String? = nil, timeout: Duration = .seconds(8)) {
        self.urlMap = urlMap
        self.cacheDirectory = cacheDirectory
        self.timeout = timeout
    }

    /// Resolves a media URL (absolute, or a path relative to the current directory).
    ///
    /// - Returns: the resolution, or an `AdError` with code 401 (not found, HTTP error, unsupported scheme) or
    ///   402 (download timed out) whose message names the URL.
    public func resolve(_ url: String) async -> Result<Resolution, AdError> {
        guard let location = ResourceLocation(userInput: url) else {
            return .failure(AdError(.fileNotFound, "media \(url): not an http(s) URL, file URL or path"))
        }
        let target = urlMap?.apply(to: location) ?? location
        switch target {
        case .file(let path):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                let mapped = target == location ? "" : " (mapped to \(path))"
                return .failure(AdError(.fileNotFound, "media \(url)\(mapped): no such file"))
            }
            return .success(.local(path))
        case .remote(let remote):
            guard let cacheDirectory else { return .success(.remote(remote)) }
            return await download(remote, into: cacheDirectory)
        }
    }

    private func download(_ url: URL, into directory: String) async -> Result<Resolution, AdError> {
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return .failure(AdError(.fileNotFound, "media \(url): cannot create cache directory \(directory): \(error.localizedDescription)"))
        }
        let index = (directory as NSString).appendingPathComponent("url-\(SHA256.hex(url.absoluteString))")
        if let name = fm.contents(atPath: index).flatMap({ String(data: $0, encoding: .utf8) }) {
            let cached = (directory as NSString).appendingPathComponent(name)
            if fm.fileExists(atPath: cached) { return .success(.local(cached)) }
        }
        let data: Data
        switch await HTTPFetcher.get(url, timeout: timeout) {
        case .success(let body): data = body
        case .failure(.timedOut):
            return .failure(AdError(.mediaTimeout, "media \(url): download timed out after \(DecisioningError.seconds(timeout))"))
        case .failure(.status(let status)):
            return .failure(AdError(.fileNotFound, "media \(url): HTTP status \(status)"))
        case .failure(.tooLarge(let limit)):
            return .failure(AdError(.fileNotFound, "media \(url): larger than \(limit) bytes"))
        case .failure(.cancelled):
            return .failure(AdError(.mediaTimeout, "media \(url): download stopped"))
        case .failure(.transport(let reason)):
            return .failure(AdError(.fileNotFound, "media \(url): \(reason)"))
        }
        let ext = url.pathExtension.isEmpty ? "media" : url.pathExtension.lowercased()
        let name = "\(SHA256.hex(data)).\(ext)"
        let final = (directory as NSString).appendingPathComponent(name)
        let temporary = (directory as NSString).appendingPathComponent(".download-\(UUID().uuidString).part")
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
            if fm.fileExists(atPath: final) {
                try fm.removeItem(atPath: temporary)
            } else if rename(temporary, final) != 0 {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            try Data(name.utf8).write(to: URL(fileURLWithPath: index), options: .atomic)
        } catch {
            try? fm.removeItem(atPath: temporary)
            return .failure(AdError(.fileNotFound, "media \(url): cannot write to cache \(directory): \(error.localizedDescription)"))
        }
        return .success(.local(final))
    }
}
