/// CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF) over a bit string.
///
/// Within the 68 payload bits of a stamp it detects every error of up to 3 bits and every burst of up to 16,
/// and lets through only 1 in 65536 random patterns; the non-zero initial value rejects an all-black code.
enum CRC16 {
    /// The CRC of the low `bitCount` bits of `value`, most significant bit first.
    static func ccitt(_ value: UInt128, bitCount: Int) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for i in stride(from: bitCount - 1, through: 0, by: -1) {
            let bit = UInt16(truncatingIfNeeded: value >> i) & 1
            let feedback = (crc >> 15) ^ bit
            crc <<= 1
            if feedback != 0 { crc ^= 0x1021 }
        }
        return crc
    }
}
