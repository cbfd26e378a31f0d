import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// Only `FFmpeg/` touches FFmpeg's pointers (issue 24 item 7). Swift cannot state that rule, so this reads the
/// sources: outside `FFmpeg/` (and `Text/FreeType/`, `Loudness/EBUR128/`, which own their C libraries) no line
/// dereferences a pointer, names an FFmpeg struct's pointer type or calls an FFmpeg function; and libx264 is set
/// up in one file.
@Suite struct FFmpegBoundaryTests {
    /// Folders of `Sources/VideoPipeline` allowed raw C pointers: FFmpeg's wrappers and the other C libraries'.
    static let owners = ["FFmpeg/", "Text/FreeType/", "Loudness/EBUR128/"]

    /// What a line outside the owners must not hold (comments aside).
    static let forbidden: [(name: String, pattern: String)] = [
        ("a pointer dereference", #"\.pointee\b"#),
        ("an FFmpeg struct pointer", #"Unsafe(Mutable)?Pointer<AV"#),
        ("a wrapper's raw pointer", #"\.pointer\b"#),
        ("an FFmpeg call", #"\b(av|avcodec|avformat|avio|sws|swr)_[a-z0-9_]+\s*\("#),
    ]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/VideoPipeline")
    }

    /// `file:line: what` for every forbidden line of the Swift files under `root` outside the owners, and how many
    /// files were read.
    static func violations(under root: URL) throws -> (found: [String], files: Int) {
        let expressions = try forbidden.map { ($0.name, try NSRegularExpression(pattern: $0.pattern)) }
        var found: [String] = [], files = 0
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            guard !owners.contains(where: relative.hasPrefix) else { continue }
            files += 1
            let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                for (name, expression) in expressions
                where expression.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                    found.append("Sources/VideoPipeline/\(relative):\(number + 1): \(name): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return (found.sorted(), files)
    }

    @Test func noFFmpegPointerOutsideTheFFmpegFolder() throws {
        let (found, files) = try FFmpegBoundaryTests.violations(under: FFmpegBoundaryTests.sources)
        #expect(files > 50, "read \(files) files under \(FFmpegBoundaryTests.sources.path)")
        #expect(found.isEmpty, "FFmpeg's pointers belong in Sources/VideoPipeline/FFmpeg/:\n\(found.joined(separator: "\n"))")
    }

    /// The scan itself finds a dereference, names its file and line, and leaves the owners and comments alone.
    @Test func scanNamesTheFileAndLineOfAViolation() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("boundary-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["Passthrough", "FFmpeg"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let leak = "import CFFmpeg\n// a comment may say packet.pointer.pointee\nfunc f(p: Packet) {\n    p.pointer.pointee.pts = 0\n}\n"
        try leak.write(to: root.appendingPathComponent("Passthrough/Leak.swift"), atomically: true, encoding: .utf8)
        try leak.write(to: root.appendingPathComponent("FFmpeg/Owner.swift"), atomically: true, encoding: .utf8)
        let (found, files) = try FFmpegBoundaryTests.violations(under: root)
        #expect(files == 1)
        #expect(found == [
            "Sources/VideoPipeline/Passthrough/Leak.swift:4: a pointer dereference: p.pointer.pointee.pts = 0",
            "Sources/VideoPipeline/Passthrough/Leak.swift:4: a wrapper's raw pointer: p.pointer.pointee.pts = 0",
        ])
    }

    /// libx264 is found, and its own options (`x264-params`, `forced-idr`) set, in one file: `X264Encoder`.
    @Test func x264IsConfiguredInOnePlace() throws {
        let root = FileManager.default.enumerator(at: FFmpegBoundaryTests.sources, includingPropertiesForKeys: nil)
        var places: [String] = []
        while let url = root?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for marker in [#""libx264""#, #""x264-params""#, #""forced-idr""#] where text.contains(marker) {
                places.append("\(url.lastPathComponent) \(marker)")
            }
        }
        #expect(Set(places.map { $0.components(separatedBy: " ")[0] }) == ["X264Encoder.swift"], "\(places)")
    }
}
