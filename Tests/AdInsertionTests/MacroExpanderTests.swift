import MediaCore
import Testing
@testable import AdInsertion

@Suite struct MacroExpanderTests {
    let context = MacroContext(errorCode: .noSupportedMedia, contentPlayhead: MediaTime(seconds: Rational(3_723_456, 1000)),
                               adPlayhead: MediaTime(seconds: Rational(15, 2)), timestamp: "2000-01-01T00:00:00.000Z",
                               cacheBuster: "12345678", breakPosition: .midroll, assetURI: "https://cdn.example/ad 1.mp4")

    @Test func replacesEverySupportedMacro() {
        let url = "https://t.example/e?c=[ERRORCODE]&p=[CONTENTPLAYHEAD]&a=[ADPLAYHEAD]&cb=[CACHEBUSTING]&t=[TIMESTAMP]&b=[BREAKPOSITION]&u=[ASSETURI]"
        #expect(MacroExpander.expand(url, with: context) ==
            "https://t.example/e?c=403&p=01%3A02%3A03.456&a=00%3A00%3A07.500&cb=12345678&t=2000-01-01T00%3A00%3A00.000Z&b=2&u=https%3A%2F%2Fcdn.example%2Fad%201.mp4")
    }

    @Test func recognisesEncodedBracketsAndLeavesUnknownMacros() {
        #expect(MacroExpander.expand("x?e=%5BERRORCODE%5D&z=[UNKNOWN]&q=%20", with: context) == "x?e=403&z=[UNKNOWN]&q=%20")
    }

    @Test func writesMinusOneForAKnownMacroWithoutValue() {
        #expect(MacroExpander.expand("x?m=[MEDIAPLAYHEAD]", with: context) == "x?m=-1")
    }
}
