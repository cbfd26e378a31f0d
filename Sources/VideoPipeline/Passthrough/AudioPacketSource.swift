import CFFmpeg
import MediaCore

/// A file's AAC packets, for the passthrough track that copies them (`SplicedAudioTrack`): the content's, or an
/// ad's whose sound is in the output's format. Checked once when opened, then read forward packet by packet, seeking
/// only when a run starts elsewhere.
///
/// Made on the render's thread, then read only by the thread that writes the output (`OutputStage`'s).
///
/// Packets are addressed by **source position**, the sample index `MediaSource` reads the file's sound by (samples
/// from the file's start time), so that the render's own reading of the sound and the copied packets agree on
/// which samples a packet holds: the packet stamped `Q` (in samples) holds positions `[Q − origin, Q − origin + 1024)`.
public final class AudioPacketSource: @unchecked Sendable {
    /// Samples per AAC-LC packet.
    static let packetSize: Int64 = 1024

    public var path: String { input.path }
    /// Where the file's packets start, as source positions modulo `packetSize`.
    let phase: Int64
    /// Where its sound must be read from for its packets to land on the output's.
    public let grid: AudioCopyGrid

    private let input: InputFile
    private let stream: Int
    private let timeBase: Rational
    private let sampleRate: Int64
    /// The file's start time, in samples: what `MediaSource` counts positions from.
    private let origin: Int64
    private let packet: Packet
    /// The source position of the packet in `packet`, when one is there, and whether it was handed out (the
    /// muxer takes a packet's data).
    private var held: Int64?
    private var given = false

    /// Opens the sound of `path` to be copied into an AAC track whose encoder has the `AudioSpecificConfig`
    /// `config` and whose packets start at output samples `outputPhase` modulo the packet size.
    /// - Throws: `.cannotCopy` with the reason when its sound is not AAC-LC with the same rate and channels, or its
    ///   packets are not stamped on its sample clock.
    init(path: String, format: OutputFormat, config: [UInt8], outputPhase: Int64) throws(MediaError) {
        input = try InputFile(path: path)
        func no(_ why: CopyRefusal) -> MediaError { .cannotCopy(path: path, reason: why) }
        guard let index = input.bestStream(.audio) else { throw no(.noSound) }
        stream = index
        let par = input.parameters(ofStream: index)
        guard par.codecID == AV_CODEC_ID_AAC else { throw no(.soundCodec(par.codecName)) }
        guard par.sampleRate == format.sampleRate, par.channels == format.channels else {
            throw no(.soundFormat(sampleRate: Int(par.sampleRate), channels: Int(par.channels), outputSampleRate: format.sampleRate, outputChannels: format.channels))
        }
        guard let theirs = AudioPacketSource.essentials(of: par.extradata) else { throw no(.notAACLC) }
        guard theirs == AudioPacketSource.essentials(of: config) else {
            throw no(.otherAACConfiguration)
        }
        sampleRate = Int64(format.sampleRate)
        timeBase = input.timeBase(ofStream: index) ?? Rational(1, sampleRate)
        let start = (input.startTime ?? .zero).seconds * Rational(sampleRate)
        origin = start.rounded
        input.discardAll(except: index)
        packet = try Packet()
        guard try input.readPacket(ofStream: index, into: packet) else { throw no(.noSoundPackets) }
        guard let pts = packet.pts, (Rational(pts) * timeBase * Rational(sampleRate)).isInteger else {
            throw no(.unstampedSound)
        }
        let position = (Rational(pts) * timeBase * Rational(sampleRate)).numerator - origin
        phase = AudioPacketSource.modulo(position, AudioPacketSource.packetSize)
        grid = AudioCopyGrid(outputPhase: outputPhase, sourcePhase: phase)
        held = position
    }

    /// The packet holding source positions `[position, position + 1024)`, read into the returned packet (valid
    /// until the next call); `nil` when the file has no such packet (another grid, a gap, past its end) or it is
    /// shorter than a whole packet.
    func packet(at position: Int64) throws(MediaError) -> Packet? {
        if held.map({ $0 > position || ($0 == position && given) || position - $0 > 10 * sampleRate }) ?? true {
            let target = Rational(position + origin, sampleRate) / timeBase
            try input.seek(stream: stream, to: target.floor)
            held = nil
        }
        while true {
            if let held, held >= position {
                let duration = Rational(packet.duration) * timeBase * Rational(sampleRate)
                guard held == position, duration == Rational(AudioPacketSource.packetSize) else { return nil }
                given = true
                return packet
            }
            guard try input.readPacket(ofStream: stream, into: packet), let next = try samples(packet) else {
                held = nil
                return nil
            }
            held = next
            given = false
        }
    }

    /// The source position a packet starts at; `nil` when its stamp is missing or between samples.
    private func samples(_ packet: Packet) throws(MediaError) -> Int64? {
        guard let pts = packet.pts else { return nil }
        let stamp = Rational(pts) * timeBase * Rational(sampleRate)
        return stamp.isInteger ? stamp.numerator - origin : nil
    }

    /// Object type, sampling frequency index and channel configuration of an `AudioSpecificConfig`, when it is
    /// AAC-LC (object type 2) at a listed rate with a channel configuration (no program config element).
    static func essentials(of config: [UInt8]) -> [UInt8]? {
        guard config.count >= 2 else { return nil }
        let objectType = config[0] >> 3
        let rateIndex = (config[0] & 0x07) << 1 | config[1] >> 7
        let channels = config[1] >> 3 & 0x0F
        guard objectType == 2, rateIndex < 13, channels > 0 else { return nil }
        return [objectType, rateIndex, channels]
    }

    static func modulo(_ a: Int64, _ m: Int64) -> Int64 { (a % m + m) % m }
}
