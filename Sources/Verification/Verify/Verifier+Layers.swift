import AdPlayback
import AdScreen
import Foundation
import MediaCore
import Rendering
import VideoPipeline

/// Checks every predictable screen layer of a device render from the pixels: `verify` and `verify --sources`.
///
/// The stamps and fingerprints prove the player's picture; the rest of the screen (banners, full-screen ads,
/// landing screens, scenes without a player, the display and the bezel) is drawn from images and colours, so
/// its expected picture can be made again: for each sampled frame the timeline's layers, turned back into the
/// planner's layers they record (`Timeline.Segment.planned`), are drawn by the renderer's own draw
/// (`Stitcher.compositorLayer`: an image decoded by FFmpeg and stretched over a banner's rectangle, letterboxed over
/// black for a full-screen ad, the placeholder colours) into a canvas, with the player's picture and video
/// backdrops left unknown. Then, for each layer, the part of its rectangle no later layer covers is compared with
/// the output by the mean colour of blocks (robust to x264), and so is a strip just inside each edge; a strip just
/// outside each edge must NOT look like the layer, unless the neighbour expected there looks the same (or the
/// edge is the canvas's). A layer drawn elsewhere, larger, smaller or with another picture fails with its frame,
/// kind, scene and rectangle.
extension Verifier {
    /// Levels a block's mean may differ by and still be the same colour: x264 keeps a flat block within a few
    /// levels, while the colours told apart here (black 16, slate 43, bezel 71, a creative) are tens apart.
    static let layerLumaTolerance = 10
    static let layerChromaTolerance = 8
    /// How far inside and outside an edge its strips start, and how thick they are: two pixels keep clear of the
    /// chroma blended at an odd edge and of x264's ringing along a hard one.
    static let edgeGap = 2
    static let edgeStrip = 4

    /// Checks the layers of every segment that has them, on its first, middle and last frames below `frameLimit`;
    /// adds each layer that is not where the timeline says to `problems`.
    static func checkLayers(_ timeline: Timeline, rate: FrameRate, outputPath: String, timelinePath: String, frameLimit: Int64,
                            problems: inout [VerifyFinding]) throws(Failure) -> LayerReport {
        problems += layoutFindings(in: timeline)
        var samples: [Int64: Int] = [:]
        for (i, segment) in timeline.segments.enumerated() where !(segment.screen.layers ?? []).isEmpty {
            let last = min(segment.outEndFrame, frameLimit) - 1
            guard last >= segment.outStartFrame else { continue }
            for n in [segment.outStartFrame, (segment.outStartFrame + last) / 2, last] { samples[n] = i }
        }
        var report = LayerReport(frames: samples.count)
        guard let lastSample = samples.keys.max() else { return report }
        var painter = try LayerPainter(timeline: timeline, rate: rate, timelinePath: timelinePath)
        let reader: FrameReader
        do { reader = try FrameReader(path: outputPath) } catch { throw .media(error) }
        var unverifiable: Set<String> = [], skipped: Set<String> = []
        // One problem per layer and segment, with the later frames it fails at: not three lines for one mistake.
        var failures: [(segment: Int, name: String, rect: PixelRect, frame: Int64, differences: [VerifyFinding.LayerDifference],
                        later: [Int64])] = []
        do throws(MediaError) {
            while let picture = try reader.next() {
                let n = reader.index - 1
                guard let i = samples[n] else { continue }
                let observed = try ColorProbe(picture)
                let expected = try painter.paint(timeline.segments[i], frame: n)
                for subject in expected.subjects.indices {
                    guard let result = compare(subject, expected: expected, observed: observed) else { continue }
                    report.checked += 1
                    guard !result.differences.isEmpty else { continue }
                    let s = expected.subjects[subject]
                    if let k = failures.firstIndex(where: { $0.segment == i && $0.name == s.name && $0.rect == s.rect }) {
                        failures[k].later.append(n)
                    } else {
                        failures.append((i, s.name, s.rect, n, result.differences, []))
                    }
                }
                unverifiable.formUnion(expected.unverifiable)
                skipped.formUnion(expected.skipped)
                if n >= lastSample { break }
            }
        } catch {
            throw .media(error)
        }
        problems += failures.prefix(50).map { f in
            .init(.layerMismatch(frame: f.frame, layer: f.name, rect: Timeline.Rect(f.rect), differences: f.differences, alsoAt: f.later))
        }
        report.notVerifiable = unverifiable.sorted()
        report.skipped = skipped.sorted()
        return report
    }

