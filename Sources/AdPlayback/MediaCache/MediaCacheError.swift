import AdDecisioning
import Foundation
import MediaCore

/// Why a remote media file could not be made local; each case names the URL and maps to the VAST error code the
/// spec gives for it (401 file not found, 402 timeout of the MediaFile URI).
public enum MediaCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server refused (HTTP status ≥ 400), could not be reached, or broke off every attempt: 401.
    case unreachable(url: String, reason: String)
    /// The deadline passed before the whole file arrived: 402.
    case timedOut(url: String, limit: Duration)
    /// The body grew past the size bound; the transfer was stopped there: 401 (the player cannot take the file).
    case tooLarge(url: String, limit: Int64)
    /// The download was stopped (Ctrl-C, or the render ended first); a partial file is kept to be resumed: 402.
    case cancelled(url: String)
    /// The cache directory cannot be written (permissions, disk full): 401.
    case storage(url: String, path: String, reason: String)

    /// The VAST error code of the ad that needed the file.
    public var code: VASTErrorCode {
        switch self {
        case .timedOut, .cancelled: .mediaTimeout
        case .unreachable, .tooLarge, .storage: .fileNotFound
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let url, let reason): "media \(url): \(reason)"
        case .timedOut(let url, let limit): "media \(url): download timed out after \(limit.secondsText)"
        case .tooLarge(let url, let limit): "media \(url): larger than the limit of \(limit) bytes"
        case .cancelled(let url): "media \(url): download stopped"
        case .storage(let url, let path, let reason): "media \(url): cannot write to the media cache \(path): \(reason)"
        }
    }

    /// The failure as the ad's error.
    public var adError: AdError { AdError(code, description) }
}
