import MediaCore
import Rendering

/// The few lines `render` prints when it is done.
struct RenderSummary {
    let request: RenderRequest
    let result: RenderResult
    var hls: HLSRenderOutput? = nil

    var text: String {
        let output = result.timeline.output
        let ads = result.plan.breaks.flatMap(\.ads)
        let played = ads.filter { $0.state == .played }.count
        let failed = ads.filter { $0.state == .failed }.count
        let skipped = ads.filter { $0.state == .skipped }.count
        // The timeline writes rates as num/den; people read them as testsrc and transcode print them (30, 30000/1001).
        let fps = Rational(parsing: output.fps)?.description ?? output.fps
        var notes = result.earlyEnds.map { input in
            let who = input.ad.map { "ad \($0.adIndex) of break \($0.breakIndex)" } ?? "content"
            return "  \(who) ended early: \(input.earlyEnd.path) \(input.earlyEnd.description)\n"
        }
        notes += result.breaksNotReached.map { index in
            "  break \(index) (\(result.plan.breaks[index].position)) not reached: the content ended before its cue\n"
        }
        if let runs = result.timeline.videoRuns {
            let copied = runs.filter { $0.mode == .copied }
            let frames = copied.reduce(Int64(0)) { $0 + $1.outEndFrame - $1.outStartFrame }
            notes.append("  passthrough: \(frames) of \(output.frames) frames copied in \(copied.count) run\(copied.count == 1 ? "" : "s"), the rest encoded\n")
            switch result.passthroughSound {
            case .copied(let packets, let encoded)?:
                notes.append("  passthrough: sound: \(packets) of \(packets + encoded) AAC packets copied, the rest encoded\n")
            case .encoded(let reason)?: notes.append("  passthrough: sound encoded: \(reason)\n")
            case nil: break
            }
            notes += result.passthroughNotes.map { "  passthrough: \($0)\n" }
            for (ad, fate) in result.passthroughAds.sorted(by: { $0.key < $1.key }) {
                guard let reason = fate.reason else { continue }
                notes.append("  passthrough: ad \(ad.adIndex) of break \(ad.breakIndex) encoded: \(reason)\n")
            }
        }
        if let refusal = result.passthroughRefusal {
            notes.append("  passthrough not used: --passthrough: \(request.content.path): \(refusal)\n")
        }
        if let hls {
            let type = hls.segments.initSegment == nil ? "mpegts" : "fmp4"
            notes.append("  hls: \(hls.segments.segments.count) \(type) segments, \(hls.breaks.count) break\(hls.breaks.count == 1 ? "" : "s") marked; master: \(hls.directory)/\(HLSRender.masterName)\n")
        }
        return """
            \(request.output.path): \(output.frames) frames (\(ProgressLine.clock(output.duration))) \(output.width)x\(output.height) at \(fps) fps, \(result.timeline.segments.count) segments
              ads: \(played) played, \(skipped) skipped, \(failed) failed; \(result.plan.errors.count) decisioning errors
            \(notes.joined())  timeline: \(request.resolvedTimelinePath ?? "none")
              events:   \(request.resolvedEventsPath ?? "none")

            """
    }
}
