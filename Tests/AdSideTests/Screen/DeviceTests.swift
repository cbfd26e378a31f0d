@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

@Suite struct DeviceTests {
    @Test func profilesCarryThePublishedSizesScalesAndInsets() throws {
        let phone = try Device(parsing: "iphone-15")
        #expect(phone.displays.map(\.portraitSize) == [PointSize(width: 393, height: 852)])
        #expect(phone.nativeScale == Rational(3) && !phone.supportsMultipleScenes)
        #expect(phone.displays[0].safeArea(in: .portrait) == EdgeInsets(top: 59, bottom: 34))
        #expect(phone.displays[0].safeArea(in: .landscape) == EdgeInsets(top: 0, left: 59, bottom: 21, right: 59))

        let pad = try Device(parsing: " iPad-11 ")
        #expect(pad.displays[0].size(in: .landscape) == PointSize(width: 1194, height: 834))
        #expect(pad.nativeScale == Rational(2) && pad.supportsMultipleScenes)
        #expect(pad.displays[0].safeArea(in: .portrait) == EdgeInsets(top: 24, bottom: 20))

        // Pixel Fold: 1080x2092 px outer, 2208x1840 px inner, at 2.625 px per dp, truncated.
        let fold = try Device(parsing: "foldable")
        #expect(fold.isFoldable && fold.nativeScale == Rational(21, 8))
        #expect(fold.activeDisplay(.folded).role == .outer)
        #expect(fold.activeDisplay(.folded).size(in: .portrait) == PointSize(width: 1080 * 8 / 21, height: 2092 * 8 / 21))
        #expect(fold.activeDisplay(.unfolded).role == .inner)
        #expect(fold.activeDisplay(.unfolded).size(in: .landscape) == PointSize(width: 2208 * 8 / 21, height: 1840 * 8 / 21))
    }

    @Test(arguments: [
        ("390x844@3", PointSize(width: 390, height: 844), Rational(3), Orientation.portrait),
        ("1280x720", PointSize(width: 720, height: 1280), Rational(1), .landscape),
        ("800X600@2.625", PointSize(width: 600, height: 800), Rational(21, 8), .landscape),
        ("500x500@21/8", PointSize(width: 500, height: 500), Rational(21, 8), .portrait),
    ])
    func readsCustomSizesInPoints(text: String, portrait: PointSize, scale: Rational, natural: Orientation) throws {
        let device = try Device(parsing: text)
        #expect(device.displays.count == 1 && device.displays[0].portraitSize == portrait)
        #expect(device.nativeScale == scale && device.displays[0].safeArea(in: .landscape) == .zero)
        #expect(Device.naturalOrientation(of: text) == natural)
    }

    @Test(arguments: [
        ("pixel-9", ScreenError.unknownDevice("pixel-9")),
        ("390x", .unknownDevice("390x")),
        ("0x844", .unknownDevice("0x844")),
        ("390x844@2@3", .unknownDevice("390x844@2@3")),
        ("390x844@0", .badDeviceScale(device: "390x844@0", scale: "0")),
        ("390x844@-2", .badDeviceScale(device: "390x844@-2", scale: "-2")),
        ("390x844@x", .badDeviceScale(device: "390x844@x", scale: "x")),
    ])
    func refusesWhatIsNotADevice(text: String, expected: ScreenError) {
        #expect(throws: expected) { try Device(parsing: text) }
    }

    @Test func deviceErrorsAreOneLineNamingTheValue() {
        #expect(ScreenError.unknownDevice("pixel-9").description
            == "device \"pixel-9\": unknown; use iphone-15, ipad-11, foldable or WxH[@scale] in points, as in 390x844@3")
        #expect(ScreenError.badDeviceScale(device: "390x844@0", scale: "0").description
            == "device \"390x844@0\": scale \"0\" is not a positive number; write 2, 2.625 or 21/8")
    }

    @Test func defaultPointScaleKeepsTheLongSideWithin1280Pixels() throws {
        // Largest quarter step with long side × scale ≤ 1280, not above the device's own scale.
        #expect(PointScale.default(for: .iPhone15).pixelsPerPoint == Rational(3, 2))  // 852 × 1.5 = 1278
        #expect(PointScale.default(for: .iPad11).pixelsPerPoint == Rational(1))      // 1194 × 1.25 > 1280
        #expect(PointScale.default(for: .foldable).pixelsPerPoint == Rational(3, 2)) // 841 × 1.5 = 1261.5
        #expect(PointScale.default(for: try Device(parsing: "1920x1080")).pixelsPerPoint == Rational(1, 2))
        #expect(PointScale.default(for: try Device(parsing: "320x480@1")).pixelsPerPoint == Rational(1))
    }

    @Test func readsAPointScaleAsAPositiveNumber() {
        #expect(PointScale(parsing: "1.5")?.pixelsPerPoint == Rational(3, 2))
        #expect(PointScale(parsing: "3/2")?.pixelsPerPoint == Rational(3, 2))
        #expect(PointScale(parsing: "0") == nil && PointScale(parsing: "-1") == nil && PointScale(parsing: "big") == nil)
    }

    @Test func pointsBecomeEvenPixelsEdgeByEdge() {
        let scale = PointScale(Rational(3, 2))
        // 393 × 1.5 = 589.5 → 590; 728 × 1.5 = 1092; 818 × 1.5 = 1227 → 1228 (nearest even).
        #expect(scale.pixels(PointRect(x: 0, y: 728, width: 393, height: 90)) == PixelRect(x: 0, y: 1092, width: 590, height: 136))
        // At scale 1 an odd edge rounds to the nearest even: 375 → 376, 385 → 386; the divider stays 10 px.
        let one = PointScale(.one)
        #expect(one.pixels(PointRect(x: 0, y: 0, width: 375, height: 834)) == PixelRect(x: 0, y: 0, width: 376, height: 834))
        #expect(one.pixels(PointRect(x: 385, y: 0, width: 809, height: 834)) == PixelRect(x: 386, y: 0, width: 808, height: 834))
    }
}
