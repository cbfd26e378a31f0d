import AdPlayback
import Foundation
import MediaCore

/// Every sentence `pipctl verify` writes of a problem, from the finding's typed facts: the one place a finding is put
/// in words. The detection sites record facts only (`VerifyFinding.Detail`); reports, `--json`'s `text` and
/// `problems`, and the page's lists all read these sentences.
extension VerifyFinding.Detail: CustomStringConvertible {
    public var description: String { text }

    /// The sentence, as the text report writes it.
    public var text: String {
        switch self {
        // The output as a whole.
        case .frameCount(let found, let expected, let against):
            return "the output has \(found) frames, \(against.says) \(expected)"
        case .format(let found, let expected):
            return "the output is \(found.width)x\(found.height) at \(found.fps) fps, expected \(expected.width)x\(expected.height) at \(expected.fps) fps"

        // Frames, from their stamps.
        case .segmentStarted(let frame, let segment, let resumes, let expectedFrame, let against):
            return "\(segment.name) \(resumes ? "resumed" : "started") at output frame \(frame), \(against.says) \(expectedFrame)"
        case .segmentStartedAtFrame(let frame, let segment, let resumes, let shown, let expected, let against):
            return "\(segment.name) \(resumes ? "resumed" : "started") at \(shown.words) at output frame \(frame), \(against.says) frame \(expected) (\(Self.offset(shown.frame - expected)))"
        case .frameShifted(let frame, let shown, let expected, let against):
            let delta = shown.frame - expected
            return "output frame \(frame) shows \(shown.words), \(against.says) frame \(expected) (\(Self.offset(delta)): frames \(delta > 0 ? "lost" : "repeated"))"
        case .sourceShown(let first, let last, let shown, let expected, let segment, let against):
            return "output frames \(first)–\(last) show \(shown ?? "no stamp"), \(against.says) \(expected) (\(segment.fullName))"

        // Frames, from their fingerprints.
        case .startsLate(let at, let segment, let resumes, let frames, let expectedFrame, let against):
            return "\(Self.starts(segment, resumes)) \(Self.plural(frames, "frame")) late, \(at.words); \(against.sourcesSays) output frame \(expectedFrame)"
        case .startsEarly(let at, let segment, let resumes, let frames, let expectedFrame, let against):
            return "\(Self.starts(segment, resumes)) \(Self.plural(frames, "frame")) early, \(at.words); \(against.sourcesSays) output frame \(expectedFrame)"
        case .startsAtFrame(let at, let segment, let resumes, let shown, let expected, let offset, let against):
            return "\(Self.starts(segment, resumes)) at its frame \(shown) \(at.words), \(against.sourcesSays) frame \(expected) (\(Self.plural(abs(offset), "frame")) \(offset > 0 ? "lost" : "repeated"))"
        case .sourceNotShown(let at, let last, let segment, let source, let expectedFirst, let expectedLast, let against):
            return "output frames \(at.frame)–\(last) (\(at.clock)) do not show \(segment.fullName): \(against.sourcesSays) \(source) frames \(expectedFirst)–\(expectedLast)"
        case .frameNotOnTick(let at, let segment, let shown, let expected, let against):
            return "\(at.words), \(segment.fullName) shows its frame \(shown), \(against.sourcesSays) \(expected)"
        case .jumpsAhead(let at, let segment, let frames, let shown, let expected, let against):
            return "\(at.words), \(segment.fullName) jumps \(Self.plural(frames, "frame")) ahead: shows its frame \(shown), \(against.sourcesSays) \(expected)"
        case .framesLost(let at, let segment, let lost, let shown, let previous):
            let list = lost.map(String.init).joined(separator: ", ")
            return "\(at.words), \(segment.fullName) frame\(lost.count == 1 ? " \(list) is" : "s \(list) are") lost (frame \(shown) follows frame \(previous))"
        case .shownTwice(let at, let segment, let shown):
            return "\(at.words), \(segment.fullName) frame \(shown) is shown twice"
        case .fallsBehind(let at, let segment, let frames, let shown, let expected, let against):
            return "\(at.words), \(segment.fullName) falls \(Self.plural(frames, "frame")) behind: shows its frame \(shown), \(against.sourcesSays) \(expected)"

        // The timeline itself.
        case .contentDiscontinuity(let frame, let tick, let expectedTick):
            let delta = tick - expectedTick
            let ticks = delta > 0 ? expectedTick..<tick : tick..<expectedTick
            let which = ticks.count == 1 ? "tick \(ticks.lowerBound) was" : "ticks \(ticks.lowerBound)–\(ticks.upperBound - 1) were"
            return "content resumed at tick \(tick) at output frame \(frame): \(which) \(delta > 0 ? "lost" : "shown twice")"

        // Screen layers and other players.
        case .layoutRule(let frame, let layer, let rect, let rule, let bound):
            return "frame \(frame): \(layer) at \(Self.place(rect)) is not \(rule) at \(Self.place(bound))"
        case .layerMismatch(let frame, let layer, let rect, let differences, let alsoAt):
            return "frame \(frame): \(layer) expected at \(Self.place(rect)), not found there (\(differences.map(\.text).joined(separator: "; ")))"
                + (alsoAt.isEmpty ? "" : "; the same at frame\(alsoAt.count == 1 ? "" : "s") \(alsoAt.map(String.init).joined(separator: ", "))")
        case .playerStamp(let frame, let scene, let kind, let shown, let expected):
            return "output frame \(frame): scene \(scene)'s \(kind == .fullscreen ? "full-screen ad" : "player") (\(kind.rawValue) layer) shows "
                + "\(shown?.words ?? "no stamp"), the timeline says \(expected.words)"
        case .playerFrame(let frame, let scene, let kind, let shown, let expected, let source):
            return "output frame \(frame): \(Self.player(scene, kind)) shows its frame \(shown), the timeline says \(expected) of \(source)"
        case .playerNotShown(let frame, let scene, let kind, let source, let expected, let picture):
            return "output frame \(frame): \(Self.player(scene, kind)) does not show \(source) near its frame \(expected) at \(Self.place(picture))"

        // Sound.
        case .audioMissing:
            return "the output has no audio"
        case .audioChange(let frame, let segment, let offsetFrames):
            return "the audio of \(segment.name) changes \(String(format: "%.1f", abs(offsetFrames))) frames \(offsetFrames < 0 ? "before" : "after") its video at output frame \(frame)"
        case .audioChangeNotFound(let frame, let segment):
            return "no change of sound found near output frame \(frame), where \(segment.name) begins"
        case .audioSource(let first, let last, let segment, let heard, let expected):
            return "output frames \(first)–\(last) (\(segment.fullName)) sound like \(heard?.label ?? "noise"), expected \(expected.label)"
        case .soundOffset(let at, let place, let segment, let milliseconds, let tolerance):
            return "the sound of \(segment.fullName) is \(Int(abs(milliseconds).rounded())) ms \(milliseconds > 0 ? "late" : "early") "
                + "\(VerifyFinding.splice(at, place)) (tolerance \(String(format: "%.1f", tolerance)) ms, one frame)"

        // Loudness.
        case .loudnessLevel(let ad, let start, let end, let measure, let measured, let target, let reached):
            let name = LoudnessCheck.Segment.name(of: ad, outStartFrame: start, outEndFrame: end)
            let off = LoudnessCheck.text(abs(measured - (reached ?? target)), over: LoudnessCheck.tolerance)
            let limited = reached.map { ", limited to \(LoudnessCheck.text($0)) LUFS" } ?? ""
            return "loudness: \(name): \(measure) \(LoudnessCheck.text(measured)) LUFS, target \(LoudnessCheck.text(target)) LUFS\(limited): \(off) LU off (±1 LU allowed)"
        case .truePeak(let ad, let start, let end, let truePeak, let ceiling):
            let name = LoudnessCheck.Segment.name(of: ad, outStartFrame: start, outEndFrame: end)
            return "loudness: \(name): true peak \(LoudnessCheck.text(truePeak, over: ceiling)) dBTP is over \(LoudnessCheck.text(ceiling)) dBTP"

        // HLS playlists.
        case .hlsSegmentDuration(let segment, let uri, let seconds):
            return "segment \(segment) (\(uri)) lasts \(seconds) s, not a whole number of frames"
        case .hlsLength(let frames, let expected):
            return "the playlist lasts \(frames) frames, the render \(expected)"
        case .hlsBreakStart(let b):
            return "\(b.name): no segment starts where it starts"
        case .hlsBreakEnd(let b):
            return "\(b.name): no segment starts where it ends"
        case .hlsCueOut(let b, let seconds, let segment):
            return "\(b.name): no EXT-X-CUE-OUT of \(seconds) s before segment \(segment)"
        case .hlsCueIn(let b, let segment):
            return "\(b.name): no EXT-X-CUE-IN before segment \(segment)"
        case .hlsDateRangeMissing(let b):
            return "\(b.name): no EXT-X-DATERANGE break-\(b.index)"
        case .hlsStartDate(let b, let seconds, let expected):
            return "\(b.name): START-DATE is \(seconds) s after the program date-time, not \(expected)"
        case .hlsDateRangeSegment(let b, let segment, let expected):
            return "\(b.name): its EXT-X-DATERANGE precedes segment \(segment), not \(expected)"
        case .hlsDateRangeDuration(let b, let seconds, let expected):
            return "\(b.name): DURATION is \(seconds.map { "\($0)" } ?? "missing"), not \(expected)"
        case .hlsSCTE35Out(let b, let found, let pts, let ticks):
            return "\(b.name): SCTE35-OUT is \(found.map { "\($0.command)" } ?? "missing"), not a splice_insert out of the network at PTS \(pts) for \(ticks) ticks"
        case .hlsSCTE35In(let b, let found, let pts, let segment):
            return "\(b.name): SCTE35-IN is \(found.map { "\($0.command)" } ?? "missing"), not a splice_insert back in the network at PTS \(pts) before segment \(segment)"
        case .hlsMarkerCount(let dateRanges, let cueOuts, let breaks):
            return "the playlist marks \(dateRanges) date range(s) and \(cueOuts) EXT-X-CUE-OUT(s) for \(breaks) break(s)"

        // The golden's picture in picture.
        case .goldenPipStart(let window, let rect, let frame, let expected):
            return "picture in picture window \(window) at \(Self.words(rect)) started at output frame \(frame), the golden says \(expected)"
        case .goldenPipEnd(let window, let rect, let frame, let expected):
            return "picture in picture window \(window) at \(Self.words(rect)) ended at output frame \(frame), the golden says \(expected)"
        case .goldenPipRect(let window, let frame, let rect, let expected):
            return "picture in picture window \(window) from output frame \(frame): PiP window at \(Self.words(rect)), the golden has it at \(Self.words(expected))"
        case .goldenPipExtra(let window, let rect, let first, let last, let goldenCount):
            return "picture in picture window \(window) at \(Self.words(rect)), output frames \(first)–\(last), is not in the golden (it has \(goldenCount))"
        case .goldenPipMissing(let window, let rect, let first, let last, let count):
            return "the golden has picture in picture window \(window) at \(Self.words(rect)), output frames \(first)–\(last); the output has \(count)"

        // The golden's screen layers.
        case .goldenLayersChange(let frame, let expected):
            return "the screen layers change at output frame \(frame), the golden says \(expected)"
        case .goldenLayerKind(let number, let frame, let layer, let expected):
            return "\(Self.screenLayer(number, frame)) is the \(layer.name), the golden has the \(expected.name)"
        case .goldenLayerRect(let number, let frame, let layer, let rect, let expected):
            return "\(Self.screenLayer(number, frame)), the \(layer.name), is at \(Self.words(rect)), the golden has it at \(Self.words(expected))"
        case .goldenLayerShadow(let number, let frame, let layer, let shadow, let expected):
            let cast = { (s: VerifyFinding.Shadow?) in s.map { "by \(Self.words($0.caster)), \($0.reach) px out" } ?? "by nothing said" }
            return "\(Self.screenLayer(number, frame)), the \(layer.name), is cast \(cast(shadow)), the golden's \(cast(expected))"
        case .goldenLayerSource(let number, let frame, let layer, let source, let expected):
            return "\(Self.screenLayer(number, frame)), the \(layer.name), shows \(source ?? "a colour"), the golden \(expected ?? "a colour")"
        case .goldenLayersExtra(let frame, let count, let goldenCount, let layers):
            return "from output frame \(frame) the screen has \(count) layers, the golden \(goldenCount): not in the golden: \(layers.map(\.name).joined(separator: ", "))"
        case .goldenLayersMissing(let frame, let count, let goldenCount, let layers):
            return "from output frame \(frame) the screen has \(count) layers, the golden \(goldenCount): missing: \(layers.map(\.name).joined(separator: ", "))"
        case .goldenLayerChanges(let changes, let expected, let frame):
            return "the screen layers change \(changes) times, the golden \(expected) (first difference at output frame \(frame))"

        // The golden's events.
        case .goldenEvent(let number, let event, let expected):
            return "event \(number): \(event.words), the golden has \(expected.words)"
        case .goldenEventExtra(let number, let event, let goldenCount):
            return "event \(number): \(event.words) is not in the golden (it has \(goldenCount) events)"
        case .goldenEventMissing(let number, let expected, let count):
            return "event \(number): the golden has \(expected.words); the output's log ends after \(count) events"
        case .goldenEventsUnavailable(let reason):
            return "events not compared with the golden: \(reason)"
        }
    }

