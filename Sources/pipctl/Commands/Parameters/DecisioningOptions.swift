import AdDecisioning
import Foundation
import MediaCore
import Rendering

/// How ad responses are fetched, shared by `render`, `play` and `ads inspect`: wrapper limits, deadlines and
/// the one exception to the origin policy.
struct DecisioningOptions: Hashable, Sendable {
    var wrapperTimeout: MediaDuration
    var maxWrappers: Int
    var decisionTimeout: MediaDuration
    /// The folder in which documents fetched over http(s) may name local media files, as typed.
    var allowLocalMedia: String?

    static let wrapperTimeout = Parameter.option(
        "wrapper-timeout", .seconds(), default: MediaDuration(seconds: 4),
        help: "How long to wait for each document a wrapper points to (IMA allows 4 seconds).")
    static let maxWrappers = Parameter.option(
        "max-wrappers", .integer("N", in: 0...20), default: 5,
        help: "How many wrappers may be followed to reach an inline ad before the chain fails with VAST error "
            + "302 (IMA's maxRedirects).")
    static let decisionTimeout = Parameter.option(
        "decision-timeout", .seconds(), default: MediaDuration(seconds: 15),
        help: "One deadline for all of decisioning: the ad tag, every VMAP AdTagURI and every wrapper (fetched "
            + "at the same time, break by break) must have arrived by then. Breaks still loading fail with VAST "
            + "error 301; the others play.")

    static let allowLocalMediaOption = Parameter.optional(
        "allow-local-media", .text("DIR"), absent: "documents fetched over http(s) may name only http(s) media",
        help: "Let ad documents fetched over http(s) name local media files (file: URLs) inside DIR, after "
            + "symlinks and '..' are resolved; any other local file stays refused (docs/SECURITY.md).")

    static let parameters: [any ParameterDeclaration] = [wrapperTimeout, maxWrappers, decisionTimeout, allowLocalMediaOption]

    init(_ arguments: ParsedArguments) {
        wrapperTimeout = arguments[Self.wrapperTimeout]
        maxWrappers = arguments[Self.maxWrappers]
        decisionTimeout = arguments[Self.decisionTimeout]
        allowLocalMedia = arguments[Self.allowLocalMediaOption]
    }

    /// Writes these options into loader settings.
    ///
    /// - Throws: `UsageError` when `--allow-local-media` is not an existing directory.
    func apply(to settings: inout AdsLoaderSettings, command: String) throws(UsageError) {
        settings.wrapperTimeout = wrapperTimeout.duration
        settings.maximumWrapperDepth = maxWrappers
        settings.decisionTimeout = decisionTimeout.duration
        if let allowLocalMedia {
            var isDirectory: ObjCBool = false
            guard let real = OriginPolicy.realPath(allowLocalMedia),
                  FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(command: command, message: "--allow-local-media: \(allowLocalMedia) is not a directory")
            }
            settings.originPolicy.localMediaDirectory = real
        }
    }
}
