import Testing
@testable import MediaCore

/// Clock times too large for a 64-bit `Rational` are refused, not a trap (found by `scripts/fuzz script`).
@Suite struct MediaTimeParsingBoundsTests {
    @Test(arguments: ["4643711615777578097:00", "153722867280912930:0:0", "9223372036854775807:0", "2562047788015215:30:07.5"])
    func refusesAClockTimeBeyond64Bits(text: String) {
        #expect(MediaTime(parsing: text) == nil)
    }

    @Test(arguments: ["20888588.888888888888888", "999999999999999.999999999999999"])
    func refusesADecimalBeyond64Bits(text: String) {
        #expect(MediaTime(parsing: text) == nil)
        #expect(Rational(parsing: text) == nil)
    }

    @Test func readsTheLargestClockTimesThatFit() {
        #expect(MediaTime(parsing: "2562047788015215:30:07") == MediaTime(seconds: Rational(Int64.max)))
        #expect(MediaTime(parsing: "1:02:03.250") == MediaTime(seconds: Rational(14893, 4)))
    }
}