    /// `3 frames`, `1 frame`.
    static func plural(_ count: Int64, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }

    /// `2 frames ahead`, `1 frame behind`: a stamp's source frame against the one expected.
    static func offset(_ delta: Int64) -> String { "\(abs(delta)) frame\(abs(delta) == 1 ? "" : "s") \(delta > 0 ? "ahead" : "behind")" }

    /// `break 1 starts`, `content resumes`: what `--sources` says begins with a segment.
    static func starts(_ segment: VerifyFinding.Segment, _ resumes: Bool) -> String {
        "\(segment.name) \(resumes ? "resumes" : "starts")"
    }

    /// `x=0, y=130, 320x50`.
    static func place(_ r: Timeline.Rect) -> String { "x=\(r.x), y=\(r.y), \(r.width)x\(r.height)" }

    /// `(0,130 320x50)`, as the golden comparisons name rectangles.
    static func words(_ r: Timeline.Rect) -> String { "(\(r.x),\(r.y) \(r.width)x\(r.height))" }

    /// `scene side's player (content layer)`.
    static func player(_ scene: String, _ kind: ScreenLayer.Kind) -> String { "scene \(scene)'s player (\(kind.rawValue) layer)" }

    /// `screen layer 2 from output frame 30`.
    static func screenLayer(_ number: Int, _ frame: Int64) -> String { "screen layer \(number) from output frame \(frame)" }
}

