import Foundation
import MediaCore
import VideoPipeline

/// A report as one picture (`pipctl report --png`): the time strip's lanes and event marks, then every thumbnail
/// with its frame, time and run, drawn with the `Compositor` (colours, rounded rectangles, FreeType text, pictures)
/// and encoded as PNG by VideoPipeline.
///
/// The sheet is `width` (1600) pixels wide; its height follows from the lanes and thumbnails:
/// `header + axis + (lanes + 1) × 30 + rows × (thumbnail height + 40) + margin`, rounded up to an even number,
/// at most `maximumHeight`.
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
    var stripHeight: Int { Self.axisHeight + (lanes.count + 1) * (Self.laneHeight + Self.laneGap) }

    /// The sheet's size in pixels.
    public var size: PixelSize {
        let height = Self.headerHeight + stripHeight + Self.margin + rows * (tileHeight + Self.captionHeight) + Self.margin
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
            try canvas.draw(try strip(text, top: Self.headerHeight, isCancelled: isCancelled))
            guard !isCancelled() else { throw MediaError.interrupted }
            try canvas.draw(try tiles(text, top: Self.headerHeight + stripHeight + Self.margin))
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
            + (report.verdict.map { " · " + $0.summary } ?? "")
        return [
            try text.layer("pipctl report: " + report.title, size: 20, color: Self.ink, x: Self.margin, y: 10, width: Self.width - 2 * Self.margin),
            try text.layer(facts, size: 14, color: Self.muted, x: Self.margin, y: 38, width: Self.width - 2 * Self.margin),
        ]
    }

    private func x(_ frame: Int64) -> Int {
        let plot = Self.width - Self.gutter - Self.margin
        let frames = max(1, report.timeline.output.frames)
        return Self.gutter + Int(Double(plot) * Double(max(0, min(frame, frames))) / Double(frames))
    }

    private func strip(_ text: SheetText, top: Int, isCancelled: () -> Bool) throws -> [CompositorLayer] {
        var layers: [CompositorLayer] = []
        let plot = Self.width - Self.gutter - Self.margin
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
            layers.append(try text.layer(ReportSVG.clipped(lane.title, to: 26), size: 13, color: Self.ink, x: Self.margin, y: y + 4,
                                         width: Self.gutter - Self.margin - 8))
            layers.append(.color(Self.laneBackground, in: PixelRect(x: Self.gutter, y: y, width: plot, height: Self.laneHeight)))
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
        layers.append(try text.layer("events", size: 13, color: Self.ink, x: Self.margin, y: y + 4, width: Self.gutter - Self.margin - 8))
        layers.append(.color(Self.laneBackground, in: PixelRect(x: Self.gutter, y: y, width: plot, height: Self.laneHeight)))
        for event in report.events {
            let px = x(ReportFormat.frame(of: event, secondsPerFrame: report.secondsPerFrame))
            let color = event.type == .adError ? Self.color("fullscreen") : Self.ink
            layers.append(.color(color, in: PixelRect(x: min(px, Self.width - Self.margin - 2), y: y + 2, width: 2, height: Self.laneHeight - 4)))
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
