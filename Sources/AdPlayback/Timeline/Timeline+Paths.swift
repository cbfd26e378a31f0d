import Foundation

extension Timeline {
    /// The timeline with every file it names as a local path made absolute against `directory` (the directory the
    /// render ran in): the content, each segment's source, each player's and full-screen ad's source, and each
    /// loudness record's. A timeline is then verifiable from anywhere, as its ad paths always were; an absolute path
    /// or a URL is left as it is.
    public func withAbsolutePaths(in directory: String) -> Timeline {
        func absolute(_ path: String) -> String { Timeline.absolutePath(path, in: directory) }
        var timeline = self
        timeline.content.path = absolute(content.path)
        for i in timeline.segments.indices {
            timeline.segments[i].source = absolute(segments[i].source)
            timeline.segments[i].screen.layers = segments[i].screen.layers?.map { layer in
                switch layer {
                case .player(var player):
                    player.source = player.source.map(absolute)
                    return .player(player)
                case .fullScreen(let area, .image(let source)): return .fullScreen(area, .image(source: absolute(source)))
                case .fullScreen(let area, .video(let source, let tick)):
                    return .fullScreen(area, .video(source: absolute(source), srcStartTick: tick))
                default: return layer
                }
            }
        }
        if let loudness {
            timeline.loudness?.sources = loudness.sources.map { record in
                var record = record
                record.source = absolute(record.source)
                return record
            }
        }
        return timeline
    }

    /// `path` made absolute against `directory` (`./` and `../` removed), unless it is absolute or a URL already.
    public static func absolutePath(_ path: String, in directory: String) -> String {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("://") else { return path }
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory, isDirectory: true)).standardizedFileURL.path
    }
}