    /// The layout rules `timeline` breaks (`LayoutInvariants`), as findings.
    static func layoutFindings(in timeline: Timeline) -> [VerifyFinding] {
        LayoutInvariants.violations(in: timeline).map { VerifyFinding($0.detail) }
    }

    // MARK: - The expected screen

    /// A layer whose pixels are predictable, by the name a report gives it.
    struct LayerSubject {
        var name: String
        var rect: PixelRect
    }

    /// A rectangle of the expected screen, bottom first: drawn for `subject`, or unknown (the player's picture, a
    /// video backdrop, an unreadable creative) when `subject` is `nil`.
    struct LayerRegion {
        var rect: PixelRect
        var subject: Int?
    }

    /// One sampled frame as the timeline says it should look.
    struct ExpectedScreen {
        var probe: ColorProbe
        var subjects: [LayerSubject]
        var regions: [LayerRegion]
        var unverifiable: [String]
        /// Layers left unchecked on purpose (a card too little of which is visible), in words.
        var skipped: [String]
        var canvas: PixelRect

        /// The region that shows in the whole of `block`: the topmost one containing it, if no later one
        /// overlaps it.
        func owner(of block: PixelRect) -> LayerRegion? {
            guard let top = regions.lastIndex(where: { $0.rect.contains(block) }) else { return nil }
            return regions[(top + 1)...].contains { $0.rect.intersects(block) } ? nil : regions[top]
        }
    }

    /// What a painter has drawn of one expected screen so far: its subjects and regions, bottom first, and what it
    /// could not draw or chose not to check.
    struct ScreenDraft {
        var subjects: [LayerSubject] = []
        var regions: [LayerRegion] = []
        var unverifiable: [String] = []
        var skipped: [String] = []

        /// `rect` drawn for a layer named `name`, to be checked.
        mutating func add(_ name: String, _ rect: PixelRect) {
            subjects.append(LayerSubject(name: name, rect: rect))
            regions.append(LayerRegion(rect: rect, subject: subjects.count - 1))
        }

        /// `rect` shows what cannot be predicted: nothing under it is judged.
        mutating func unknown(_ rect: PixelRect) {
            regions.append(LayerRegion(rect: rect, subject: nil))
        }

        /// The layer `name` at `rect` shows `source`, which cannot be read: not verifiable, and nothing under it is
        /// judged.
        mutating func cannotRead(_ name: String, _ source: String, _ unreadable: LayerPainter.Unreadable, in rect: PixelRect) {
            unverifiable.append("\(name): its source \(source) cannot be read (\(unreadable.reason))")
            unknown(rect)
        }
    }

    /// Draws the expected screens: each timeline layer as the planner's layers it records
    /// (`Timeline.Segment.planned`), drawn through the renderer's own `Stitcher.compositorLayer` with the creatives
    /// the timeline names (this painter is that draw's `PlannedMedia`); what is judged of each, and what is left
    /// unknown, is decided here.
    struct LayerPainter: PlannedMedia {
        let compositor: Compositor
        let format: OutputFormat
        let bases: [String]
        /// Opened creatives by the source the timeline names, or why one cannot be read.
        var sources: [String: Result<MediaSource, Unreadable>] = [:]
        /// The first creative of the layers being drawn that could not be read.
        var unreadable: Unreadable?

        /// Why a creative cannot be drawn again, in words.
        struct Unreadable: Error {
            var reason: String
        }

