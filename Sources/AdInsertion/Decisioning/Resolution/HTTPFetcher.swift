import Foundation
import Networking

/// One HTTP(S) GET of an ad document, with a hard deadline and a size bound checked while the body streams.
///
/// A thin layer over `HTTPClient`: the transfer costs no CPU while it waits, and stops at once when the calling
/// task is cancelled (Ctrl-C during decisioning).
enum HTTPFetcher {
    enum Failure: Error, Equatable {
        case timedOut
        /// An HTTP status of 400 or more.
        case status(Int)
        /// The body is larger than the limit.
        case tooLarge(Int)
        /// Connection refused, DNS failure, …
        case transport(String)
        /// The calling task was cancelled.
        case cancelled
    }

    static func get(_ url: URL, timeout: Duration, maximumBytes: Int? = nil) async -> Result<Data, Failure> {
        let request = HTTPRequest(url: url, timeout: timeout, maximumBytes: maximumBytes.map(Int64.init))
        switch await HTTPClient.shared.data(request) {
        case .success(let answer): return .success(answer.body)
        case .failure(let failure): return .failure(Failure(failure))
        }
    }
}

extension HTTPFetcher.Failure {
    init(_ failure: HTTPFailure) {
        switch failure {
        case .timedOut: self = .timedOut
        case .couldNotConnect(let reason) where reason.hasPrefix("could not connect within"): self = .timedOut
        case .status(let status): self = .status(status)
        case .tooLarge(let limit): self = .tooLarge(Int(limit))
        case .cancelled: self = .cancelled
        default: self = .transport(failure.description)
        }
    }
}
