import AdDecisioning
import AdPlayback
import Foundation
import MediaCore

/// A loaded banner or full-screen creative: what to draw or play, and the URLs its impression and click fire.
public struct DisplayCreative: Hashable, Sendable {
    /// What the creative shows.
    public enum Content: Hashable, Sendable {
        /// An image, with its bytes (for the compositor) and its header.
        case image(location: ResourceLocation, header: ImageHeader, data: Data)
        /// A linear VAST ad's MediaFile (played by the render; not fetched here), with its declared duration.
        case video(location: ResourceLocation, duration: MediaDuration?)
    }

    public let content: Content
    /// The request as sent (macros expanded).
    public let requestURL: String
    /// The impression URLs (VAST `<Impression>`) as written; expanded when they fire.
    public let impressions: [String]
    /// The click-through (`NonLinearClickThrough`, `CompanionClickThrough` or the linear `ClickThrough`).
    public let clickThrough: String?
    /// The click-tracking URLs as written.
    public let clickTracking: [String]
    /// A video's VAST `<Tracking>` events (start, quartiles, complete, …), its wrappers' first, as written.
    public let tracking: [TrackingEvent]
    /// The local files of the VAST documents it was read from (the response and every wrapper on the way, after
    /// the URL map), sorted: inputs of the render, as `LinearAd.documents` are; empty for an image source.
    public var documents: [String] = []

    public init(content: Content, requestURL: String, impressions: [String] = [], clickThrough: String? = nil,
                clickTracking: [String] = [], tracking: [TrackingEvent] = []) {
        self.content = content
        self.requestURL = requestURL
        self.impressions = impressions
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.tracking = tracking
    }

    /// The same creative with a wrapper chain's impressions, click tracking and linear tracking before its own.
    func adding(impressions wrapperImpressions: [String], clickTracking wrapperClicks: [String],
                tracking wrapperTracking: [TrackingEvent] = []) -> DisplayCreative {
        var out = DisplayCreative(content: content, requestURL: requestURL, impressions: wrapperImpressions + impressions,
                                  clickThrough: clickThrough, clickTracking: wrapperClicks + clickTracking,
                                  tracking: wrapperTracking + tracking)
        out.documents = documents
        return out
    }

    /// The URLs of `event` among the video's tracking, in order.
    public func trackingURLs(_ event: TrackingEventName) -> [String] {
        tracking.filter { $0.event == event }.map(\.url)
    }

    /// Where its picture is really read from, for the timeline's `source`: the absolute path of a local file, or the
    /// URL of a remote one (a VAST's image, not the VAST), so that verify reads the same bytes again without guessing
    /// what a relative request was relative to.
    public var origin: String {
        switch content {
        case .image(let location, _, _), .video(let location, _): location.description
        }
    }

    /// `image 786x180 png`, `video http://…/ad.mp4`, for the load event's message.
    public var summary: String {
        switch content {
        case .image(let location, let header, _): "image \(header.size.width)x\(header.size.height) \(header.format.rawValue) \(location)"
        case .video(let location, _): "video \(location)"
        }
    }
}
