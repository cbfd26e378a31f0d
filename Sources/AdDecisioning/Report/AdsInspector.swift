import Foundation
import MediaCore

/// The one call behind `pipctl ads inspect (FILE|URL) [--content-duration SEC] [--window WxH] [--url-map FILE]
/// [--json]`: load the ad tag, plan it for the content, and report.
public enum AdsInspector {
    /// Loads `adTag` and reports its plan.
    ///
    /// - Parameters:
    ///   - adTag: a VAST or VMAP file path, `file://` or `http(s)://` URL.
    ///   - contentDuration: places `n%` breaks, expands `repeatAfter`, leaves out mid-rolls past the end.
    ///   - window: the ad window, for choosing the media rendition (default 640x360).
    ///   - urlMap: rewrites remote URLs to local files (load it with `URLMap.load(contentsOfFile:)`).
    ///   - firstRequestTimeout: deadline for the tag itself and VMAP `AdTagURI`s (8 s).
    ///   - wrapperTimeout: deadline for each wrapper (4 s).
    ///   - maximumBitrate: refuse renditions above this many kbit/s.
    /// - Returns: the report; render it with `json()` or `text`.
    /// - Throws: `DecisioningError` when the tag itself cannot be loaded or read: not XML (100, with the line),
    ///   too large or with entity declarations (100), another root (101), VAST 1 (102), unreachable or timed out
    ///   (301). A no-fill response is not an error: the report has no breaks and lists the 303.
    public static func inspect(_ adTag: String, contentDuration: MediaDuration? = nil,
                               window: PixelSize = PixelSize(width: 640, height: 360), urlMap: URLMap? = nil,
                               firstRequestTimeout: Duration = .seconds(8), wrapperTimeout: Duration = .seconds(4),
                               maximumBitrate: Int? = nil) async throws(DecisioningError) -> AdsInspectReport {
        var settings = AdsLoaderSettings()
        settings.urlMap = urlMap
        settings.firstRequestTimeout = firstRequestTimeout
        settings.wrapperTimeout = wrapperTimeout
        settings.mediaSelection.window = window
        settings.mediaSelection.maximumBitrate = maximumBitrate
        return try await inspect(AdsRequest(adTag: adTag, contentDuration: contentDuration), settings: settings)
    }

    /// Loads `request` with any settings and reports its plan.
    public static func inspect(_ request: AdsRequest, settings: AdsLoaderSettings) async throws(DecisioningError) -> AdsInspectReport {
        let result = try await AdsLoader(settings: settings).load(request)
        return AdsInspectReport(result, contentDuration: request.contentDuration, window: settings.mediaSelection.window)
    }
}
