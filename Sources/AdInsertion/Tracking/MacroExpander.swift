import Foundation
import MediaCore

/// The values that VAST macros in tracking URLs are replaced with, chosen by the session that fires the beacon.
///
/// Times are on their own clocks: `contentPlayhead` on the content's, `adPlayhead` on the ad's, and
/// `mediaPlayhead` on the clock of whatever media is playing. `timestamp` and `cacheBuster` are chosen by the
/// caller so that a session can make them reproducible.
public struct MacroContext: Hashable, Sendable {
    /// `[BREAKPOSITION]` values of VAST 4.1.
    public enum BreakPositionValue: Int, Sendable {
        case preroll = 1, midroll = 2, postroll = 3, standalone = 4
    }

    public var errorCode: VASTErrorCode?
    public var contentPlayhead: MediaTime?
    public var mediaPlayhead: MediaTime?
    public var adPlayhead: MediaTime?
    /// ISO 8601 with milliseconds and zone, for `[TIMESTAMP]`.
    public var timestamp: String?
    /// Eight digits, for `[CACHEBUSTING]`.
    public var cacheBuster: String?
    public var breakPosition: BreakPositionValue?
    /// The creative's media URL, for `[ASSETURI]`.
    public var assetURI: String?

    public init(errorCode: VASTErrorCode? = nil, contentPlayhead: MediaTime? = nil, mediaPlayhead: MediaTime? = nil,
                adPlayhead: MediaTime? = nil, timestamp: String? = nil, cacheBuster: String? = nil,
                breakPosition: BreakPositionValue? = nil, assetURI: String? = nil) {
        self.errorCode = errorCode
        self.contentPlayhead = contentPlayhead
        self.mediaPlayhead = mediaPlayhead
        self.adPlayhead = adPlayhead
        self.timestamp = timestamp
        self.cacheBuster = cacheBuster
        self.breakPosition = breakPosition
        self.assetURI = assetURI
    }
}

/// Replaces VAST macros in a tracking URL template.
///
/// Known macros are replaced with their percent-encoded value, or with `-1` when the value is unknown (VAST 4.1,
/// "Macros"); unknown macros are left as written. Both `[MACRO]` and its encoded form `%5BMACRO%5D` are recognised.
public enum MacroExpander {
    public static let supported = ["ERRORCODE", "CONTENTPLAYHEAD", "MEDIAPLAYHEAD", "ADPLAYHEAD", "CACHEBUSTING",
                                   "TIMESTAMP", "BREAKPOSITION", "ASSETURI"]

    public static func expand(_ template: String, with context: MacroContext) -> String {
        var output = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(where: { $0 == "[" || $0 == "%" }) {
            output += rest[..<open]
            rest = rest[open...]
            let (openToken, closeToken) = rest.hasPrefix("[") ? ("[", "]") : ("%5B", "%5D")
            guard rest.uppercased().hasPrefix(openToken),
                  let close = rest.range(of: closeToken, options: .caseInsensitive),
                  case let name = String(rest[rest.index(rest.startIndex, offsetBy: openToken.count)..<close.lowerBound]),
                  name.allSatisfy({ $0.isLetter || $0 == "_" }), !name.isEmpty,
                  let value = value(of: name, in: context) else {
                output.append(rest.first!)
                rest = rest.dropFirst()
                continue
            }
            output += value
            rest = rest[close.upperBound...]
        }
        return output + rest
    }

    static func value(of name: String, in c: MacroContext) -> String? {
        let raw: String?
        switch name {
        case "ERRORCODE": raw = c.errorCode.map { String($0.rawValue) }
        case "CONTENTPLAYHEAD": raw = c.contentPlayhead.map(clock)
        case "MEDIAPLAYHEAD": raw = c.mediaPlayhead.map(clock)
        case "ADPLAYHEAD": raw = c.adPlayhead.map(clock)
        case "CACHEBUSTING": raw = c.cacheBuster
        case "TIMESTAMP": raw = c.timestamp
        case "BREAKPOSITION": raw = c.breakPosition.map { String($0.rawValue) }
        case "ASSETURI": raw = c.assetURI
        default: return nil
        }
        return raw.map(percentEncode) ?? "-1"
    }

    /// `HH:MM:SS.mmm`, milliseconds rounded down, as VAST writes playheads.
    static func clock(_ time: MediaTime) -> String {
        let ms = max(0, (time.seconds * Rational(1000)).floor)
        func pad(_ v: Int64, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
        return "\(pad(ms / 3_600_000, 2)):\(pad(ms / 60_000 % 60, 2)):\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))"
    }

    /// RFC 3986 unreserved characters stay; everything else is %XX.
    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
