import Foundation
import MediaCore
import VideoPipeline

/// A report as one picture (`pipctl report --png`): the time strip's lanes and event marks, then every thumbnail
/// with its frame, time and run, drawn with the `Compositor` (colours, rounded rectangles, FreeType text, pictures)
/// and encoded as PNG by VideoPipeline.
///
/// The sheet is `width` (1600) pixels wide; its height follows from the verdict, lanes and thumbnails:
/// `header (+ 20 a verdict line) + axis + (lanes + 1) × 30 + 2 × 15 (event labels) + rows × (thumbnail height + 40)
/// + margin`, rounded up to an even number, at most `maximumHeight`. Lane names and the verdict are never cut: the
/// names' column widens to the longest, the verdict takes the lines it needs.
public struct ContactSheet {
    public static let width = 1600
    public static let maximumHeight = 8000
    static let margin = 16
    static let gutter = 200
    static let headerHeight = 64
    static let axisHeight = 20
    static let laneHeight = 24
    static let laneGap = 6
    static let tileGap = 12
    static let captionHeight = 40

    let report: RenderReport
    let thumbnails: [Thumbnail]
    let lanes: [ReportLane]

    public init(report: RenderReport, thumbnails: [Thumbnail]) {
        self.report = report
        self.thumbnails = thumbnails
        lanes = report.lanes
    }

    var tileWidth: Int { ThumbnailPlan.width }
    var tileHeight: Int { thumbnails.map(\.size.height).max() ?? 0 }
    var columns: Int { max(1, (Self.width - 2 * Self.margin + Self.tileGap) / (tileWidth + Self.tileGap)) }
    var rows: Int { (thumbnails.count + columns - 1) / columns }
    var stripHeight: Int { Self.axisHeight + (lanes.count + 1) * (Self.laneHeight + Self.laneGap) + EventLabels.rowsOnSheet * Self.labelRowHeight }
    static let labelRowHeight = 15

    /// The lanes' names' column: wide enough for the longest name (about 7.5 px a character at 13 px), from 200 up
    /// to 700 pixels; a longer name (95 characters or more) is written smaller, on two lines.
    var gutter: Int { min(700, max(Self.gutter, 24 + Int(7.5 * Double(lanes.map { $0.title.count }.max() ?? 0)))) }

    /// The verdict's own lines under the facts (never cut: as many as it needs at about 180 characters a line).
    var verdictLines: Int { report.verdict.map { min(8, 1 + VisibleText.shown($0.summary).count / 180) } ?? 0 }
    var headerHeight: Int { Self.headerHeight + verdictLines * 20 }

    /// The sheet's size in pixels.
    public var size: PixelSize {
        let height = headerHeight + stripHeight + Self.margin + rows * (tileHeight + Self.captionHeight) + Self.margin
        return PixelSize(width: Self.width, height: min(Self.maximumHeight, (height + 1) / 2 * 2))
    }

    /// The PNG file's bytes.
    /// - Throws: `ReportError.media` when the font cannot be loaded or FFmpeg fails to draw or encode.
    public func png(isCancelled: () -> Bool = { false }) throws(ReportError) -> Data {
        do {
            let canvas = try Compositor(size: size)
            let text = try SheetText()
            try canvas.draw([.color(Self.background, in: PixelRect(size: size))])
            try canvas.draw(try header(text))
            guard !isCancelled() else { throw MediaError.interrupted }
            try canvas.draw(try strip(text, top: headerHeight, isCancelled: isCancelled))
            guard !isCancelled() else { throw MediaError.interrupted }
            try canvas.draw(try tiles(text, top: headerHeight + stripHeight + Self.margin))
            return Data(try canvas.pngData())
        } catch let error as MediaError {
            throw .media(error)
        } catch let error as FontError {
            throw .media(.invalidSetting(name: "font", value: FontFace.defaultPath, reason: "\(error)"))
        } catch {
            throw .media(.invalidSetting(name: "sheet", value: "", reason: "\(error)"))
        }
    }

