import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One HTTP GET with a hard deadline, on its own ephemeral `URLSession`.
///
/// The deadline is enforced by a timer that cancels the task, not only by the session's timeout settings, so
/// that a server which accepts the connection and then stays silent fails on time on every platform.
enum HTTPFetcher {
    enum Failure: Error, Equatable {
        case timedOut
        /// An HTTP status of 400 or more.
        case status(Int)
        /// The body is larger than the limit.
        case tooLarge(Int)
        /// Connection refused, DNS failure, …
        case transport(String)
    }

    static func get(_ url: URL, timeout: Duration, maximumBytes: Int? = nil) async -> Result<Data, Failure> {
        let seconds = max(0.001, Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
        request.setValue("pipctl", forHTTPHeaderField: "User-Agent")

        return await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data, Failure>, Never>) in
            // Whichever of the task and the timer finishes first resumes the continuation; the other finds it done.
            let pending = Mutex<CheckedContinuation<Result<Data, Failure>, Never>?>(continuation)
            let finish: @Sendable (Result<Data, Failure>) -> Bool = { result in
                guard let c = pending.withLock({ p -> CheckedContinuation<Result<Data, Failure>, Never>? in
                    defer { p = nil }
                    return p
                }) else { return false }
                c.resume(returning: result)
                return true
            }
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    let urlError = error as? URLError
                    _ = finish(urlError?.code == .timedOut ? .failure(.timedOut) : .failure(.transport(describe(error))))
                    return
                }
                if let http = response as? HTTPURLResponse, http.statusCode >= 400 {
                    _ = finish(.failure(.status(http.statusCode)))
                    return
                }
                let body = data ?? Data()
                if let limit = maximumBytes, body.count > limit {
                    _ = finish(.failure(.tooLarge(body.count)))
                    return
                }
                _ = finish(.success(body))
            }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if finish(.failure(.timedOut)) { task.cancel() }
            }
        }
    }

    /// A short description of a transport error ("Could not connect to the server").
    static func describe(_ error: Error) -> String {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cannotConnectToHost: return "connection refused"
            case .cannotFindHost, .dnsLookupFailed: return "host not found"
            case .notConnectedToInternet: return "no network"
            case .networkConnectionLost: return "connection lost"
            case .badServerResponse: return "bad server response"
            default: return "network error \(urlError.code.rawValue)"
            }
        }
        return "\(error)"
    }
}
