import MediaCore

/// H.264 parameter sets as an MP4 `avcC` box holds them (ISO/IEC 14496-15 §5.3.3.1), and the NAL-unit plumbing a
/// splice of copied and re-encoded pictures needs: reading `avcC` and Annex B, the ids of SPS and PPS, and writing an
/// `avcC` that carries two encoders' sets side by side so that one track can switch between them at an IDR.
struct AVCParameterSets: Hashable {
    var profile: UInt8
    var compatibility: UInt8
    var level: UInt8
    /// Bytes of each NAL unit's length prefix in the samples (1, 2 or 4).
    var lengthSize: Int
    var sequenceSets: [[UInt8]]
    var pictureSets: [[UInt8]]
    /// What follows the PPS list for High profiles (chroma format, bit depths, SPS extensions), kept as is.
    var trailer: [UInt8] = []

    /// Reads an `avcC` record.
    init(avcC bytes: [UInt8]) throws(MediaError) {
        func bad(_ why: String) -> MediaError { .invalidSetting(name: "avcC", value: "\(bytes.count) bytes", reason: why) }
        guard bytes.count >= 7, bytes[0] == 1 else { throw bad("not an AVCDecoderConfigurationRecord") }
        profile = bytes[1]
        compatibility = bytes[2]
        level = bytes[3]
        lengthSize = Int(bytes[4] & 3) + 1
        guard lengthSize != 3 else { throw bad("a NAL length of 3 bytes") }
        var at = 6
        func sets(count: Int) throws(MediaError) -> [[UInt8]] {
            var list: [[UInt8]] = []
            for _ in 0..<count {
                guard at + 2 <= bytes.count else { throw bad("ends inside a parameter set's length") }
                let length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                guard at + 2 + length <= bytes.count, length > 0 else { throw bad("ends inside a parameter set") }
                list.append(Array(bytes[at + 2..<at + 2 + length]))
                at += 2 + length
            }
            return list
        }
        sequenceSets = try sets(count: Int(bytes[5] & 0x1F))
        guard at < bytes.count else { throw bad("has no PPS count") }
        let ppsCount = Int(bytes[at])
        at += 1
        pictureSets = try sets(count: ppsCount)
        trailer = Array(bytes[at...])
        guard !sequenceSets.isEmpty, !pictureSets.isEmpty else { throw bad("has no SPS or no PPS") }
    }

    /// Reads the SPS and PPS of Annex B extradata (start codes), as libx264 gives them.
    init(annexB bytes: [UInt8]) throws(MediaError) {
        let units = AVCParameterSets.nalUnits(annexB: bytes)
        sequenceSets = units.filter { $0.first.map { $0 & 0x1F == 7 } ?? false }
        pictureSets = units.filter { $0.first.map { $0 & 0x1F == 8 } ?? false }
        guard let sps = sequenceSets.first, sps.count >= 4, !pictureSets.isEmpty else {
            throw .invalidSetting(name: "extradata", value: "\(bytes.count) bytes", reason: "has no SPS or no PPS")
        }
        profile = sps[1]
        compatibility = sps[2]
        level = sps[3]
        lengthSize = 4
    }

    /// The record with `other`'s sets after these (ids must differ), 4-byte lengths.
    func merged(with other: AVCParameterSets) -> AVCParameterSets {
        var merged = self
        merged.sequenceSets += other.sequenceSets
        merged.pictureSets += other.pictureSets
        merged.lengthSize = 4
        return merged
    }

    var avcC: [UInt8] {
        var out: [UInt8] = [1, profile, compatibility, level, 0xFC | UInt8(lengthSize - 1), 0xE0 | UInt8(sequenceSets.count)]
        for sps in sequenceSets { out += [UInt8(sps.count >> 8), UInt8(sps.count & 0xFF)] + sps }
        out.append(UInt8(pictureSets.count))
        for pps in pictureSets { out += [UInt8(pps.count >> 8), UInt8(pps.count & 0xFF)] + pps }
        return out + trailer
    }

    /// `seq_parameter_set_id` of each SPS.
    var sequenceSetIDs: [Int] { sequenceSets.compactMap { AVCParameterSets.firstExpGolomb(in: $0, skippingBytes: 4) } }
    /// `pic_parameter_set_id` of each PPS.
    var pictureSetIDs: [Int] { pictureSets.compactMap { AVCParameterSets.firstExpGolomb(in: $0, skippingBytes: 1) } }

    /// The NAL units between the start codes of an Annex B byte stream.
    static func nalUnits(annexB bytes: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = [], start: Int?, i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                if let s = start { units.append(trimmed(bytes[s..<i])) }
                i += 3
                start = i
            } else {
                i += 1
            }
        }
        if let s = start, s < bytes.count { units.append(Array(bytes[s...])) }
        return units.filter { !$0.isEmpty }
    }

    /// The NAL units of a length-prefixed sample.
    static func nalUnits(lengthPrefixed bytes: UnsafeBufferPointer<UInt8>, lengthSize: Int) -> [UnsafeBufferPointer<UInt8>]? {
        var units: [UnsafeBufferPointer<UInt8>] = [], at = 0
        while at < bytes.count {
            guard at + lengthSize <= bytes.count else { return nil }
            var length = 0
            for k in 0..<lengthSize { length = length << 8 | Int(bytes[at + k]) }
            at += lengthSize
            guard length > 0, at + length <= bytes.count else { return nil }
            units.append(UnsafeBufferPointer(rebasing: bytes[at..<at + length]))
            at += length
        }
        return units
    }

    /// A start code's leading zero (`00 00 00 01`) belongs to the next unit's code, not to this unit.
    private static func trimmed(_ unit: ArraySlice<UInt8>) -> [UInt8] {
        var end = unit.endIndex
        while end > unit.startIndex, unit[end - 1] == 0 { end -= 1 }
        return Array(unit[unit.startIndex..<end])
    }

    /// The first ue(v) after `skippingBytes` bytes of an RBSP (emulation prevention bytes removed first).
    static func firstExpGolomb(in unit: [UInt8], skippingBytes: Int) -> Int? {
        var rbsp: [UInt8] = [], zeros = 0
        for byte in unit {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            rbsp.append(byte)
        }
        var bit = skippingBytes * 8, leading = 0
        func next() -> Int? {
            guard bit / 8 < rbsp.count else { return nil }
            defer { bit += 1 }
            return Int(rbsp[bit / 8] >> (7 - UInt8(bit % 8)) & 1)
        }
        while let b = next(), b == 0 { leading += 1; if leading > 31 { return nil } }
        var value = 0
        for _ in 0..<leading { guard let b = next() else { return nil }; value = value << 1 | b }
        return (1 << leading) - 1 + value
    }
}
