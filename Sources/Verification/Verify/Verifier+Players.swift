import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

extension Verifier {
    /// The problems of the other scenes' players and of stamped full-screen video ads (a layer with
    /// `srcStartTick`): each frame's stamp read inside the layer's rectangle must be the frame its source shows at
    /// the tick the timeline gives, by the renderer's rule.
    ///
    /// The segments describe the primary player; another player's picture lies elsewhere on the screen, so it is
    /// looked for only inside its own window (its scene's, or its picture-in-picture window). Reads the output
    /// again only when the timeline has such a layer. One problem per layer run, so a wrong tick is one sentence.
    static func players(_ path: String, timeline: Timeline, rate: FrameRate, frameLimit: Int64,
                        sources: inout SourceCatalog, timelinePath: String) throws(Failure) -> [VerifyFinding] {
        struct Check {
            var segment: Int
            var layer: Int
            var scene: SceneID
            var kind: ScreenLayer.Kind
            var rect: PixelRect
            var sourceID: String
            var frameIndex: Int64
        }
        // What each output frame must show in each other player's window.
        var checks: [Int64: [Check]] = [:]
        for (i, segment) in timeline.segments.enumerated() where segment.outStartFrame < frameLimit {
            for (j, layer) in (segment.screen.layers ?? []).enumerated() {
                guard let (file, start, paused) = playing(layer) else { continue }
                guard layer.rect.width >= minimumReadableWidth else { continue }
                let source: SourceCatalog.Source
                let ticks: Int64
                if layer.kind == .fullscreen {
                    // A full-screen video ad holds its last frame until it is dismissed, so its tick may run on
                    // past its end; an unstamped or unreadable one is left to its predicted colours (`checkLayers`,
                    // which calls an unreadable one not verifiable).
                    do { source = try sources.describe(file, outputRate: rate) } catch { continue }
                    ticks = source.ticks(at: rate, sourceRate: source.rate)
                } else {
                    source = try sources.describe(file, outputRate: rate)
                    ticks = source.ticks(at: rate, sourceRate: source.rate)
                    guard start <= ticks else {
                        throw .timeline(path: timelinePath, reason: "segments[\(i)].layers[\(j)].srcStartTick: \(start) is past the end of \(source.path)")
                    }
                }
                for n in segment.outStartFrame..<min(segment.outEndFrame, frameLimit) {
                    let tick = min(paused ? start : start + (n - segment.outStartFrame), ticks)
                    checks[n, default: []].append(Check(
                        segment: i, layer: j, scene: layer.scene, kind: layer.kind, rect: layer.rect.pixelRect,
                        sourceID: source.id, frameIndex: Int64(source.timing.frame(atTick: tick, outputRate: rate))))
                }
            }
        }
        guard !checks.isEmpty else { return [] }
        let reader: FrameReader
        do { reader = try FrameReader(path: path) } catch { throw .media(error) }
        var problems: [VerifyFinding] = []
        var reported: Set<[Int]> = []
        var n: Int64 = 0
        do {
            while let picture = try reader.next(), n < frameLimit {
                defer { n += 1 }
                for check in checks[n] ?? [] where !reported.contains([check.segment, check.layer]) {
                    let got = picture.locateStamp(inside: check.rect)
                    if got?.sourceID == check.sourceID, got.map({ Int64($0.frameIndex) }) == check.frameIndex { continue }
                    reported.insert([check.segment, check.layer])
                    problems.append(.init(.playerStamp(frame: n, scene: check.scene.rawValue, kind: check.kind, shown: got.map { .init($0) },
                                                       expected: .init(source: check.sourceID, frame: check.frameIndex))))
                    if problems.count >= 50 { return problems }
                }
            }
        } catch {
            throw .media(error)
        }
        return problems
    }

    /// The file a layer's picture plays from, on its own clock: the tick at its segment's first frame and whether it
    /// holds it; another scene's player (a layer with `srcStartTick`) or a full-screen video ad, `nil` for any other.
    static func playing(_ layer: Timeline.Layer) -> (file: String, start: Int64, paused: Bool)? {
        switch layer {
        case .player(let player):
            guard let playing = player.playing, let file = player.source else { return nil }
            return (file, playing.srcStartTick, playing.paused)
        case .fullScreen(_, .video(let file, let tick)):
            return (file, tick, false)
        default:
            return nil
        }
    }
}