        init(timeline: Timeline, rate: FrameRate, timelinePath: String) throws(Failure) {
            let size = PixelSize(width: timeline.output.width, height: timeline.output.height)
            format = OutputFormat(size: size, frameRate: rate, sampleRate: timeline.output.sampleRate,
                                  channels: timeline.output.channels)
            // Creatives are named by where the render read them (an absolute path, opened as it is, or a URL).
            // A relative name is from a timeline written before that, as the request named it: relative to the
            // session file, which is where its content is too; else beside the timeline, or to the working
            // directory (`--banner FILE`).
            let timelineDirectory = URL(fileURLWithPath: timelinePath).deletingLastPathComponent().path
            let content = SourceVerifier.resolve(timeline.content.path, bases: [timelineDirectory])
            bases = [URL(fileURLWithPath: content).deletingLastPathComponent().path, timelineDirectory,
                     FileManager.default.currentDirectoryPath]
            do { compositor = try Compositor(size: size) } catch { throw .media(error) }
        }

        /// The screen `segment`'s layers promise at output frame `n`, bottom first: the bezel, the display, then
        /// each layer as the renderer draws the planner's layers it records.
        mutating func paint(_ segment: Timeline.Segment, frame n: Int64) throws(MediaError) -> ExpectedScreen {
            let canvas = PixelRect(size: format.size)
            var draft = ScreenDraft()
            let layers = segment.screen.layers ?? []
            let display = segment.screen.display?.pixelRect
            _ = try draw(FramePlanner.background(canvas: format.size, display: display))
            draft.add("bezel", canvas)
            if let display { draft.add("display", display) }
            for layer in layers {
                let rect = layer.rect.pixelRect
                let name = LayoutInvariants.describe(layer)
                let planned = segment.planned(layer, atFrame: n)
                switch layer {
                case .player(let player) where player.kind == .content && layers.contains { $0.kind == .pip && $0.scene == layer.scene }:
                    // The picture-in-picture backdrop: the slate, or a video that is not predicted.
                    guard player.source == nil else {
                        draft.unknown(rect)
                        continue
                    }
                    _ = try draw(planned)
                    draft.add(name, rect)
                case .player(let player):
                    // A scene without a player is black; a player's window is black around its picture, which
                    // the stamps or fingerprints prove.
                    _ = try draw(planned)
                    draft.add(name, rect)
                    if player.source != nil { draft.unknown(picture(of: player, in: segment)) }
                case .banner(_, nil):
                    // No creative loaded: nothing is drawn, the content shows through.
                    continue
                case .banner(_, let source?), .fullScreen(_, .image(let source)), .fullScreen(_, .video(let source, _)):
                    if let unreadable = try draw(planned) {
                        draft.cannotRead(name, source, unreadable, in: rect)
                    } else {
                        draft.add(name, rect)
                    }
                case .fullScreen(_, .placeholder), .overlay, .divider, .edge:
                    _ = try draw(planned)
                    draft.add(name, rect)
                case .slider, .card, .native:
                    try paintNative(layer, planned: planned, among: layers, into: &draft)
                case .shadow(_, nil):
                    draft.skipped.append("\(name): the timeline does not say what casts it")
                    draft.unknown(rect)
                case .shadow:
                    // Drawn as the stitcher draws it, so that what lies under it is expected darkened, but not judged
                    // on its own: at most 30 % black fading to nothing, its pull on a block's mean is about the
                    // tolerance over most pictures, so a check of it would pass whatever was drawn.
                    _ = try draw(planned)
                    draft.skipped.append("\(name): a soft shadow is redrawn under the layers it darkens, not judged alone "
                                         + "(its darkening is about the tolerance of a block's mean)")
                }
            }
            return ExpectedScreen(probe: try ColorProbe(compositor.picture), subjects: draft.subjects, regions: draft.regions,
                                  unverifiable: draft.unverifiable, skipped: draft.skipped, canvas: canvas)
        }

        /// Draws `planned` on the expected screen as the renderer draws it; the first creative among them that cannot
        /// be read, if any (the rest are drawn without it).
        mutating func draw(_ planned: [PlannedLayer]) throws(MediaError) -> Unreadable? {
            unreadable = nil
            let layers = try Stitcher.compositorLayers(planned, media: &self)
            if !layers.isEmpty { try compositor.draw(layers) }
            return unreadable
        }