    // MARK: - Parts

    private func header(_ text: SheetText) throws -> [CompositorLayer] {
        let t = report.timeline
        let ads = t.segments.filter { $0.kind == .ad }.count
        let facts = "\(ReportFormat.time(report.duration)) · \(t.output.frames) frames at \(t.output.fps) fps · \(t.output.width)x\(t.output.height) · "
            + "\(t.segments.count) segments, \(ads) ad · \(report.events.count) events"
            + (report.layout.omittedScenes > 0 ? " · \(report.layout.scenes) scenes, \(report.layout.omittedScenes) not drawn" : "")
        var layers = [
            try text.layer("pipctl report: " + report.title, size: 20, color: Self.ink, x: Self.margin, y: 10, width: Self.width - 2 * Self.margin),
            try text.layer(facts, size: 14, color: Self.muted, x: Self.margin, y: 38, width: Self.width - 2 * Self.margin),
        ]
        if let verdict = report.verdict, verdictLines > 0 {
            let color = verdict.notChecked != nil ? Self.muted : verdict.passed ? YUVColor(red: 0x1F, green: 0x6B, blue: 0x2A) : YUVColor(red: 0x9B, green: 0x1C, blue: 0x1C)
            layers.append(try text.layer(verdict.summary, size: 14, color: color, x: Self.margin, y: Self.headerHeight - 4,
                                         width: Self.width - 2 * Self.margin, lineLimit: verdictLines))
        }
        return layers
    }

    private func x(_ frame: Int64) -> Int {
        let plot = Self.width - gutter - Self.margin
        let frames = max(1, report.timeline.output.frames)
        return gutter + Int(Double(plot) * Double(max(0, min(frame, frames))) / Double(frames))
    }

    private func strip(_ text: SheetText, top: Int, isCancelled: () -> Bool) throws -> [CompositorLayer] {
        var layers: [CompositorLayer] = []
        let plot = Self.width - gutter - Self.margin
        let step = ReportSVG.niceStep(report.duration / 10)
        var t = 0.0
        while t <= report.duration + 1e-9 {
            let px = x(Int64((t / report.secondsPerFrame).rounded()))
            layers.append(.color(Self.grid, in: PixelRect(x: px, y: top + Self.axisHeight - 4, width: 1, height: stripHeight - Self.axisHeight + 4)))
            let label = ReportFormat.axisTime(t, step: step)
            layers.append(try text.layer(label, size: 11, color: Self.muted, x: max(0, min(px - 14, Self.width - Self.margin - 8 * label.count)),
                                         y: top, width: 80))
            t += step
        }
        var y = top + Self.axisHeight
        for lane in lanes {
            guard !isCancelled() else { throw MediaError.interrupted }
            let long = Int(7.5 * Double(lane.title.count)) > gutter - Self.margin - 8
            layers.append(try text.layer(lane.title, size: long ? 10 : 13, color: Self.ink, x: Self.margin, y: long ? y : y + 4,
                                         width: gutter - Self.margin - 8, lineLimit: long ? 2 : 1))
            layers.append(.color(Self.laneBackground, in: PixelRect(x: gutter, y: y, width: plot, height: Self.laneHeight)))
            for span in lane.spans {
                let x0 = x(span.start), w = max(1, x(span.end) - x0)
                let rect = PixelRect(x: x0, y: y + 1, width: w, height: Self.laneHeight - 2)
                layers.append(.roundedRect(Self.color(span.style), radius: min(3, w / 2), in: rect))
                if w > 40 {
                    var label = try text.layer(span.label, size: 11, color: Self.white, x: x0 + 4, y: y + 5, width: w - 8)
                    label.clip = rect
                    layers.append(label)
                }
            }
            y += Self.laneHeight + Self.laneGap
        }
        layers.append(try text.layer("events", size: 13, color: Self.ink, x: Self.margin, y: y + 4, width: gutter - Self.margin - 8))
        layers.append(.color(Self.laneBackground, in: PixelRect(x: gutter, y: y, width: plot, height: Self.laneHeight)))
        for event in report.events {
            let px = x(ReportFormat.frame(of: event, secondsPerFrame: report.secondsPerFrame))
            let color = event.type == .adError ? Self.color("fullscreen") : Self.ink
            layers.append(.color(color, in: PixelRect(x: min(px, Self.width - Self.margin - 2), y: y + 2, width: 2, height: Self.laneHeight - 4)))
        }
        // The notable events' words under their marks, as on the page.
        let placed = EventLabels.place(report.events, rows: EventLabels.rowsOnSheet,
                                       x: { Double(x(ReportFormat.frame(of: $0, secondsPerFrame: report.secondsPerFrame))) },
                                       width: { Double($0.count) * 6.5 }, maxX: Double(Self.width - Self.margin), isCancelled: isCancelled)
        for label in placed {
            let px = Int(label.x)
            let color = report.events[label.index].type == .adError ? Self.color("fullscreen") : Self.ink
            let top = y + Self.laneHeight + 2 + label.row * Self.labelRowHeight
            layers.append(try text.layer(label.text, size: 11, color: color, x: px, y: top, width: max(40, Self.width - Self.margin - px)))
        }
        return layers
    }

