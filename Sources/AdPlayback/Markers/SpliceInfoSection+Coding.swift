import Foundation

extension SpliceInfoSection {
    /// Reads a section from its bytes: the whole of them, checked against `section_length` and the CRC_32.
    public init(bytes: [UInt8]) throws(SCTE35Error) {
        var r = BitReader(bytes)
        let tableID = UInt8(try r.read(8, "table_id"))
        guard tableID == 0xFC else { throw .notASpliceInfoSection(tableID: tableID) }
        try r.skip(4, "section_syntax_indicator")  // with private_indicator and sap_type
        let length = Int(try r.read(12, "section_length"))
        guard length == bytes.count - 3 else { throw .sectionLength(declared: length, actual: bytes.count - 3) }
        let crc = SpliceInfoSection.crc32(bytes)
        guard crc == 0 else {
            let found = bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            throw .checksum(found: found, computed: SpliceInfoSection.crc32(bytes.dropLast(4)))
        }
        let version = try r.read(8, "protocol_version")
        guard version == 0 else { throw .invalid(field: "protocol_version", reason: "\(version) is not 0") }
        guard try r.read(1, "encrypted_packet") == 0 else { throw .encrypted }
        try r.skip(6, "encryption_algorithm")
        var section = SpliceInfoSection(command: .spliceNull)
        section.ptsAdjustment = try r.read(33, "pts_adjustment")
        section.cwIndex = UInt8(try r.read(8, "cw_index"))
        section.tier = UInt16(try r.read(12, "tier"))
        let commandLength = Int(try r.read(12, "splice_command_length"))
        let type = UInt8(try r.read(8, "splice_command_type"))
        let start = r.bytePosition
        switch type {
        case 0x00: section.command = .spliceNull
        case 0x05: section.command = .spliceInsert(try SpliceInsert(&r))
        case 0x06: section.command = .timeSignal(pts: try r.spliceTime("time_signal.splice_time"))
        default:
            // 0xFFF: a legacy length the reader must work out; for an unknown command it cannot.
            guard commandLength != 0xFFF else { throw .invalid(field: "splice_command_length", reason: "0xFFF with command type \(type)") }
            section.command = .other(type: type, bytes: try r.bytes(commandLength, "splice_command"))
        }
        guard commandLength == 0xFFF || r.bytePosition - start == commandLength else {
            throw .invalid(field: "splice_command_length", reason: "\(commandLength), the command has \(r.bytePosition - start) bytes")
        }
        let loop = Int(try r.read(16, "descriptor_loop_length"))
        section.descriptors = try r.bytes(loop, "splice_descriptor")
        guard r.bytePosition == bytes.count - 4 else {
            throw .invalid(field: "descriptor_loop_length", reason: "\(bytes.count - 4 - r.bytePosition) bytes are left before CRC_32")
        }
        self = section
    }

    /// Reads base64 (as `EXT-X-OATCLS-SCTE35` and most tools write it) or `0x` hexadecimal (as `EXT-X-DATERANGE`'s
    /// `SCTE35-OUT` does).
    public init(encoded text: String) throws(SCTE35Error) {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            let digits = Array(text.dropFirst(2).utf8)
            guard digits.count.isMultiple(of: 2), digits.count <= 8192 else { throw .notEncoded(text) }
            var bytes: [UInt8] = []
            for i in stride(from: 0, to: digits.count, by: 2) {
                guard let byte = UInt8(String(decoding: digits[i...i + 1], as: UTF8.self), radix: 16) else { throw .notEncoded(text) }
                bytes.append(byte)
            }
            try self.init(bytes: bytes)
        } else {
            guard text.utf8.count <= 8192, let data = Data(base64Encoded: text) else { throw .notEncoded(text) }
            try self.init(bytes: [UInt8](data))
        }
    }

    /// The section's bytes, its `section_length` and CRC_32 computed.
    public var bytes: [UInt8] {
        var w = BitWriter()
        w.write(0xFC, 8)
        w.write(0, 1)  // section_syntax_indicator
        w.write(0, 1)  // private_indicator
        w.write(3, 2)  // sap_type: not specified
        let lengthAt = w.bytes.count
        w.write(0, 12)  // section_length, set below
        w.write(0, 8)  // protocol_version
        w.write(0, 1)  // encrypted_packet
        w.write(0, 6)  // encryption_algorithm
        w.write(ptsAdjustment % SpliceInfoSection.ptsModulus, 33)
        w.write(UInt64(cwIndex), 8)
        w.write(UInt64(tier & 0xFFF), 12)
        var command = BitWriter()
        let type: UInt8
        switch self.command {
        case .spliceNull: type = 0x00
        case .spliceInsert(let insert): type = 0x05; insert.write(&command)
        case .timeSignal(let pts): type = 0x06; command.spliceTime(pts)
        case .other(let t, let bytes): type = t; command.append(bytes)
        }
        w.write(UInt64(command.bytes.count), 12)
        w.write(UInt64(type), 8)
        w.append(command.bytes)
        w.write(UInt64(descriptors.count), 16)
        w.append(descriptors)
        var out = w.bytes
        let length = out.count + 4 - 3
        out[lengthAt - 1] = out[lengthAt - 1] & 0xF0 | UInt8(length >> 8 & 0x0F)
        out[lengthAt] = UInt8(length & 0xFF)
        let crc = SpliceInfoSection.crc32(out)
        out += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return out
    }

    /// `bytes` in base64.
    public var base64: String { Data(bytes).base64EncodedString() }
    /// `bytes` as an HLS hexadecimal-sequence: `0x` and upper-case digits.
    public var hexadecimal: String { "0x" + bytes.map { String(format: "%02X", $0) }.joined() }

    /// CRC-32/MPEG-2 (polynomial 0x04C11DB7, initial 0xFFFFFFFF, no reflection, no final xor); over a whole section,
    /// its CRC_32 included, it is zero.
    static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}

