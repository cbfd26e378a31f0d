import Foundation
import MediaCore

/// One WebVTT segment of an HLS subtitle rendition (RFC 8216 §3.5), read so that a window of it can be served: the
/// cues of the content up to a break's cut, or from it, or between two cuts.
///
/// Its cue times are its own clock; `X-TIMESTAMP-MAP=MPEGTS:N,LOCAL:T` ties local time `T` to the stream's
/// presentation time `N` (90 kHz). A file without that header maps local 0 to 0, as ExoPlayer reads it. A window is
/// given in the stream's presentation time, so the cut pieces of the pictures and of the subtitles fall at one time.
///
/// Kept as they are: the header (its `X-TIMESTAMP-MAP` too, so the pieces map like the whole), `STYLE` and `REGION`
/// blocks, each kept cue's identifier, settings and text. Dropped: `NOTE` blocks and blocks of no known kind (as a
/// WebVTT parser skips them), and the cues outside the window. A cue across an edge is cut at it.
package struct WebVTTSegment: Sendable, Equatable {
    /// The largest segment read (a subtitle segment of a few seconds is a few kilobytes).
    package static let maximumBytes = 1 << 20
    /// A segment with no cues: what a subtitle rendition shows during an ad.
    package static let empty = "WEBVTT\n"

    package struct Cue: Sendable, Equatable {
        package var identifier: String?
        /// Milliseconds of the file's own clock.
        package var start: Int64
        package var end: Int64
        /// What follows the end time on the timing line (position, alignment…), or "".
        package var settings: String
        package var text: [String]

        package init(identifier: String?, start: Int64, end: Int64, settings: String, text: [String]) {
            (self.identifier, self.start, self.end, self.settings, self.text) = (identifier, start, end, settings, text)
        }
    }

    package enum Block: Sendable, Equatable {
        /// A `STYLE` or `REGION` block, its lines as read.
        case kept([String])
        case cue(Cue)
    }

    /// The header's lines, from `WEBVTT` to the first blank line.
    package var header: [String]
    package var blocks: [Block]
    /// `X-TIMESTAMP-MAP`: the presentation time (90 kHz) of local time `localMilliseconds`.
    package var mpegts: Int64 = 0
    package var localMilliseconds: Int64 = 0

    /// Reads `text`, naming `file` and the line in any error.
    package init(text: String, file: String) throws(WebVTTError) {
        var body = text
        if body.hasPrefix("\u{FEFF}") { body.removeFirst() }
        let lines = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first, first == "WEBVTT" || first.hasPrefix("WEBVTT ") || first.hasPrefix("WEBVTT\t") else {
            throw WebVTTError(file: file, line: 1, message: "not a WebVTT file (no WEBVTT signature)")
        }
        var index = 0
        header = []
        while index < lines.count, !lines[index].isEmpty {
            let line = lines[index]
            if line.hasPrefix("X-TIMESTAMP-MAP=") {
                guard let map = Self.timestampMap(String(line.dropFirst(16))) else {
                    throw WebVTTError(file: file, line: index + 1, message: "X-TIMESTAMP-MAP \"\(line.dropFirst(16).prefix(40))\" is not MPEGTS:N,LOCAL:TIME")
                }
                (mpegts, localMilliseconds) = map
            }
            header.append(line)
            index += 1
        }
        blocks = []
        while index < lines.count {
            while index < lines.count, lines[index].isEmpty { index += 1 }
            guard index < lines.count else { break }
            let start = index
            while index < lines.count, !lines[index].isEmpty { index += 1 }
            let block = Array(lines[start..<index])
            if let timing = block.prefix(2).firstIndex(where: { $0.contains("-->") }) {
                guard let (from, to, settings) = Self.timing(block[timing]) else {
                    throw WebVTTError(file: file, line: start + timing + 1, message: "cue timing \"\(block[timing].prefix(40))\" is not START --> END")
                }
                blocks.append(.cue(Cue(identifier: timing == 1 ? block[0] : nil, start: from, end: to, settings: settings,
                                       text: Array(block[(timing + 1)...]))))
            } else if block[0] == "STYLE" || block[0].hasPrefix("STYLE ") || block[0] == "REGION" || block[0].hasPrefix("REGION ") {
                blocks.append(.kept(block))
            }
        }
    }

    /// The local time (milliseconds, nearest) that presentation time `pts` (90 kHz) maps to, across a 33-bit wrap.
    package func local(_ pts: Int64) -> Int64 {
        var ticks = pts - mpegts
        let wrap: Int64 = 1 << 33
        if ticks < -wrap / 2 { ticks += wrap } else if ticks > wrap / 2 { ticks -= wrap }
        return localMilliseconds + (ticks >= 0 ? (ticks + 45) / 90 : -((-ticks + 45) / 90))
    }

    /// The segment as WebVTT text with only what shows from presentation time `from` to `to` (90 kHz; nil: open):
    /// cues that end at or before `from` or start at or after `to` left out, and cues across either edge cut at it.
    package func window(from: Int64?, to: Int64?) -> String {
        let lower = from.map(local), upper = to.map(local)
        var out = header + [""]
        for block in blocks {
            switch block {
            case .kept(let lines):
                out += lines + [""]
            case .cue(var cue):
                if let lower { guard cue.end > lower else { continue }; cue.start = max(cue.start, lower) }
                if let upper { guard cue.start < upper else { continue }; cue.end = min(cue.end, upper) }
                guard cue.end > cue.start else { continue }
                if let identifier = cue.identifier { out.append(identifier) }
                out.append(Self.time(cue.start) + " --> " + Self.time(cue.end) + (cue.settings.isEmpty ? "" : " " + cue.settings))
                out += cue.text + [""]
            }
        }
        return out.joined(separator: "\n")
    }

    /// `MPEGTS:N,LOCAL:TIME` (either order).
    static func timestampMap(_ value: String) -> (Int64, Int64)? {
        var mpegts: Int64?, local: Int64?
        for part in value.split(separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces)
            if item.hasPrefix("MPEGTS:") {
                let digits = item.dropFirst(7)
                guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCIIDigit) else { return nil }
                mpegts = Int64(digits)
            } else if item.hasPrefix("LOCAL:") {
                local = milliseconds(item.dropFirst(6))
            }
        }
        guard let mpegts, let local else { return nil }
        return (mpegts, local)
    }

    /// `START --> END[ SETTINGS]`, times in milliseconds.
    static func timing(_ line: String) -> (Int64, Int64, String)? {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3, fields[1] == "-->", let start = milliseconds(fields[0]), let end = milliseconds(fields[2]) else { return nil }
        return (start, end, fields.dropFirst(3).joined(separator: " "))
    }

    /// A WebVTT timestamp, `[HH:]MM:SS.mmm` (hours of at least two digits), in milliseconds.
    static func milliseconds(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let seconds = parts.last, seconds.count == 6,
              seconds[seconds.index(seconds.startIndex, offsetBy: 2)] == "." else { return nil }
        func number(_ s: Substring, digits: ClosedRange<Int>) -> Int64? {
            guard digits.contains(s.count), s.allSatisfy(\.isASCIIDigit) else { return nil }
            return Int64(s)
        }
        guard let s = number(seconds.prefix(2), digits: 2...2), let ms = number(seconds.suffix(3), digits: 3...3),
              let m = number(parts[parts.count - 2], digits: 2...2), s < 60, m < 60 else { return nil }
        let h = parts.count == 3 ? number(parts[0], digits: 2...9) : 0
        guard let h else { return nil }
        return ((h * 60 + m) * 60 + s) * 1000 + ms
    }

    /// `HH:MM:SS.mmm`.
    static func time(_ milliseconds: Int64) -> String {
        let ms = max(0, milliseconds)
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let fraction = ms % 1000
        return "\(two(h)):\(two(m)):\(two(s)).\(fraction < 10 ? "00" : fraction < 100 ? "0" : "")\(fraction)"
    }
}

/// A WebVTT segment that cannot be read: the file, the line (from 1) and what is wrong, in one line.
package struct WebVTTError: Error, Equatable, Sendable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var message: String

    package init(file: String, line: Int, message: String) {
        (self.file, self.line, self.message) = (file, line, message)
    }

    package var description: String { "\(file.excerpt): line \(line): \(message)" }
}
