import AdPlayback
import MediaCore

extension PointScale {
    /// The longest canvas side the default scale allows.
    public static let defaultLongSideLimit = 1280

    /// The default for `device`: the largest multiple of 1/4 that keeps the longest display side at most 1280
    /// pixels, and not above the device's own scale (at least 1/4).
    ///
    /// Quarters keep most point edges on whole pixels (iPhone 15: 852 pt × 3/2 = 1278 px; iPad 11": 1194 × 1).
    public static func `default`(for device: Device) -> PointScale {
        let longest = device.displays.map(\.portraitSize.longSide).max() ?? 1
        let quarters = max(1, min(defaultLongSideLimit * 4 / longest, Int((device.nativeScale * Rational(4)).floor)))
        return PointScale(Rational(Int64(quarters), 4))
    }
}
