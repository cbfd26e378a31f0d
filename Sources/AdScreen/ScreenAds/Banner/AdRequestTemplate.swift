import AdPlayback
import MediaCore

/// An ad request URL as a placement writes it, with the size macros an ad server answers to: `[WIDTH]` and
/// `[HEIGHT]` (points), `[SCALE]` (pixels per point) and `[SCENE]` (the window scene's name).
///
/// These are request macros, not VAST tracking macros (`MacroExpander`): they tell the server which creative size
/// to return, as Google Mobile Ads' adaptive banner request carries its width. A request made without its scene
/// has `[SCENE]` `-1`, the VAST convention for an unknown value. `[NAME]` and `%5BNAME%5D` are both recognised;
/// other names are left as written (the tracking macros are expanded later, when a beacon fires).
public struct AdRequestTemplate: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    public init(_ text: String) { self.text = text }

    /// The macros this template expands.
    public static let macros = ["WIDTH", "HEIGHT", "SCALE", "SCENE"]

    /// The URL for a request of `size` points at `scale`, made for `scene` (`nil`: the request does not set it).
    public func expanded(size: PointSize, scale: PointScale, scene: SceneID?) -> String {
        let values = ["WIDTH": String(size.width), "HEIGHT": String(size.height),
                      "SCALE": AdRequestTemplate.decimal(scale.pixelsPerPoint),
                      "SCENE": scene.map { MacroExpander.percentEncode($0.rawValue) } ?? "-1"]
        var output = ""
        var rest = Substring(text)
        scan: while !rest.isEmpty {
            for (open, close) in [("[", "]"), ("%5B", "%5D")] where rest.uppercased().hasPrefix(open) {
                let afterOpen = rest.index(rest.startIndex, offsetBy: open.count)
                if let end = rest[afterOpen...].range(of: close, options: .caseInsensitive),
                   let value = values[String(rest[afterOpen..<end.lowerBound])] {
                    output += value
                    rest = rest[end.upperBound...]
                    continue scan
                }
            }
            output.append(rest.removeFirst())
        }
        return output
    }

    /// A scale as a server reads it: `2`, `2.625`; a ratio without a finite decimal form keeps 6 digits.
    static func decimal(_ value: Rational) -> String {
        let whole = value.floor
        var fraction = value - Rational(whole)
        var digits = ""
        while fraction != Rational(0) && digits.count < 6 {
            fraction = fraction * Rational(10)
            let digit = fraction.floor
            digits += String(digit)
            fraction = fraction - Rational(digit)
        }
        return digits.isEmpty ? String(whole) : "\(whole).\(digits)"
    }

    public var description: String { text }
}
