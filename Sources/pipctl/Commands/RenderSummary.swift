import AdInsertion

/// The few lines `render` prints when it is done.
struct RenderSummary {
    let request: RenderRequest
    let result: RenderResult

    var text: String {
        let output = result.timeline.output
        let ads = result.plan.breaks.flatMap(\.ads)
        let played = ads.filter { $0.state == .played }.count
        let failed = ads.filter { $0.state == .failed }.count
        let skipped = ads.filter { $0.state == .skipped }.count
        return """
            \(request.outputPath): \(output.frames) frames (\(ProgressLine.clock(output.duration))) \(output.width)x\(output.height) at \(output.fps) fps, \(result.timeline.segments.count) segments
              ads: \(played) played, \(skipped) skipped, \(failed) failed; \(result.plan.errors.count) decisioning errors
              timeline: \(request.resolvedTimelinePath ?? "none")
              events:   \(request.resolvedEventsPath ?? "none")

            """
    }
}
