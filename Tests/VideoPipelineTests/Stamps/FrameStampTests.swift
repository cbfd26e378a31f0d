import Testing
@testable import VideoPipeline

@Suite struct FrameStampTests {
    @Test(arguments: ["content", "ad15", "ad5-a", "a", "12345678", "_-_-", "z9", "--------", "zzzzzzzz"])
    func acceptsSourceIDsOfOneToEightAllowedCharacters(id: String) throws {
        #expect(try FrameStamp(sourceID: id, frameIndex: 0).sourceID == id)
    }

    @Test(arguments: ["", "Ad15", "content12", "ad 15", "ad.5", "adé", "ad/5", "ad15\n"])
    func refusesOtherSourceIDsNamingThem(id: String) {
        #expect(throws: TestSourceError.invalidSourceID(id)) { try FrameStamp(sourceID: id, frameIndex: 0) }
        let message = TestSourceError.invalidSourceID(id).description
        #expect(message.contains("\"\(id)\"") && message.contains("1 to 8 characters"))
    }

    @Test func frameIndexesRunFromZeroBelowTwoToThe25() throws {
        #expect(FrameStamp.frameIndexLimit == 33_554_432)
        #expect(try FrameStamp(sourceID: "a", frameIndex: FrameStamp.frameIndexLimit - 1).frameIndex == 33_554_431)
        #expect(throws: TestSourceError.frameIndexOutOfRange(-1)) { try FrameStamp(sourceID: "a", frameIndex: -1) }
        #expect(throws: TestSourceError.frameIndexOutOfRange(1 << 25)) {
            try FrameStamp(sourceID: "a", frameIndex: 1 << 25)
        }
    }

    static let samples: [FrameStamp] = {
        let ids = ["content", "ad15", "ad5-a", "a", "-", "12345678", "zzzzzzzz", "_", "0"]
        let indexes = [0, 1, 2, 29, 1799, 123_456, 16_777_215, 16_777_216, FrameStamp.frameIndexLimit - 1]
        return ids.flatMap { id in indexes.map { try! FrameStamp(sourceID: id, frameIndex: $0) } }
    }()

    @Test func bitsRoundTrip() {
        for stamp in Self.samples { #expect(FrameStamp(bits: stamp.bits) == stamp) }
    }

    @Test func bitsFitInEightyFourCells() {
        #expect(StampLayout.dataColumns * StampLayout.dataRows == FrameStamp.totalBits)
        for stamp in Self.samples { #expect(stamp.bits >> FrameStamp.totalBits == 0) }
    }

    @Test func everyOneTwoOrThreeBitErrorIsRejected() {
        let bits = try! FrameStamp(sourceID: "ad5-a", frameIndex: 4242).bits
        let n = FrameStamp.totalBits
        for i in 0..<n {
            #expect(FrameStamp(bits: bits ^ (1 << UInt128(i))) == nil)
            for j in (i + 1)..<n {
                let two = bits ^ (1 << UInt128(i)) ^ (1 << UInt128(j))
                #expect(FrameStamp(bits: two) == nil)
                // Three-bit errors: a sample of them, every third bit for the third.
                for k in stride(from: j + 1, to: n, by: 3) {
                    #expect(FrameStamp(bits: two ^ (1 << UInt128(k))) == nil)
                }
            }
        }
    }

    @Test func anIDCodeNoIDProducesIsRejectedEvenWithAGoodChecksum() {
        // Digit 0 ("no character") before a real one: "a" after a gap.
        let id: UInt128 = 1 * 39 * 39
        let crc = CRC16.ccitt(id, bitCount: FrameStamp.payloadBits)
        #expect(FrameStamp(bits: id | UInt128(crc) << FrameStamp.payloadBits) == nil)
        let empty = CRC16.ccitt(0, bitCount: FrameStamp.payloadBits)
        #expect(FrameStamp(bits: UInt128(empty) << FrameStamp.payloadBits) == nil)
    }

    @Test func crcMatchesTheStandardCheckValue() {
        // CRC-16/CCITT-FALSE of ASCII "123456789" is 0x29B1.
        let bytes = Array("123456789".utf8)
        let value = bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
        #expect(CRC16.ccitt(value, bitCount: 72) == 0x29B1)
    }
}
