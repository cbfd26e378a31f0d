import AdPlayback

/// HMAC-SHA256 (RFC 2104 over FIPS 180-4's SHA-256, checked against RFC 4231's vectors): what signs a shared
/// session's token and its decision record with `--secret-file`'s secret.
package enum HMACSHA256 {
    /// SHA-256's block: a longer key is hashed first, a shorter one padded with zeros.
    static let blockBytes = 64

    /// The 32-byte code of `message` under `key`: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ message)).
    package static func code(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > blockBytes ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: blockBytes - block.count)
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5C } + inner)
    }

    /// Whether `a` and `b` are the same bytes, in a time that depends on their lengths only, never on where they
    /// first differ (so that a forger learns nothing from how long a refusal takes).
    package static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