extension SpliceInfoSection.SpliceInsert {
    fileprivate init(_ r: inout BitReader) throws(SCTE35Error) {
        self.init(eventID: UInt32(try r.read(32, "splice_event_id")), outOfNetwork: false, pts: nil)
        cancelled = try r.read(1, "splice_event_cancel_indicator") == 1
        try r.skip(7, "reserved")
        guard !cancelled else { return }
        outOfNetwork = try r.read(1, "out_of_network_indicator") == 1
        let program = try r.read(1, "program_splice_flag") == 1
        let hasDuration = try r.read(1, "duration_flag") == 1
        let immediate = try r.read(1, "splice_immediate_flag") == 1
        try r.skip(4, "reserved")
        if program {
            if !immediate { pts = try r.spliceTime("splice_insert.splice_time") }
        } else {
            var list: [Component] = []
            for _ in 0..<(try r.read(8, "component_count")) {
                let tag = UInt8(try r.read(8, "component_tag"))
                list.append(Component(tag: tag, pts: immediate ? nil : try r.spliceTime("component splice_time")))
            }
            components = list
        }
        if hasDuration {
            let autoReturn = try r.read(1, "auto_return") == 1
            try r.skip(6, "reserved")
            breakDuration = BreakDuration(autoReturn: autoReturn, duration: try r.read(33, "break_duration.duration"))
        }
        uniqueProgramID = UInt16(try r.read(16, "unique_program_id"))
        availNum = UInt8(try r.read(8, "avail_num"))
        availsExpected = UInt8(try r.read(8, "avails_expected"))
    }

    fileprivate func write(_ w: inout BitWriter) {
        w.write(UInt64(eventID), 32)
        w.write(cancelled ? 1 : 0, 1)
        w.write(0x7F, 7)
        guard !cancelled else { return }
        let immediate = components.map { $0.allSatisfy { $0.pts == nil } } ?? (pts == nil)
        w.write(outOfNetwork ? 1 : 0, 1)
        w.write(components == nil ? 1 : 0, 1)
        w.write(breakDuration == nil ? 0 : 1, 1)
        w.write(immediate ? 1 : 0, 1)
        w.write(0xF, 4)
        if let components {
            w.write(UInt64(components.count), 8)
            for component in components {
                w.write(UInt64(component.tag), 8)
                if !immediate { w.spliceTime(component.pts) }
            }
        } else if !immediate {
            w.spliceTime(pts)
        }
        if let breakDuration {
            w.write(breakDuration.autoReturn ? 1 : 0, 1)
            w.write(0x3F, 6)
            w.write(breakDuration.duration % SpliceInfoSection.ptsModulus, 33)
        }
        w.write(UInt64(uniqueProgramID), 16)
        w.write(UInt64(availNum), 8)
        w.write(UInt64(availsExpected), 8)
    }
}

/// Reads big-endian bit fields from bytes, never past their end.
private struct BitReader {
    let bytes: [UInt8]
    private var bit = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var bytePosition: Int { bit / 8 }

    mutating func read(_ count: Int, _ field: String) throws(SCTE35Error) -> UInt64 {
        guard bit + count <= bytes.count * 8 else { throw .truncated(field: field) }
        var value: UInt64 = 0
        for _ in 0..<count {
            value = value << 1 | UInt64(bytes[bit / 8] >> (7 - UInt8(bit % 8)) & 1)
            bit += 1
        }
        return value
    }

    mutating func skip(_ count: Int, _ field: String) throws(SCTE35Error) { _ = try read(count, field) }

    /// `count` whole bytes (the reader is on a byte boundary wherever the syntax has a byte loop).
    mutating func bytes(_ count: Int, _ field: String) throws(SCTE35Error) -> [UInt8] {
        guard bit % 8 == 0, bytePosition + count <= bytes.count - 4 else { throw .truncated(field: field) }
        defer { bit += count * 8 }
        return Array(bytes[bytePosition..<bytePosition + count])
    }

    /// `splice_time()`: its `pts_time` when `time_specified_flag` is set.
    mutating func spliceTime(_ field: String) throws(SCTE35Error) -> UInt64? {
        guard try read(1, field + ".time_specified_flag") == 1 else {
            try skip(7, field)
            return nil
        }
        try skip(6, field)
        return try read(33, field + ".pts_time")
    }
}

/// Writes big-endian bit fields.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bit = 0

    /// Whole bytes, on a byte boundary (every byte loop of the syntax is on one).
    mutating func append(_ more: [UInt8]) {
        precondition(bit % 8 == 0)
        bytes += more
        bit += more.count * 8
    }

    mutating func write(_ value: UInt64, _ count: Int) {
        for i in stride(from: count - 1, through: 0, by: -1) {
            if bit % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8(value >> UInt64(i) & 1) << (7 - UInt8(bit % 8))
            bit += 1
        }
    }

    mutating func spliceTime(_ pts: UInt64?) {
        if let pts {
            write(1, 1)
            write(0x3F, 6)
            write(pts % SpliceInfoSection.ptsModulus, 33)
        } else {
            write(0, 1)
            write(0x7F, 7)
        }
    }
}
