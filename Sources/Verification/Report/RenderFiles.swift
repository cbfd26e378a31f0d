import Foundation
import Rendering

/// Where a render's files are, for an MP4 render (`OUT`, `OUT.timeline.json`, `OUT.events.jsonl`) or an HLS render
/// (`DIR`, `DIR/master.m3u8` or `DIR/media.m3u8`: the media playlist, `DIR/timeline.json`, `DIR/events.jsonl`), as
/// `pipctl verify` finds them.
public struct RenderFiles: Hashable, Sendable {
    /// The render as the user named it.
    public var output: String
    /// The MP4, or the HLS render's media playlist.
    public var media: String
    public var timeline: String
    public var events: String
    /// Set for an HLS render: its directory.
    public var hlsDirectory: String?

    public init(output: String, timeline: String? = nil) {
        self.output = output
        if let playlist = HLSVerifier.mediaPlaylist(for: output) {
            let directory = URL(fileURLWithPath: playlist).deletingLastPathComponent().path
            media = playlist
            hlsDirectory = directory
            self.timeline = timeline ?? directory + "/" + HLSRender.timelineName
            events = directory + "/" + HLSRender.eventsName
        } else {
            media = output
            hlsDirectory = nil
            self.timeline = timeline ?? output + ".timeline.json"
            events = output + ".events.jsonl"
        }
    }

    /// The report's default path: `OUT.report.html` beside an MP4, `DIR.report.html` beside an HLS directory.
    public var defaultReport: String {
        guard let hlsDirectory else { return output + ".report.html" }
        var base = hlsDirectory
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        return base + ".report.html"
    }
}