        /// A creative the timeline names, read again; a player's picture is not predicted (its stamps or
        /// fingerprints prove it).
        mutating func picture(_ reference: MediaReference, for layer: PlannedLayer) throws(MediaError) -> PlannedPicture {
            switch reference {
            case .player:
                return .unknown
            case .recorded(let source, let frame):
                switch try creative(source, at: frame) {
                case .success(let picture): return .picture(picture)
                case .failure(let failure):
                    if unreadable == nil { unreadable = failure }
                    return .missing
                }
            case .pictureInPictureBackground, .banner, .fullScreenImage, .fullScreenVideo, .nativeImage, .nativeVideo:
                // A timeline's layers name their files (`recorded`), never the renderer's requests.
                return .missing
            }
        }

        /// A timeline records no text: nothing asks for it.
        func text(_ text: PlannedText, width: Int) throws(MediaError) -> RenderedText {
            throw .invalidSetting(name: "native \(text.slot) text", value: text.text, reason: "a timeline records no text to draw")
        }

        /// Where a player layer's picture lies: the segment's own for the primary player; for another scene's (a
        /// layer with `srcStartTick`) its window letterboxed to its source's display aspect, as the compositor
        /// draws it, or the whole window when the source cannot be opened (then nothing of it is judged).
        mutating func picture(of player: Timeline.Layer.Player, in segment: Timeline.Segment) -> PixelRect {
            guard player.playing != nil, let source = player.source else { return segment.picture.pixelRect }
            let opened = sources[source] ?? open(source)
            sources[source] = opened
            guard case .success(let media) = opened else { return player.area.rect.pixelRect }
            return player.area.rect.pixelRect.fitting(aspect: media.displayAspect)
        }

        /// The picture of the creative `source` names at `frame`, or why it cannot be had: not a local file (a
        /// remote URL), missing, not something FFmpeg decodes (a VAST document), or a video whose tick the
        /// timeline does not give (then any frame of it could be on screen, and guessing would pass or fail at
        /// random).
        mutating func creative(_ source: String, at frame: RecordedFrame) throws(MediaError) -> Result<VideoPicture, Unreadable> {
            // A creative is opened as the render opens it, within `PictureLimit.creatives`: a timeline may name any file.
            let opened = sources[source] ?? open(source, pictureLimit: .creatives)
            sources[source] = opened
            let media: MediaSource
            switch opened {
            case .success(let m): media = m
            case .failure(let unreadable): return .failure(unreadable)
            }
            let count = max(1, media.frameCount)
            switch frame {
            case .looping(let n): return .success(try media.picture(atTick: n % count))
            // Every tick from its end on shows the last frame: clamped, a tick of any size is read safely.
            case .tick(let tick): return .success(try media.picture(atTick: min(tick, count)))
            case .untimed(let n) where Self.isImage(media.path): return .success(try media.picture(atTick: n % count))
            case .untimed:
                return .failure(Unreadable(reason: "it is a video and the layer gives no srcStartTick to say which of its frames shows"))
            }
        }

        /// Whether the file at `path` is a PNG, JPEG or GIF (what a screen ad's image creative is), by its header
        /// as the loader reads it: FFmpeg's frame count cannot tell a still from a short video.
        static func isImage(_ path: String) -> Bool { imageHeader(path) != nil }

        /// The header of the PNG, JPEG or GIF at `path`, read from its first MiB as the loader reads it; `nil` for
        /// anything else.
        static func imageHeader(_ path: String) -> ImageHeader? {
            guard let file = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? file.close() }
            return (try? file.read(upToCount: 1 << 20)).flatMap { ImageHeader($0) }
        }