extension VerifyFinding {
    /// `after output frame 60 (0:02.000)`: where `--sources` compares a segment's sound, beside the splice at `at`.
    static func splice(_ at: FrameTime, _ place: SourceReport.AudioAlignment.Place) -> String {
        "\(place == .start ? "after" : "before") output frame \(at.frame) (\(at.clock))"
    }
}

extension VerifyFinding.Reference {
    /// What `verify` (stamps) says a frame or count should be: `the timeline says 180`, `expected 180` (the golden).
    var says: String {
        switch self {
        case .timeline: "the timeline says"
        case .golden: "expected"
        }
    }

    /// What `verify --sources` says: `expected output frame 60` (the timeline), `the golden timeline says …`.
    var sourcesSays: String {
        switch self {
        case .timeline: "expected"
        case .golden: "the golden timeline says"
        }
    }
}

extension VerifyFinding.Segment {
    /// What starts with the segment: `break 1` for a break's first ad, `ad 2 of break 1`, or `content`.
    public var name: String {
        switch (breakIndex, adIndex) {
        case let (b?, 0?): "break \(b)"
        case let (b?, a?): "ad \(a) of break \(b)"
        default: "content"
        }
    }

    /// The segment's own ad (`ad 0 of break 1`), or `content`.
    public var fullName: String {
        switch (breakIndex, adIndex) {
        case let (b?, a?): "ad \(a) of break \(b)"
        default: "content"
        }
    }
}