    private func tiles(_ text: SheetText, top: Int) throws -> [CompositorLayer] {
        var layers: [CompositorLayer] = []
        let segments = report.timeline.segments
        for (i, thumbnail) in thumbnails.enumerated() {
            let column = i % columns, row = i / columns
            let x0 = Self.margin + column * (tileWidth + Self.tileGap)
            let y0 = top + row * (tileHeight + Self.captionHeight)
            guard y0 + tileHeight + Self.captionHeight <= size.height else { break }
            layers.append(.picture(thumbnail.videoPicture, .letterbox, in: PixelRect(x: x0, y: y0, width: tileWidth, height: tileHeight)))
            let segment = segments.first { $0.outStartFrame <= thumbnail.frame && thumbnail.frame < $0.outEndFrame }
            let time = ReportFormat.time(Double(thumbnail.frame) * report.secondsPerFrame)
            layers.append(try text.layer("frame \(thumbnail.frame) · \(time)", size: 11, color: Self.ink, x: x0, y: y0 + tileHeight + 3, width: tileWidth))
            if let segment {
                let which = thumbnail.frame == segment.outStartFrame ? "first of " : "last of "
                layers.append(try text.layer(which + ReportLane.label(segment), size: 11, color: segment.kind == .ad ? Self.color("ad") : Self.muted,
                                             x: x0, y: y0 + tileHeight + 18, width: tileWidth))
            }
        }
        return layers
    }

    // MARK: - Colours (the page's)

    static let background = YUVColor(red: 0xF7, green: 0xF8, blue: 0xFA)
    static let laneBackground = YUVColor(red: 0xE6, green: 0xEA, blue: 0xEE)
    static let grid = YUVColor(red: 0xD8, green: 0xDD, blue: 0xE3)
    static let ink = YUVColor(red: 0x1D, green: 0x23, blue: 0x2B)
    static let muted = YUVColor(red: 0x55, green: 0x5E, blue: 0x6B)
    static let white = YUVColor(red: 0xFF, green: 0xFF, blue: 0xFF)

    static func color(_ style: String) -> YUVColor {
        let hex: String = switch style {
        case "content": "#3f7fd0"
        case "ad": "#e07b39"
        case "pip": "#8a63d2"
        case "scene": "#4e9f57"
        case "banner": "#c9a227"
        case "fullscreen": "#d04f4f"
        case "overlay": "#b0558f"
        case "slider": "#2b9a9a"
        case "card": "#6e9e2e"
        case "native": "#5c7f9e"
        case "divider": "#666666"
        default: "#888888"
        }
        return YUVColor(hex: hex) ?? .black
    }
}
