import MediaCore

/// Which `<MediaFile>` renditions may be played and which fits best (IMA's `IMAAdsRenderingSettings`:
/// `mimeTypes`, `bitrate`, and the ad container's size).
public struct MediaSelectionSettings: Hashable, Sendable {
    /// Containers that FFmpeg 5.1 decodes from a progressive file: MP4 and its relatives, QuickTime, Matroska,
    /// WebM, FLV, 3GPP, MPEG program streams and Ogg. Streaming types (`application/x-mpegURL`,
    /// `application/dash+xml`) and VPAID/Flash types are refused whatever this list says.
    public static let defaultMIMETypes = [
        "video/mp4", "video/x-m4v", "video/quicktime", "video/x-matroska", "video/webm", "video/x-flv", "video/3gpp",
        "video/mpeg", "video/ogg",
    ]

    /// MIME types that may be played, compared without case and parameters (`video/mp4; codecs=…`).
    public var allowedMIMETypes: [String]
    /// The highest bitrate to accept, in kbit/s; `nil` for no limit.
    public var maximumBitrate: Int?
    /// The size of the window the ad plays in; renditions are chosen to fit it (default 640x360).
    public var window: PixelSize

    public init(allowedMIMETypes: [String] = MediaSelectionSettings.defaultMIMETypes, maximumBitrate: Int? = nil,
                window: PixelSize = PixelSize(width: 640, height: 360)) {
        self.allowedMIMETypes = allowedMIMETypes
        self.maximumBitrate = maximumBitrate
        self.window = window
    }
}