extension VerifyFinding.Stamp {
    /// `ad60 frame 12`.
    var words: String { "\(source) frame \(frame)" }
}

extension VerifyFinding.FrameTime {
    /// `0:10.000`: the frame's time, for people.
    public var clock: String {
        String(format: "%d:%02d.%03d", milliseconds / 60_000, milliseconds / 1000 % 60, milliseconds % 1000)
    }

    /// `at output frame 60 (0:02.000)`.
    var words: String { "at output frame \(frame) (\(clock))" }
}

extension VerifyFinding.LayerDifference {
    /// `its left edge differs inside`.
    var text: String {
        switch self {
        case .inside(let x, let y, let found, let expected):
            "the inside differs at x=\(x), y=\(y): \(found.words), expected \(expected.words)"
        case .edgeInside(let edge): "its \(edge) edge differs inside"
        case .pastEdge(let edge): "it goes on past its \(edge) edge"
        }
    }
}

extension VerifyFinding.Color {
    /// `Y/U/V 16/128/128`.
    var words: String { "Y/U/V \(y)/\(u)/\(v)" }
}

extension VerifyFinding.Sound {
    /// `a 440 Hz tone`, `silence`.
    var label: String {
        switch self {
        case .tone(let hz): "a \(Int(hz.rounded())) Hz tone"
        case .silence: "silence"
        }
    }
}

