import Foundation

/// 64-bit FNV-1a: a stable hash of bytes, the same on every machine and in every run (Swift's `Hasher` is seeded
/// per process). It places jobs in shards and names manifest versions; it is not a defence against forgery.
enum Fingerprint {
    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// The hash as 16 lowercase hex digits.
    static func hex<Bytes: Sequence>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let h = hash(bytes)
        let digits = String(h, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
