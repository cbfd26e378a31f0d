import Foundation

/// Says where the chosen media file's bytes will come from, without fetching anything.
///
/// In order: the URL map; a `file://` URL or a plain path, which must exist (else 401); an `http(s)://` URL,
/// which stays remote and is fetched into the media cache when a render or `play` needs it (`MediaDownloads`).
/// `ads inspect` and `render` both decide through here, so they agree on what is playable.
public struct CreativeResolver: Sendable {
    /// Where the chosen media is.
    public enum Resolution: Hashable, Sendable {
        /// A local file, ready to decode.
        case local(String)
        /// An http(s) URL, downloaded into the media cache before its ad plays.
        case remote(URL)

        public var localPath: String? { if case .local(let p) = self { p } else { nil } }
        public var remoteURL: URL? { if case .remote(let u) = self { u } else { nil } }
    }

    public var urlMap: URLMap?

    public init(urlMap: URLMap? = nil) {
        self.urlMap = urlMap
    }

    /// Resolves a media URL (absolute, or a path relative to the current directory).
    ///
    /// - Returns: the resolution, or an `AdError` with code 401 (a missing local or mapped file, an unsupported
    ///   scheme, a URL the map refuses because it would leave its folder) whose message names the URL.
    public func resolve(_ url: String) -> Result<Resolution, AdError> {
        guard let location = ResourceLocation(userInput: url) else {
            return .failure(AdError(.fileNotFound, "media \(url): not an http(s) URL, file URL or path"))
        }
        let target: ResourceLocation
        do throws(URLMap.Refusal) {
            target = try urlMap?.apply(to: location) ?? location
        } catch {
            return .failure(AdError(.fileNotFound, "media \(url): \(error.description)"))
        }
        switch target {
        case .file(let path):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                let mapped = target == location ? "" : " (mapped to \(path))"
                return .failure(AdError(.fileNotFound, "media \(url)\(mapped): no such file"))
            }
            return .success(.local(path))
        case .remote(let remote):
            return .success(.remote(remote))
        }
    }
}