        func open(_ source: String, pictureLimit: PictureLimit? = nil) -> Result<MediaSource, Unreadable> {
            let path: String?
            if let url = URL(string: source), let scheme = url.scheme, scheme.count > 1 {
                guard url.isFileURL else { return .failure(Unreadable(reason: "verify reads local files only")) }
                path = url.path
            } else if source.hasPrefix("/") {
                path = FileManager.default.fileExists(atPath: source) ? source : nil
            } else {
                path = bases.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(source).path }
                    .first { FileManager.default.fileExists(atPath: $0) }
            }
            guard let path else {
                return .failure(Unreadable(reason: "no such file beside the content, the timeline or in the working directory"))
            }
            // An image is checked from its header, as the loader checks a fetched one: its container states no size.
            if let pictureLimit, let header = Self.imageHeader(path), let refusal = pictureLimit.refusal(of: header.size) {
                return .failure(Unreadable(reason: "\(path): \(refusal)"))
            }
            do { return .success(try MediaSource(path: path, format: format, pictureLimit: pictureLimit)) } catch {
                return .failure(Unreadable(reason: "\(error)"))
            }
        }
    }

    // MARK: - Comparing

    /// One compared block: the output's mean colour against the expected one.
    struct BlockComparison {
        var block: PixelRect
        var expected: YUVColor
        var observed: YUVColor
        var matches: Bool { Verifier.sameColor(expected, observed) }
    }

    static func sameColor(_ a: YUVColor, _ b: YUVColor) -> Bool {
        abs(Int(a.y) - Int(b.y)) <= layerLumaTolerance && abs(Int(a.u) - Int(b.u)) <= layerChromaTolerance
            && abs(Int(a.v) - Int(b.v)) <= layerChromaTolerance
    }

    /// What one layer's check found: `nil` when nothing of it could be compared (covered, too small, its edges
    /// all on the canvas's); otherwise the ways it differs from its expected picture (none: it holds).
    struct LayerResult {
        var differences: [VerifyFinding.LayerDifference]
    }

    static func compare(_ subject: Int, expected: ExpectedScreen, observed: ColorProbe) -> LayerResult? {
        let rect = expected.subjects[subject].rect
        var compared = 0
        var differences: [VerifyFinding.LayerDifference] = []
        func owned(_ block: PixelRect) -> Bool { expected.owner(of: block)?.subject == subject }
        func comparison(_ block: PixelRect) -> BlockComparison? {
            guard let e = expected.probe.mean(in: block), let o = observed.mean(in: block) else { return nil }
            return BlockComparison(block: block, expected: e, observed: o)
        }

        // The inside, by blocks kept clear of the edges.
        var miss: BlockComparison?
        for block in blocks(in: rect) where owned(block) {
            guard let c = comparison(block) else { continue }
            compared += 1
            if miss == nil, !c.matches { miss = c }
        }
        if let miss {
            differences.append(.inside(x: miss.block.x, y: miss.block.y, found: .init(miss.observed), expected: .init(miss.expected)))
        }
        // Each edge: inside strips like the layer, outside strips unlike it.
        for edge in Edge.allCases {
            var inside = 0, insideMisses = 0, judged = 0, spills = 0
            for (inner, outer) in edge.strips(of: rect) {
                guard owned(inner), let i = comparison(inner) else { continue }
                inside += 1
                if !i.matches { insideMisses += 1 }
                guard expected.canvas.contains(outer), let o = observed.mean(in: outer),
                      expected.owner(of: outer)?.subject != subject else { continue }
                // A neighbour expected to look like the layer cannot show where the layer ends.
                if let neighbour = expected.owner(of: outer), neighbour.subject != nil,
                   let e = expected.probe.mean(in: outer), sameColor(e, i.expected) { continue }
                judged += 1
                // Where the strip's expected look is known and the output shows it, the layer did not spill there,
                // even when that look is close to the layer's: a strip over two neighbours at a small point scale
                // (cards 8 pt = 4 px apart at 0.5 take in the next card's white and the slider's grey).
                let predictable = !expected.regions.contains { $0.subject == nil && $0.rect.intersects(outer) }
                if predictable, let e = expected.probe.mean(in: outer), sameColor(o, e) { continue }
                if sameColor(o, i.expected) { spills += 1 }
            }
            compared += inside + judged
            if insideMisses > 0 { differences.append(.edgeInside(edge)) }
            if judged > 0, spills == judged { differences.append(.pastEdge(edge)) }
        }
        guard compared > 0 else { return nil }
        return LayerResult(differences: differences)
    }

    /// Up to 8x8 blocks tiling `rect`, each shrunk by the edge gap plus the strip so that the edges are left to
    /// the edge checks; none when `rect` is too small for a block of 2x2 pixels.
    static func blocks(in rect: PixelRect) -> [PixelRect] {
        let margin = edgeGap + edgeStrip
        let inner = PixelRect(x: rect.x + margin, y: rect.y + margin, width: rect.width - 2 * margin,
                              height: rect.height - 2 * margin)
        guard inner.width >= 2, inner.height >= 2 else { return [] }
        let columns = max(1, min(8, inner.width / 16)), rows = max(1, min(8, inner.height / 16))
        var result: [PixelRect] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let x0 = inner.x + inner.width * column / columns, x1 = inner.x + inner.width * (column + 1) / columns
                let y0 = inner.y + inner.height * row / rows, y1 = inner.y + inner.height * (row + 1) / rows
                result.append(PixelRect(x: x0 + 1, y: y0 + 1, width: x1 - x0 - 2, height: y1 - y0 - 2))
            }
        }
        return result.filter { $0.width >= 2 && $0.height >= 2 }
    }

    /// A side of a layer's rectangle.
    public enum Edge: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
        case left, right, top, bottom

        public var description: String { rawValue }

        /// Pairs of strips along this edge, up to 8, each just inside and just outside it, kept clear of the
        /// corners (where another edge's neighbour begins).
        func strips(of rect: PixelRect) -> [(inside: PixelRect, outside: PixelRect)] {
            let gap = Verifier.edgeGap, thick = Verifier.edgeStrip, corner = gap + thick
            let horizontal = self == .top || self == .bottom
            let length = (horizontal ? rect.width : rect.height) - 2 * corner
            guard length >= 4, (horizontal ? rect.height : rect.width) >= 2 * corner else { return [] }
            let pieces = max(1, min(8, length / 16))
            return (0..<pieces).map { k in
                let a = corner + length * k / pieces, b = corner + length * (k + 1) / pieces
                switch self {
                case .left:
                    return (PixelRect(x: rect.x + gap, y: rect.y + a, width: thick, height: b - a),
                            PixelRect(x: rect.x - gap - thick, y: rect.y + a, width: thick, height: b - a))
                case .right:
                    return (PixelRect(x: rect.maxX - gap - thick, y: rect.y + a, width: thick, height: b - a),
                            PixelRect(x: rect.maxX + gap, y: rect.y + a, width: thick, height: b - a))
                case .top:
                    return (PixelRect(x: rect.x + a, y: rect.y + gap, width: b - a, height: thick),
                            PixelRect(x: rect.x + a, y: rect.y - gap - thick, width: b - a, height: thick))
                case .bottom:
                    return (PixelRect(x: rect.x + a, y: rect.maxY - gap - thick, width: b - a, height: thick),
                            PixelRect(x: rect.x + a, y: rect.maxY + gap, width: b - a, height: thick))
                }
            }
        }
    }
}

extension PixelRect {
    /// Whether the two rectangles share a pixel.
    func intersects(_ other: PixelRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
}

extension Timeline.Segment {
    /// The full-screen ad drawn over this segment's picture (the primary player's scene), if one is presented:
    /// the player's picture is not on screen then (its tick is held under it), and a video ad's sound replaces its
    /// sound, so the ad's layer is checked instead of the player.
    var fullScreenCover: Timeline.Layer? {
        screen.layers?.last { $0.kind == .fullscreen && $0.rect.pixelRect.contains(picture.pixelRect) }
    }

    /// The layer drawn over the whole of this segment's picture, if any: the full-screen ad, a banner's landing
    /// screen (`overlay`) over the player's scene, or a native slider or single native ad laid over the player (a
    /// feed whose slider covers the video). The player's picture is not on screen then, so its stamps or
    /// fingerprints are not looked for; the layer is checked instead.
    var pictureCover: Timeline.Layer? {
        fullScreenCover ?? screen.layers?.last {
            [.overlay, .slider, .native].contains($0.kind) && $0.rect.pixelRect.contains(picture.pixelRect)
        }
    }
}