extension VerifyFinding.Break {
    /// `break 0 (frames 60..<120)`.
    var name: String { "break \(index) (frames \(startFrame)..<\(endFrame))" }
}

extension VerifyFinding.LayerName {
    /// `banner of scene "main"`, `divider of the screen`.
    var name: String {
        scene == SceneID.screen.rawValue ? "\(kind.rawValue) of the screen" : "\(kind.rawValue) of scene \"\(scene)\""
    }
}

extension VerifyFinding.Event {
    /// `COMPLETE of break 0 ad 1 at output frame 412`.
    var words: String {
        var text = type
        if let event { text += " \(event)" }
        if let command { text += " \"\(command)\"" }
        var of: [String] = []
        if let breakIndex { of.append("break \(breakIndex)") }
        if let adIndex { of.append("ad \(adIndex)") }
        if let placement { of.append("placement \"\(placement)\"") }
        if let card { of.append("card \(card)") }
        if let adID { of.append("ad id \"\(adID)\"") }
        if let scene { of.append("scene \"\(scene)\"") }
        if !of.isEmpty { text += " of " + of.joined(separator: " ") }
        return text + (frame.map { " at output frame \($0)" } ?? " before the first frame")
    }
}

extension LoudnessCheck.Segment {
    /// `break 0 ad 1 (frames 90–210)`, or the full-screen ad's request and scene: an ad's play as the report names it.
    static func name(of ad: Ad, outStartFrame: Int64, outEndFrame: Int64) -> String {
        switch ad {
        case .linear(let b, let a): "break \(b) ad \(a) (frames \(outStartFrame)–\(outEndFrame))"
        case .fullScreen(let f): "the full-screen ad of request \(f.request) over scene \"\(f.scene)\" (frames \(outStartFrame)–\(outEndFrame))"
        }
    }
}
