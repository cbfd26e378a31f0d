import MediaCore
import Testing

/// How error messages quote a user's value: whole when short, else cut with its length.
@Suite struct ExcerptTests {
    @Test func aShortValueIsQuotedWhole() {
        #expect("pip on@12".excerpt == "pip on@12")
        let exactly = String(repeating: "é", count: excerptLimit)
        #expect(exactly.excerpt == exactly)
    }

    @Test func aLongValueKeepsItsFirstCharactersAndSaysHowLongItIs() {
        let text = String(repeating: "ab", count: 5_000) + "tail"
        let quoted = text.excerpt
        #expect(quoted.hasPrefix(String(text.prefix(excerptLimit))))
        #expect(!quoted.contains("tail"))
        #expect(quoted.hasSuffix("… (10004 bytes in all)"))
        #expect(quoted.count < excerptLimit + 30)
    }

    @Test func aSubstringIsCutTheSameWay() {
        let text = String(repeating: "x", count: 1_000)
        #expect(text.dropFirst(10).excerpt == String(repeating: "x", count: excerptLimit) + "… (990 bytes in all)")
    }
}
