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
        func no(_ why: String) -> MediaError { .cannotCopy(path: path, reason: why) }
        guard let index = input.bestStream(.audio) else { throw no("it has no sound") }
        stream = index
        let st = input.stream(index)
        let par = st.pointee.codecpar.pointee
        guard par.codec_id == AV_CODEC_ID_AAC else { throw no("its sound is \(String(cString: avcodec_get_name(par.codec_id))), not AAC") }
        guard Int(par.sample_rate) == format.sampleRate, Int(par.ch_layout.nb_channels) == format.channels else {
            throw no("its sound is \(par.sample_rate) Hz with \(par.ch_layout.nb_channels) channels, the output's \(format.sampleRate) Hz with \(format.channels)")
        }
        let own = par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(par.extradata_size))) } ?? []
        guard let theirs = AudioPacketSource.essentials(of: own) else { throw no("its AAC configuration is not a plain AAC-LC one") }
        guard theirs == AudioPacketSource.essentials(of: config) else {
            throw no("its AAC configuration (object type, rate, channel configuration) is not the encoder's")
        }
        sampleRate = Int64(format.sampleRate)
        timeBase = st.pointee.time_base.rational ?? Rational(1, sampleRate)
        let start = (input.startTime ?? .zero).seconds * Rational(sampleRate)
        origin = start.rounded
        for i in 0..<input.streamCount where i != index { input.stream(i).pointee.discard = AVDISCARD_ALL }
        packet = try Packet()
        guard let first = try AudioPacketSource.readPacket(input, stream: index, into: packet) else { throw no("its sound has no packets") }
        guard let pts = first.pointer.pointee.pts.timestamp, (Rational(pts) * timeBase * Rational(sampleRate)).isInteger else {
            throw no("its sound's packets are not stamped on its sample clock")
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
            try check(av_seek_frame(input.context, Int32(stream), target.floor, AVSEEK_FLAG_BACKWARD), "av_seek_frame", path: path)
            held = nil
        }
        while true {
            if let held, held >= position {
                let duration = Rational(packet.pointer.pointee.duration) * timeBase * Rational(sampleRate)
                guard held == position, duration == Rational(AudioPacketSource.packetSize) else { return nil }
                given = true
                return packet
            }
            guard try AudioPacketSource.readPacket(input, stream: stream, into: packet) != nil, let next = try samples(packet) else {
                held = nil
                return nil
            }
            held = next
            given = false
        }
    }

    /// The source position a packet starts at; `nil` when its stamp is missing or between samples.
    private func samples(_ packet: Packet) throws(MediaError) -> Int64? {
        guard let pts = packet.pointer.pointee.pts.timestamp else { return nil }
        let stamp = Rational(pts) * timeBase * Rational(sampleRate)
        return stamp.isInteger ? stamp.numerator - origin : nil
    }

    /// Reads the next packet of `stream` into `packet`; `nil` at the end of the file.
    private static func readPacket(_ input: InputFile, stream: Int, into packet: Packet) throws(MediaError) -> Packet? {
        while true {
            packet.unref()
            let r = av_read_frame(input.context, packet.pointer)
            if r == averrorEOF { return nil }
            try check(r, "av_read_frame", path: input.path)
            if packet.pointer.pointee.stream_index == Int32(stream) { return packet }
        }
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
