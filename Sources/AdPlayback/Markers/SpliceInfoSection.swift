import Foundation

/// An SCTE-35 `splice_info_section()` (ANSI/SCTE 35, §9.6): the cue message an HLS `EXT-X-DATERANGE` carries in
/// `SCTE35-OUT`/`SCTE35-IN` and `EXT-X-OATCLS-SCTE35` in base64.
///
/// Read and written exactly: `init(bytes:)` followed by `bytes` gives the same bytes for every unencrypted section
/// (reserved bits are written as ones, as the standard asks, and read without being checked). The commands pipctl
/// writes are `splice_insert()` and `time_signal()`; `splice_null()` is read too, and any other command is kept as
/// its bytes. Encrypted sections are refused: their command cannot be read without the key.
public struct SpliceInfoSection: Hashable, Sendable {
    /// `pts_adjustment`: 33 bits added to every `pts_time` of the section (90 kHz).
    public var ptsAdjustment: UInt64 = 0
    /// `cw_index`: the control word's index; meaningless when unencrypted (0xFF is written by convention).
    public var cwIndex: UInt8 = 0xFF
    /// `tier`: 12 bits, 0xFFF for "all tiers".
    public var tier: UInt16 = 0xFFF
    public var command: Command
    /// The descriptor loop as bytes (`splice_descriptor()`s, e.g. a `segmentation_descriptor`), unparsed.
    public var descriptors: [UInt8] = []

    /// `splice_command()`.
    public enum Command: Hashable, Sendable {
        /// `splice_null()` (type 0x00): a heartbeat.
        case spliceNull
        /// `splice_insert()` (type 0x05).
        case spliceInsert(SpliceInsert)
        /// `time_signal()` (type 0x06): a `splice_time()`; its meaning is in the descriptors.
        case timeSignal(pts: UInt64?)
        /// Any other command, by its `splice_command_type`, kept as its bytes.
        case other(type: UInt8, bytes: [UInt8])
    }

    /// `splice_insert()` in program splice mode (component mode, deprecated, is read as a list of components).
    public struct SpliceInsert: Hashable, Sendable {
        public var eventID: UInt32
        /// `splice_event_cancel_indicator`: a cancelled event carries no other field.
        public var cancelled = false
        /// `out_of_network_indicator`: true at the start of a break (leaving the network), false at its end.
        public var outOfNetwork = true
        /// `pts_time` of the splice point (90 kHz, 33 bits, before `pts_adjustment`); `nil` is `splice_immediate`.
        public var pts: UInt64?
        /// Component splice mode (`program_splice_flag` 0): each component's tag and `pts_time`.
        public var components: [Component]?
        /// `break_duration()`: the break's length (90 kHz, 33 bits) and whether the splicer returns by itself.
        public var breakDuration: BreakDuration?
        public var uniqueProgramID: UInt16 = 0
        public var availNum: UInt8 = 0
        public var availsExpected: UInt8 = 0

        public struct Component: Hashable, Sendable {
            public var tag: UInt8
            public var pts: UInt64?
        }

        public struct BreakDuration: Hashable, Sendable {
            public var autoReturn: Bool
            public var duration: UInt64

            public init(autoReturn: Bool, duration: UInt64) {
                self.autoReturn = autoReturn
                self.duration = duration
            }
        }

        public init(eventID: UInt32, outOfNetwork: Bool, pts: UInt64?, breakDuration: BreakDuration? = nil,
                    uniqueProgramID: UInt16 = 0, availNum: UInt8 = 0, availsExpected: UInt8 = 0) {
            self.eventID = eventID
            self.outOfNetwork = outOfNetwork
            self.pts = pts
            self.breakDuration = breakDuration
            self.uniqueProgramID = uniqueProgramID
            self.availNum = availNum
            self.availsExpected = availsExpected
        }
    }

    public init(command: Command) { self.command = command }

    /// The 90 kHz clock of every `pts_time` and duration, and the 33 bits they wrap at.
    public static let clockRate: Int64 = 90_000
    public static let ptsModulus: UInt64 = 1 << 33
}

/// Why a cue message could not be read.
public enum SCTE35Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes end inside `field`.
    case truncated(field: String)
    /// A `table_id` other than 0xFC.
    case notASpliceInfoSection(tableID: UInt8)
    /// `section_length` disagrees with the bytes given.
    case sectionLength(declared: Int, actual: Int)
    /// The CRC_32 over the section is not zero.
    case checksum(found: UInt32, computed: UInt32)
    case encrypted
    /// A field whose value the standard does not allow.
    case invalid(field: String, reason: String)
    /// Text that is not base64 or hexadecimal.
    case notEncoded(String)

    public var description: String {
        switch self {
        case .truncated(let field): "SCTE-35: the section ends inside \(field)"
        case .notASpliceInfoSection(let id): "SCTE-35: table_id 0x\(String(id, radix: 16, uppercase: true)) is not 0xFC (splice_info_section)"
        case .sectionLength(let declared, let actual): "SCTE-35: section_length says \(declared) bytes, \(actual) follow it"
        case .checksum(let found, let computed):
            "SCTE-35: CRC_32 is 0x\(String(found, radix: 16, uppercase: true)), the section's is 0x\(String(computed, radix: 16, uppercase: true))"
        case .encrypted: "SCTE-35: the section is encrypted"
        case .invalid(let field, let reason): "SCTE-35: \(field): \(reason)"
        case .notEncoded(let text): "SCTE-35: \"\(text.prefix(40))\" is neither base64 nor 0x-prefixed hexadecimal"
        }
    }
}
