/// A VAST error code (IAB VAST 4.x, section "Error Codes"), as sent in `[ERRORCODE]` and listed in reports.
public struct VASTErrorCode: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// 100: the document is not well-formed XML.
    public static let xmlParsing = VASTErrorCode(100)
    /// 101: the document does not follow the VAST schema where the player needs it to.
    public static let schemaValidation = VASTErrorCode(101)
    /// 102: the VAST version of the response is not supported (VAST 1).
    public static let versionNotSupported = VASTErrorCode(102)
    /// 200: trafficking error; the player received an ad type it was not expecting.
    public static let trafficking = VASTErrorCode(200)
    /// 201: expected a different linearity.
    public static let unexpectedLinearity = VASTErrorCode(201)
    /// 202: expected a different duration.
    public static let unexpectedDuration = VASTErrorCode(202)
    /// 300: general wrapper error.
    public static let wrapper = VASTErrorCode(300)
    /// 301: the URI of a wrapper timed out or could not be fetched.
    public static let wrapperTimeout = VASTErrorCode(301)
    /// 302: wrapper limit reached.
    public static let wrapperLimit = VASTErrorCode(302)
    /// 303: no VAST response after one or more wrappers (also: no ad in the response).
    public static let noAdsAfterWrapper = VASTErrorCode(303)
    /// 400: general linear error; the media file could not be played.
    public static let linear = VASTErrorCode(400)
    /// 401: file not found; the media file could not be found at its URI.
    public static let fileNotFound = VASTErrorCode(401)
    /// 402: timeout of the media file URI.
    public static let mediaTimeout = VASTErrorCode(402)
    /// 403: no media file supported by the player (MIME type, bitrate or size).
    public static let noSupportedMedia = VASTErrorCode(403)
    /// 405: problem displaying the media file (it decodes badly or not at all).
    public static let mediaDisplay = VASTErrorCode(405)
    /// 900: undefined error.
    public static let undefined = VASTErrorCode(900)
    /// 901: general VPAID error; VPAID creatives are recognised and not played.
    public static let vpaid = VASTErrorCode(901)
    /// 902: general interactive creative file error (SIMID and other interactive units are not run).
    public static let interactiveCreative = VASTErrorCode(902)

    public var description: String { String(rawValue) }
    public static func < (a: VASTErrorCode, b: VASTErrorCode) -> Bool { a.rawValue < b.rawValue }
}

/// A failure tied to a VAST error code: what went wrong and where, in words a user can act on.
public struct AdError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: VASTErrorCode
    public var message: String
    /// The `<Error>` URL templates to fire with `[ERRORCODE]` for this failure: those of every wrapper in the chain,
    /// of the response that failed, and a VMAP break's `error` tracking. Empty when nobody asked to be told.
    public var errorURLs: [String]

    public init(_ code: VASTErrorCode, _ message: String, errorURLs: [String] = []) {
        self.code = code
        self.message = message
        self.errorURLs = errorURLs
    }

    public var description: String { "VAST error \(code.rawValue): \(message)" }
}
