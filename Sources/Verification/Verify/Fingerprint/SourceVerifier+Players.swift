import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

extension SourceVerifier {
    /// What the other scenes' players were found to show, by fingerprints.
    struct PlayerFindings {
        var problems: [VerifyFinding] = []
        var notes: [String] = []
        /// Some layer run had no frame that could be identified (static or black pictures).
        var unverifiable = false
    }

    /// Checks every other scene's player (a layer with `srcStartTick`) without stamps: the output
    /// inside the layer's picture (its window, letterboxed to its source's display aspect as the compositor draws
    /// it) must match the source frame its tick shows, by the renderer's rule, among that frame's neighbours.
    ///
    /// The segments describe the primary player only, so `match` never looks at these windows; without this a
    /// wrong tick or source in another scene would pass `--sources`. One problem per layer run, in words; a run
    /// whose pictures are all flat is noted and makes the verdict "not verifiable". A full-screen video ad is left
    /// to its layer's colour check (`Verifier.checkLayers`), which a flat creative passes where a fingerprint cannot.
    static func players(_ output: String, timeline: Timeline, rate: FrameRate, frameLimit: Int64,
                        bases: [String]) throws(Verifier.Failure) -> PlayerFindings {
        struct Check {
            var run: Int
            var picture: PixelRect
            var path: String
            var tick: Int64
        }
        struct Run {
            var scene: SceneID
            var kind: ScreenLayer.Kind
            var path: String
            var identified = 0, ambiguous = 0
            var first: Int64
            var last: Int64
        }
        let format = OutputFormat(size: PixelSize(width: timeline.output.width, height: timeline.output.height),
                                  frameRate: rate, sampleRate: timeline.output.sampleRate, channels: timeline.output.channels)
        var aspects: [String: Rational] = [:]
        var checks: [Int64: [Check]] = [:]
        var runs: [Run] = []
        var furthest: [String: Int64] = [:]
        for segment in timeline.segments where segment.outStartFrame < frameLimit {
            for layer in segment.screen.layers ?? [] {
                guard case .player(let player) = layer, let playing = player.playing, let file = player.source,
                      layer.rect.width >= 16, layer.rect.height >= 16 else { continue }
                let path = resolve(file, bases: bases)
                if aspects[path] == nil {
                    do { aspects[path] = try MediaSource(path: path, format: format).displayAspect } catch { throw .media(error) }
                }
                let picture = layer.rect.pixelRect.fitting(aspect: aspects[path]!)
                let end = min(segment.outEndFrame, frameLimit)
                runs.append(Run(scene: layer.scene, kind: layer.kind, path: path, first: segment.outStartFrame, last: end - 1))
                for n in segment.outStartFrame..<end {
                    let tick = playing.paused ? playing.srcStartTick : playing.srcStartTick + (n - segment.outStartFrame)
                    checks[n, default: []].append(Check(run: runs.count - 1, picture: picture, path: path, tick: tick))
                    furthest[path] = max(furthest[path] ?? 0, tick)
                }
            }
        }
        guard !checks.isEmpty else { return PlayerFindings() }

        var sources: [String: (signatures: [FrameSignature], frames: SourceFrames)] = [:]
        do throws(MediaError) {
            for (path, tick) in furthest {
                // A held last frame's tick may lie far past the end: the scan stops at the source's end anyway.
                sources[path] = try FingerprintScanner(path: path, threads: 2)
                    .scanSource(outputRate: rate, through: rate.time(ofFrame: min(tick, Int64(Int32.max))), extra: boundaryReach + 3)
            }
        } catch {
            throw .media(error)
        }
        let rows: [[FrameSignature]]
        do {
            rows = try FingerprintScanner(path: output, threads: 2)
                .scan(limit: frameLimit, regions: { n in (checks[n] ?? []).map(\.picture) })
        } catch {
            throw .media(error)
        }

        var findings = PlayerFindings()
        var failed: Set<Int> = []
        for (n, row) in rows.enumerated() {
            for (check, signature) in zip(checks[Int64(n)] ?? [], row) where !failed.contains(check.run) {
                guard let source = sources[check.path] else { continue }
                let expected = Int64(source.frames.frame(atTick: check.tick, outputRate: rate))
                // Searched as far as a moved splice is, so that a tick that is off shows as the frame really
                // shown rather than as a picture like its neighbours.
                let search = Int64(boundaryReach)
                let match = compare(signature, with: source.signatures,
                                    candidates: Array((expected - search)...(expected + search)), expected: expected)
                let run = runs[check.run]
                switch match.kind {
                case .identified(let shown) where shown == match.expected:
                    runs[check.run].identified += 1
                case .ambiguous:
                    runs[check.run].ambiguous += 1
                case .identified(let shown):
                    failed.insert(check.run)
                    findings.problems.append(.init(.playerFrame(frame: Int64(n), scene: run.scene.rawValue, kind: run.kind, shown: shown,
                                                                expected: match.expected, source: run.path)))
                case .unmatched:
                    failed.insert(check.run)
                    findings.problems.append(.init(.playerNotShown(frame: Int64(n), scene: run.scene.rawValue, kind: run.kind, source: run.path,
                                                                   expected: match.expected, picture: Timeline.Rect(check.picture))))
                }
            }
        }
        for (k, run) in runs.enumerated() where !failed.contains(k) && run.identified == 0 {
            findings.notes.append("output frames \(run.first)–\(run.last) of \(VerifyFinding.Detail.player(run.scene.rawValue, run.kind)) are static or black: not verifiable")
            findings.unverifiable = true
        }
        return findings
    }
}
