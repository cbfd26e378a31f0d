@testable import AdPlayback
import Testing

/// SCTE-35 cue messages read from real ones (published by encoders, SSAI services and the standard's examples) and
/// written back to the same bytes: the reader, the writer and the CRC are checked against messages pipctl did not make.
@Suite struct SpliceInfoSectionTests {
    typealias Insert = SpliceInfoSection.SpliceInsert

    /// Google's Live Stream API documentation: a 45 s break at a PTS with its 33rd bit set, auto-return.
    static let googleLiveStream = "/DAlAAAAAAAAAP/wFAVDE1agf+//yBysA/4APcxQAAAAAAAAXhEvvQ=="
    /// Unified Streaming's `EXT-X-DATERANGE` example: an immediate 19 s break, as `SCTE35-OUT`'s hexadecimal.
    static let unifiedStreaming = "0xFC302000000000000000FFF00F05000000147FFFFE001A17B0C0000000000061DFD67D"
    /// Edgeware's `EXT-X-SCTE35` example: a 22 s break with a `pts_adjustment`.
    static let edgeware = "/DAlAAETZlHBAP/wFAUAAAAWf+//UmtLsH4AHjZgAAAAAAAAsf7cfA=="
    /// The standard's splice_insert example, with an avail_descriptor ("CUEI").
    static let standardSample = "/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo="
    /// A time_signal with a segmentation_descriptor (tier 0, cw_index 0).
    static let timeSignal = "/DA0AAAAAAAAAAAABQb+ADAQ6QAeAhxDVUVJQAAAO3/PAAEUrEoICAAAAAAg+2UBNAAANvrtoQ=="

    @Test func readsRealSpliceInsertsFieldByField() throws {
        let google = try SpliceInfoSection(encoded: Self.googleLiveStream)
        var expected = Insert(eventID: 0x4313_56A0, outOfNetwork: true, pts: 0x1_C81C_AC03,
                              breakDuration: .init(autoReturn: true, duration: 45 * 90_000))
        #expect(google.command == .spliceInsert(expected))
        #expect(google.ptsAdjustment == 0 && google.cwIndex == 0 && google.tier == 0xFFF && google.descriptors.isEmpty)

        let unified = try SpliceInfoSection(encoded: Self.unifiedStreaming)
        expected = Insert(eventID: 20, outOfNetwork: true, pts: nil, breakDuration: .init(autoReturn: true, duration: 19 * 90_000),
                          uniqueProgramID: 0xC000)
        #expect(unified.command == .spliceInsert(expected))

        let edgeware = try SpliceInfoSection(encoded: Self.edgeware)
        #expect(edgeware.ptsAdjustment == 0x1_1366_51C1 && edgeware.cwIndex == 0)
        expected = Insert(eventID: 22, outOfNetwork: true, pts: 0x1_526B_4BB0, breakDuration: .init(autoReturn: false, duration: 22 * 90_000))
        #expect(edgeware.command == .spliceInsert(expected))

        let sample = try SpliceInfoSection(encoded: Self.standardSample)
        expected = Insert(eventID: 0x4800_008F, outOfNetwork: true, pts: 0x7369_C02E, breakDuration: .init(autoReturn: true, duration: 0x52_CCF5))
        #expect(sample.command == .spliceInsert(expected))
        #expect(sample.descriptors == [0x00, 0x08, 0x43, 0x55, 0x45, 0x49, 0x00, 0x00, 0x01, 0x35])

        let signal = try SpliceInfoSection(encoded: Self.timeSignal)
        #expect(signal.command == .timeSignal(pts: 3_150_057) && signal.tier == 0 && signal.descriptors.count == 30)
    }

    @Test(arguments: [googleLiveStream, edgeware, standardSample, timeSignal])
    func writesEachBackToTheSameBytes(_ base64: String) throws {
        #expect(try SpliceInfoSection(encoded: base64).base64 == base64)
    }

    @Test func writesHexadecimalAsHLSWantsIt() throws {
        #expect(try SpliceInfoSection(encoded: Self.unifiedStreaming).hexadecimal == Self.unifiedStreaming)
    }

    /// What pipctl writes for a break: the out cue with the break's duration, the in cue without, same event id.
    @Test func aBreaksCuesReadBack() throws {
        var out = SpliceInfoSection(command: .spliceInsert(Insert(eventID: 7, outOfNetwork: true, pts: 2_700_000,
                                                                 breakDuration: .init(autoReturn: true, duration: 1_350_000))))
        out.descriptors = []
        let cueIn = SpliceInfoSection(command: .spliceInsert(Insert(eventID: 7, outOfNetwork: false, pts: 4_050_000)))
        for section in [out, cueIn] {
            #expect(try SpliceInfoSection(bytes: section.bytes) == section)
            #expect(try SpliceInfoSection(encoded: section.hexadecimal) == section)
            #expect(SpliceInfoSection.crc32(section.bytes) == 0)
        }
        // A PTS past 33 bits wraps, as the 90 kHz clock does.
        let wrapped = SpliceInfoSection(command: .spliceInsert(Insert(eventID: 1, outOfNetwork: true, pts: SpliceInfoSection.ptsModulus + 5)))
        #expect(try SpliceInfoSection(bytes: wrapped.bytes).command == .spliceInsert(Insert(eventID: 1, outOfNetwork: true, pts: 5)))
    }

    @Test func badMessagesAreOneLineErrors() throws {
        var bytes = try SpliceInfoSection(encoded: Self.googleLiveStream).bytes
        bytes[20] ^= 0x01
        #expect(throws: SCTE35Error.self) { try SpliceInfoSection(bytes: bytes) }
        #expect(Self.error(bytes).hasPrefix("SCTE-35: CRC_32 is 0x5E112FBD, the section's is 0x"))
        #expect(Self.error([0xFC, 0x30]) == "SCTE-35: the section ends inside section_length")
        #expect(Self.error([0x02, 0x30, 0x00]) == "SCTE-35: table_id 0x2 is not 0xFC (splice_info_section)")
        let good = try SpliceInfoSection(encoded: Self.googleLiveStream).bytes
        #expect(Self.error(Array(good.dropLast())) == "SCTE-35: section_length says 37 bytes, 36 follow it")
        #expect(throws: SCTE35Error.notEncoded("0x1")) { try SpliceInfoSection(encoded: "0x1") }
        #expect(throws: SCTE35Error.notEncoded("not base64!")) { try SpliceInfoSection(encoded: "not base64!") }
        // A splice_command_length that disagrees with the command is refused, with a correct CRC.
        var section = SpliceInfoSection(command: .spliceInsert(Insert(eventID: 1, outOfNetwork: true, pts: nil)))
        var long = section.bytes.dropLast(4).map { $0 }
        long[12] = 0x20  // splice_command_length 0x020, the command has 0x0A bytes
        let crc = SpliceInfoSection.crc32(long)
        long += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        #expect(Self.error(long) == "SCTE-35: splice_command_length: 32, the command has 10 bytes")
        section.command = .spliceNull
        #expect(try SpliceInfoSection(bytes: section.bytes).command == .spliceNull)
    }

    static func error(_ bytes: [UInt8]) -> String {
        do { _ = try SpliceInfoSection(bytes: bytes); return "no error" } catch { return error.description }
    }
}
