import Foundation
import Networking

/// Loads ad tags and wrapper responses: through the URL map first, then from disk or over HTTP(S) with a
/// deadline, never more than the document size limit (checked while the body streams). Over HTTP the fetch
/// costs no CPU while it waits and stops at once when the calling task is cancelled (`HTTPClient`).
package struct DocumentFetcher: Sendable {
    package var urlMap: URLMap?
    package var maximumBytes: Int
    /// Sent with every HTTP(S) request (`AdsLoaderSettings.requestHeaders`).
    package var headers: [String: String]

    package init(urlMap: URLMap?, maximumBytes: Int, headers: [String: String] = [:]) {
        self.urlMap = urlMap
        self.maximumBytes = maximumBytes
        self.headers = headers
    }

    /// `location` after the URL map, and how to name it in messages (`URL (mapped to PATH)`).
    func mapped(_ location: ResourceLocation) -> (target: ResourceLocation, name: String) {
        // A refused mapping keeps the URL's own name; `fetch` then fails with the refusal, never fetching it.
        let target = (try? urlMap?.apply(to: location)) ?? location
        return (target, target == location ? location.description : "\(location) (mapped to \(target))")
    }

    /// The bytes of the document at `location`.
    ///
    /// - Throws: `.unreachable` (missing or unreadable file, HTTP status ≥ 400, network failure), `.timedOut`,
    ///   `.documentTooLarge`; each names the location. A URL that the map matches but refuses (it would leave
    ///   its folder) is `.unreachable` and is not fetched over the network either.
    package func fetch(_ location: ResourceLocation, timeout: Duration) async throws(DecisioningError) -> Data {
        do throws(URLMap.Refusal) {
            _ = try urlMap?.apply(to: location)
        } catch {
            throw .unreachable(source: location.description, reason: error.description)
        }
        let (target, name) = mapped(location)
        switch target {
        case .file(let path):
            return try DocumentFetcher.readFile(path, name: name, maximumBytes: maximumBytes)
        case .remote(let url):
            let request = HTTPRequest(url: url, headers: headers, timeout: timeout, maximumBytes: Int64(maximumBytes))
            switch await HTTPClient.shared.data(request) {
            case .success(let answer): return answer.body
            case .failure(.timedOut), .failure(.connectTimedOut): throw .timedOut(source: name, timeout: timeout)
            case .failure(.tooLarge): throw .documentTooLarge(source: name, bytes: nil, limit: maximumBytes)
            case .failure(.cancelled): throw .cancelled(source: name)
            case .failure(let failure): throw .unreachable(source: name, reason: failure.description)
            }
        }
    }

    static func readFile(_ path: String, name: String, maximumBytes: Int) throws(DecisioningError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreachable(source: name, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .unreachable(source: name, reason: "is a directory") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumBytes else { throw .documentTooLarge(source: name, bytes: size, limit: maximumBytes) }
        // Read in chunks up to one byte past the limit, whatever the file says its size is: a device (`/dev/zero`)
        // or a pipe (`<(curl …)`) has no size, and must stop at the limit too.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreachable(source: name, reason: "cannot read the file")
        }
        defer { try? handle.close() }
        var data = Data()
        do {
            while data.count <= maximumBytes, let chunk = try handle.read(upToCount: min(1 << 20, maximumBytes + 1 - data.count)),
                  !chunk.isEmpty {
                data.append(chunk)
            }
        } catch {
            throw .unreachable(source: name, reason: "cannot read the file")
        }
        guard data.count <= maximumBytes else { throw .documentTooLarge(source: name, bytes: nil, limit: maximumBytes) }
        return data
    }
}
