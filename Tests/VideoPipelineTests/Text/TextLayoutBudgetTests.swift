import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

#if canImport(Glibc)
import Glibc
#endif

/// No text costs more than a normal card per frame: a word longer than the line breaks at the line in work linear
/// in the text, and a layout is kept per (text, pixel size, width, line limit) (issue 22: a 4096-character title
/// cost 0.6 s a frame). Measured in this thread's CPU time, which other tests running beside it do not change.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: FontFace.defaultPath)))
struct TextLayoutBudgetTests {
    static let letters = Array("Sponsored by a brand that sells everything")

    /// CPU seconds of the calling thread.
    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// What a render does with a card's title each frame: the layout measures its lines at the column's width
    /// without a limit (`FreeTypeTextMeasurer.lineCount`) and unbroken (`width(of:)`), and the drawing renders
    /// it in at most two lines; `frames` times, with a rasterizer of its own.
    static func cardCPU(title: String, frames: Int) throws -> Double {
        let rasterizer = TextRasterizer(font: try FontFace.defaultFont())
        let start = threadCPU()
        for _ in 0..<frames {
            _ = try rasterizer.measure(title, pixelSize: 24, width: 300, lineLimit: nil)
            _ = try rasterizer.measure(title, pixelSize: 24, width: nil, lineLimit: nil)
            _ = try rasterizer.render(title, pixelSize: 24, width: 300, lineLimit: 2)
        }
        return threadCPU() - start
    }

    @Test func aCardWithOne4096CharacterWordCostsAboutWhatANormalCardCosts() throws {
        // The same letters in both, so both render the same glyphs; the long one has no space.
        let normal = String(Self.letters)
        let word = String((0..<4096).map { Self.letters.filter { $0 != " " }[$0 % 35] })
        #expect(word.count == 4096 && !word.contains(" "))
        _ = try Self.cardCPU(title: normal, frames: 1)  // the font's first load, outside both measurements
        let frames = 120
        let normalCPU = try Self.cardCPU(title: normal, frames: frames)
        let longCPU = try Self.cardCPU(title: word, frames: frames)
        print("text budget: \(frames) frames, normal card \(normalCPU) s, 4096-character word \(longCPU) s of CPU")
        #expect(longCPU <= 4 * normalCPU + 0.02, "a 4096-character word cost \(longCPU) s against \(normalCPU) s")
    }

    @Test func aLongWordBreaksAtTheLineAndStopsAtTheLineLimit() throws {
        let rasterizer = TextRasterizer(font: try FontFace.defaultFont())
        let word = String(repeating: "abcdefghij", count: 410)
        let limited = try rasterizer.measure(word, pixelSize: 24, width: 300, lineLimit: 2)
        #expect(limited.lines.count == 2 && limited.isTruncated && limited.lines[1].hasSuffix("…"))
        #expect(limited.lineWidths.allSatisfy { $0 <= 300 })
        let all = try rasterizer.measure(word, pixelSize: 24, width: 300, lineLimit: nil)
        #expect(all.lines.joined() == word && all.lineWidths.allSatisfy { $0 <= 300 })
        #expect(all.lines.first == limited.lines.first)
    }

    @Test func layoutsAreKeptAndTheirCacheIsBounded() throws {
        let rasterizer = TextRasterizer(font: try FontFace.defaultFont())
        let first = try rasterizer.measure("Sponsored", pixelSize: 24, width: 300, lineLimit: 2)
        #expect(rasterizer.cachedLayoutCount == 1)
        #expect(try rasterizer.measure("Sponsored", pixelSize: 24, width: 300, lineLimit: 2) == first)
        #expect(rasterizer.cachedLayoutCount == 1)
        for i in 0..<(TextRasterizer.layoutCacheLimit + 10) { _ = try rasterizer.measure("t\(i)", pixelSize: 24, width: 300, lineLimit: 2) }
        #expect(rasterizer.cachedLayoutCount <= TextRasterizer.layoutCacheLimit)
        let big = String(repeating: "w ", count: TextRasterizer.layoutCacheBytes / 4)
        _ = try rasterizer.measure(big, pixelSize: 24, width: 300, lineLimit: 1)
        _ = try rasterizer.measure(big + "x", pixelSize: 24, width: 300, lineLimit: 1)
        #expect(rasterizer.cachedLayoutCount <= 2)
    }
}
