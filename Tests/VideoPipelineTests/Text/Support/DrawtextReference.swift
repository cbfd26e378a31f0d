import Foundation
import MediaCore
@testable import VideoPipeline

/// One line of text rendered by FreeType through the ffmpeg tool's `drawtext` filter, read back as coverage: the
/// independent peer of `TextRasterizer`.
enum DrawtextReference {
    /// Draws `text` in white on black gray-scale (limited range, 16…235) and returns its coverage, 0…255.
    static func render(_ text: String, fontFile: String, pixelSize: Int, canvas: PixelSize) throws -> CoverageGrid {
        let dir = TemporaryDirectory("drawtext")
        // A text file and no expansion, so nothing in the text is taken for an option or a %{…} sequence.
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir.path("text.txt")))
        let filter = "drawtext=fontfile=\(fontFile):textfile=\(dir.path("text.txt")):expansion=none:fontsize=\(pixelSize)"
            + ":fontcolor=white:x=\(pixelSize):y=\(pixelSize / 2)"
        let gray = try FFmpegTool.run(FFmpegTool.ffmpegPath, [
            "-hide_banner", "-v", "error", "-nostdin", "-f", "lavfi", "-i", "color=c=black:s=\(canvas.description),format=gray",
            "-frames:v", "1", "-vf", filter, "-f", "rawvideo", "-pix_fmt", "gray", "-",
        ])
        guard gray.count == canvas.width * canvas.height else {
            throw FFmpegTool.Failure(description: "drawtext gave \(gray.count) bytes for a \(canvas) gray frame")
        }
        return CoverageGrid(width: canvas.width, height: canvas.height,
                            values: gray.map { UInt8(max(0, min(255, (Int($0) - 16) * 255 / 219))) })
    }
}

/// Coverage values in rows, with the ink measurements the text tests compare.
struct CoverageGrid {
    var width: Int
    var height: Int
    var values: [UInt8]

    init(width: Int, height: Int, values: [UInt8]) {
        self.width = width
        self.height = height
        self.values = values
    }

    /// Rows `rows` of a mask.
    init(_ mask: CoverageMask, rows: Range<Int>? = nil) {
        let rows = rows ?? 0..<mask.size.height
        self.init(width: mask.size.width, height: rows.count,
                  values: Array(mask.values[(rows.lowerBound * mask.size.width)..<(rows.upperBound * mask.size.width)]))
    }

    subscript(x: Int, y: Int) -> Int { Int(values[y * width + x]) }

    /// A pixel counts as ink at half coverage or more (so a faint anti-aliased fringe, which the limited-range
    /// round trip through `gray` can shift by a level, never decides a box).
    static let inkThreshold = 128

    /// The smallest rectangle holding every ink pixel.
    var inkBox: PixelRect? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where self[x, y] >= Self.inkThreshold {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    /// The runs of columns with ink, left to right, relative to the ink box, each with its total coverage: one run
    /// per glyph where glyphs do not touch.
    var inkColumns: [(columns: ClosedRange<Int>, coverage: Int)] {
        guard let box = inkBox else { return [] }
        var runs: [(columns: ClosedRange<Int>, coverage: Int)] = []
        var start: Int?, total = 0
        for x in box.x...box.maxX {
            let column = x < box.maxX ? (0..<height).map { self[x, $0] } : []
            if column.contains(where: { $0 >= Self.inkThreshold }) {
                if start == nil { start = x; total = 0 }
                total += column.reduce(0, +)
            } else if let first = start {
                runs.append(((first - box.x)...(x - 1 - box.x), total))
                start = nil
            }
        }
        return runs
    }

    /// The mean absolute difference of coverage between a run of ink columns here and one in `other`, the two
    /// moved so that the runs' first columns and the ink boxes' top rows meet: one glyph against the other.
    func meanDifference(ofRun run: ClosedRange<Int>, against other: CoverageGrid, run otherRun: ClosedRange<Int>) -> Double {
        guard let a = inkBox, let b = other.inkBox else { return .infinity }
        let width = max(run.count, otherRun.count), height = max(a.height, b.height)
        func value(_ grid: CoverageGrid, _ x: Int, _ y: Int) -> Int {
            (0..<grid.width).contains(x) && (0..<grid.height).contains(y) ? grid[x, y] : 0
        }
        var total = 0
        for y in 0..<height {
            for x in 0..<width {
                total += abs(value(self, a.x + run.lowerBound + x, a.y + y) - value(other, b.x + otherRun.lowerBound + x, b.y + y))
            }
        }
        return Double(total) / Double(width * height)
    }
}
