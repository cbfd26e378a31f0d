/// A colour in limited-range BT.601 YUV, as yuv420p stores it.
public struct YUVColor: Hashable, Sendable {
    public var y: UInt8
    public var u: UInt8
    public var v: UInt8

    public init(y: UInt8, u: UInt8, v: UInt8) {
        self.y = y
        self.u = u
        self.v = v
    }

    /// Converts 8-bit sRGB-ish RGB to limited-range BT.601.
    public init(red r: Int, green g: Int, blue b: Int) {
        func clamp(_ v: Int) -> UInt8 { UInt8(max(0, min(255, v))) }
        y = clamp((66 * r + 129 * g + 25 * b + 128) >> 8 + 16)
        u = clamp((-38 * r - 74 * g + 112 * b + 128) >> 8 + 128)
        v = clamp((112 * r - 94 * g - 18 * b + 128) >> 8 + 128)
    }

    public static let black = YUVColor(y: 16, u: 128, v: 128)
    /// The default backdrop behind a picture-in-picture window: a dark slate.
    public static let slate = YUVColor(red: 28, green: 32, blue: 40)
    /// Around a device's active display (a folded foldable's outer display, a rotated screen): a dark grey (Y 71)
    /// that neither black bars (16) nor the slate (43) can be taken for.
    public static let bezel = YUVColor(red: 0x40, green: 0x40, blue: 0x40)

    /// Parses `#rrggbb`.
    public init?(hex: String) {
        var text = Substring(hex)
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard text.count == 6, let value = Int(text, radix: 16) else { return nil }
        self.init(red: value >> 16 & 0xFF, green: value >> 8 & 0xFF, blue: value & 0xFF)
    }
}
