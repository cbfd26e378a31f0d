import AdDecisioning
import Foundation
import MediaCore

/// The values that VAST macros in tracking URLs are replaced with, chosen by the session that fires the beacon.
///
/// Times are on their own clocks: `contentPlayhead` on the content's, `adPlayhead` on the ad's, and
/// `mediaPlayhead` on the clock of whatever media is playing. `timestamp` and `cacheBuster` are chosen by the
/// caller so that a session can make them reproducible. Every value is optional: a macro whose value is not known
/// where the beacon fires becomes `-1` (docs/MACROS.md lists each macro and where its value comes from).
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
    /// The creative's media URL, for `[ASSETURI]`; `-1` when it is not an http(s) URL (a local file).
    public var assetURI: String?
    /// The ad's place in its break counting from 1, for `[ADCOUNT]`.
    public var adCount: Int?
    /// How many ads the break holds, for `[BREAKMAXADS]`.
    public var breakAdCount: Int?
    /// The declared length of the whole break, for `[BREAKMAXDURATION]` (whole seconds, rounded up).
    public var breakDuration: MediaDuration?
    /// The ad's `sequence` in its pod, for `[PODSEQUENCE]`.
    public var podSequence: Int?
    /// The player (the screen), for `[PLAYERSIZE]`.
    public var playerSize: PixelSize?
    /// For `[UNIVERSALADID]`.
    public var universalAdIds: [UniversalAdId]?
    /// Whether the ad has a ClickThrough, for `[CLICKTYPE]`.
    public var clickable: Bool?
    /// Whether the ad can be skipped, for `[INVENTORYSTATE]`.
    public var skippable: Bool?

    public init(errorCode: VASTErrorCode? = nil, contentPlayhead: MediaTime? = nil, mediaPlayhead: MediaTime? = nil,
                adPlayhead: MediaTime? = nil, timestamp: String? = nil, cacheBuster: String? = nil,
                breakPosition: BreakPositionValue? = nil, assetURI: String? = nil, adCount: Int? = nil,
                breakAdCount: Int? = nil, breakDuration: MediaDuration? = nil, podSequence: Int? = nil,
                playerSize: PixelSize? = nil, universalAdIds: [UniversalAdId]? = nil, clickable: Bool? = nil,
                skippable: Bool? = nil) {
        self.errorCode = errorCode
        self.contentPlayhead = contentPlayhead
        self.mediaPlayhead = mediaPlayhead
        self.adPlayhead = adPlayhead
        self.timestamp = timestamp
        self.cacheBuster = cacheBuster
        self.breakPosition = breakPosition
        self.assetURI = assetURI
        self.adCount = adCount
        self.breakAdCount = breakAdCount
        self.breakDuration = breakDuration
        self.podSequence = podSequence
        self.playerSize = playerSize
        self.universalAdIds = universalAdIds
        self.clickable = clickable
        self.skippable = skippable
    }
}

/// Replaces VAST macros in a tracking URL template.
///
/// Every macro of VAST 4.1/4.2 is recognised (`supported`) and replaced with its percent-encoded value, or with
/// `-1` when a headless player does not know it there (VAST 4.1, "Macros": unknown or not applicable). A name
/// VAST does not define is left as written. Both `[MACRO]` and its encoded form `%5BMACRO%5D` are recognised.
/// docs/MACROS.md documents each one; a test keeps that table and `supported` equal.
public enum MacroExpander {
    /// The VAST 4.1/4.2 macros, in the order of docs/MACROS.md.
    public static let supported = [
        // Filled from the session.
        "TIMESTAMP", "CACHEBUSTING", "ERRORCODE", "CONTENTPLAYHEAD", "MEDIAPLAYHEAD", "ADPLAYHEAD", "ASSETURI",
        "BREAKPOSITION", "ADCOUNT", "BREAKMAXADS", "BREAKMAXDURATION", "PODSEQUENCE", "PLAYERSIZE", "UNIVERSALADID",
        "CLICKTYPE", "INVENTORYSTATE",
        // Constants of a headless client-side video player.
        "PLACEMENTTYPE", "ADTYPE", "SERVERSIDE", "VASTVERSIONS", "CLIENTUA",
        // Not known to a headless player: always -1.
        "BREAKMINDURATION", "BREAKMINADLENGTH", "BREAKMAXADLENGTH", "ADCATEGORIES", "BLOCKEDADCATEGORIES",
        "ADSERVINGID", "TRANSACTIONID", "IFA", "IFATYPE", "DEVICEUA", "SERVERUA", "DEVICEIP", "LATLONG", "DOMAIN",
        "PAGEURL", "APPBUNDLE", "STOREID", "STOREURL", "CONTENTID", "CONTENTURI", "APIFRAMEWORKS", "EXTENSIONS",
        "VERIFICATIONVENDORS", "OMIDPARTNER", "MEDIAMIME", "PLAYERCAPABILITIES", "PLAYERSTATE", "CLICKPOS",
        "REASON", "REGULATIONS", "GDPRCONSENT", "LIMITADTRACKING",
    ]

    private static let supportedSet = Set(supported)

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

    /// The encoded value of macro `name`; `nil` for a name VAST does not define.
    static func value(of name: String, in c: MacroContext) -> String? {
        guard supportedSet.contains(name) else { return nil }
        let raw: String? = switch name {
        case "TIMESTAMP": c.timestamp
        case "CACHEBUSTING": c.cacheBuster
        case "ERRORCODE": c.errorCode.map { String($0.rawValue) }
        case "CONTENTPLAYHEAD": c.contentPlayhead.map(clock)
        case "MEDIAPLAYHEAD": c.mediaPlayhead.map(clock)
        case "ADPLAYHEAD": c.adPlayhead.map(clock)
        // Never a local path, whatever the document's origin: beacons go to ad servers, and a path would tell
        // them which files the user has. Only an http(s) media URL (before any --url-map) is sent.
        case "ASSETURI": c.assetURI.flatMap { ["http", "https"].contains(ResourceLocation.scheme(of: $0)) ? $0 : nil }
        case "BREAKPOSITION": c.breakPosition.map { String($0.rawValue) }
        case "ADCOUNT": c.adCount.map(String.init)
        case "BREAKMAXADS": c.breakAdCount.map(String.init)
        case "BREAKMAXDURATION": c.breakDuration.map { String($0.seconds.ceiling) }
        case "PODSEQUENCE": c.podSequence.map(String.init)
        case "PLAYERSIZE": c.playerSize.map { "\($0.width),\($0.height)" }
        case "UNIVERSALADID":
            c.universalAdIds.flatMap { ids in ids.isEmpty ? nil : ids.map { "\($0.registry) \($0.value)" }.joined(separator: ",") }
        case "CLICKTYPE": c.clickable.map { $0 ? "1" : "0" }
        case "INVENTORYSTATE": c.skippable.map { $0 ? "skippable,autoplayed" : "autoplayed" }
        case "PLACEMENTTYPE": "1"
        case "ADTYPE": "video"
        case "SERVERSIDE": "0"
        case "VASTVERSIONS": "2,3,5,6,7,8,11,12,13,14"
        case "CLIENTUA": "pipctl"
        default: nil
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
    package static func percentEncode(_ text: String) -> String {
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
