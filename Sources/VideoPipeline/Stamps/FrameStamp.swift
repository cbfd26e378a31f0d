/// The identity of one synthetic video frame: which test source it comes from and its index in that source.
///
/// `pipctl testsrc` draws a stamp into every frame it generates (`StampWriter`), and `pipctl verify` reads it
/// back (`StampReader`) to prove which source frame is on screen at each output frame. On the picture, a stamp
/// is 84 bits: the source id (43 bits), the frame index (25 bits) and a CRC-16 of both (see `StampLayout`).
public struct FrameStamp: Hashable, Sendable, CustomStringConvertible {
    /// The test source: 1 to 8 characters from `a-z 0-9 _ -` (what `pipctl testsrc --id` accepts).
    public let sourceID: String
    /// The frame's index in its source, in `0..<FrameStamp.frameIndexLimit`.
    public let frameIndex: Int

    /// One past the largest frame index a stamp carries: 2^25 (over 12 days of frames at 30 fps).
    public static let frameIndexLimit = 1 << frameIndexBits
    /// The most characters a source id may have.
    public static let maxSourceIDLength = 8
    /// The characters a source id may use, in the order of their code in the stamp.
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789_-".utf8)

    static let sourceIDBits = 43
    static let frameIndexBits = 25
    static let checksumBits = 16
    static let payloadBits = sourceIDBits + frameIndexBits
    static let totalBits = payloadBits + checksumBits

    /// Creates a stamp after checking both values.
    ///
    /// - Throws: `TestSourceError.invalidSourceID` or `.frameIndexOutOfRange`.
    public init(sourceID: String, frameIndex: Int) throws(TestSourceError) {
        try FrameStamp.validate(sourceID: sourceID)
        guard frameIndex >= 0, frameIndex < FrameStamp.frameIndexLimit else {
            throw .frameIndexOutOfRange(frameIndex)
        }
        self.sourceID = sourceID
        self.frameIndex = frameIndex
    }

    /// Checks that `sourceID` can be carried by a stamp (and so used as a test source id).
    ///
    /// - Throws: `TestSourceError.invalidSourceID` when it is empty, longer than 8 characters or has a character
    ///   outside `a-z 0-9 _ -`.
    public static func validate(sourceID: String) throws(TestSourceError) {
        let bytes = Array(sourceID.utf8)
        guard (1...maxSourceIDLength).contains(bytes.count), bytes.allSatisfy(alphabet.contains) else {
            throw .invalidSourceID(sourceID)
        }
    }

    public var description: String { "\(sourceID)#\(frameIndex)" }
}

extension FrameStamp {
    /// The 84 bits drawn on the picture, bit `i` for cell `i`: source id, frame index, then the CRC of both.
    var bits: UInt128 {
        // Source id: base 39, first character least significant, digit 0 marking "no character".
        var id: UInt64 = 0
        for byte in sourceID.utf8.reversed() {
            id = id * 39 + UInt64(FrameStamp.alphabet.firstIndex(of: byte)! + 1)
        }
        let payload = UInt128(id) | UInt128(frameIndex) << FrameStamp.sourceIDBits
        let crc = CRC16.ccitt(payload, bitCount: FrameStamp.payloadBits)
        return payload | UInt128(crc) << FrameStamp.payloadBits
    }

    /// The stamp whose `bits` are `bits`, or `nil` when the checksum does not match or the id code is not one
    /// that `bits` could have produced.
    init?(bits: UInt128) {
        let payloadMask = (UInt128(1) << FrameStamp.payloadBits) - 1
        let payload = bits & payloadMask
        let crc = UInt16(truncatingIfNeeded: bits >> FrameStamp.payloadBits)
        guard bits >> FrameStamp.totalBits == 0,
              CRC16.ccitt(payload, bitCount: FrameStamp.payloadBits) == crc else { return nil }
        var id = UInt64(truncatingIfNeeded: payload & ((UInt128(1) << FrameStamp.sourceIDBits) - 1))
        var bytes: [UInt8] = []
        var ended = false
        for _ in 0..<FrameStamp.maxSourceIDLength {
            let digit = Int(id % 39)
            id /= 39
            if digit == 0 {
                ended = true
            } else {
                guard !ended else { return nil }
                bytes.append(FrameStamp.alphabet[digit - 1])
            }
        }
        guard id == 0, !bytes.isEmpty else { return nil }
        let index = Int(truncatingIfNeeded: payload >> FrameStamp.sourceIDBits)
        self.sourceID = String(decoding: bytes, as: UTF8.self)
        self.frameIndex = index
    }
}
