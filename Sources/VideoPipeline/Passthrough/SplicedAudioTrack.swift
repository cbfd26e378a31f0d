import CFFmpeg
import MediaCore

/// One AAC track made of the content's own packets, copied where the output's sound is the content's, and packets
/// encoded everywhere else (the ads, and a packet or two either side of each splice): the sound half of a
/// passthrough render, which would otherwise spend most of its time in the AAC encoder.
///
/// **Which packets are copied.** Output packet `P` (stamped `P` on the output's sample clock) decodes from its own
/// transform block, samples `[P, P + 2048)`, overlapped with its predecessor's. It is copied when the output's
/// sound over `[P − 1024, P + 3072)` is one run of one file's sound read unchanged (`AudioBuffer.copyableSound`: the
/// content's, or an ad's in the output's format) and the file has a whole packet starting at that run's position for
/// `P`. The run's first packet is left to
/// the encoder, so the sound either side of every join is the same signal, and the decoder's overlap-add joins an
/// encoded block to a copied one as it joins two of either.
///
/// **Encoded runs.** Each run of encoded packets is a fresh encoder fed from two packets before the run's first
/// packet (`warmUp`) to two past its end, then flushed, keeping exactly the packets between: the packets either
/// side are the content's, whose windows the encoder then matches. At the file's start the encoder's priming packet is kept: it is
/// the track's own, as in any AAC file.
///
/// **Timing.** A file's packets land on the output's only where it is read on the output's packet grid:
/// `AudioCopyGrid` tells the render where to read each run from. Every sample of the track is otherwise where
/// the render put it, so copying changes the bytes, not the sound's place.
final class SplicedAudioTrack {
    /// Where the track's packets go and how its encoded ones are made.
    private let output: Output
    /// The content's packets; `source(_:)` opens an ad's.
    let content: AudioPacketSource
    /// What a copied file's sound must match.
    private let bitstream: Bitstream
    /// Packets copied and encoded so far.
    private(set) var packets = PacketCounts()

    private static let size = AudioPacketSource.packetSize
    /// Samples a fresh encoder is given before its first kept packet: it starts on silence, which it takes for an
    /// attack and answers with short windows; two packets later it is back to the long ones the copied packet
    /// before expects.
    private static let warmUp = 2 * size
    /// The output's samples as they arrive.
    private var samples: Samples
    /// Runs of a file's sound in the output, oldest first: output sample `s` of `[start, end)` is the file's source
    /// position `s − offset`.
    private var runs: [(start: Int64, end: Int64, offset: Int64, source: AudioPacketSource)] = []
    /// The stamp of the next packet to copy or encode.
    private var next: Int64 = -size
    /// The run of encoded packets being written, if any.
    private var encodedRun: EncodedRun
    private let frame: Frame
    private let packet: Packet

    /// The output the track is part of: its muxer and stream, the name it is reported as, and the format and
    /// encoding settings the encoded runs are made with.
    private struct Output {
        let context: OutputContext
        let stream: MuxerStream
        let destination: String
        let format: OutputFormat
        let encoding: EncodingSettings
    }

    /// The encoder's `AudioSpecificConfig` and where its packets start (modulo the packet size): what a copied
    /// file's sound must match.
    private struct Bitstream {
        let config: [UInt8]
        let outputPhase: Int64
    }

    /// How many packets the track holds of each kind.
    struct PacketCounts {
        /// Copied from a file.
        var copied = 0
        /// Encoded from the output's samples.
        var encoded = 0
    }

    /// The output's samples: how many arrived, and those not yet given to an encoder (in `pcm`, from output sample
    /// `start`).
    private struct Samples {
        let pcm: AudioFIFO
        var start: Int64 = 0
        var received: Int64 = 0
    }

    /// The current encoded run: its encoder (`nil` between runs; `unused` is the one opened for the track's
    /// parameters, which the run at the file's start takes), how far it was fed and the first stamp it keeps.
    private struct EncodedRun {
        var encoder: CodecContext?
        var unused: CodecContext?
        /// The encoder has been given the output's samples up to here; it writes packets stamped from `keepFrom`.
        var fed: Int64 = 0
        var keepFrom: Int64 = 0
    }

    /// Adds an AAC track to `context` (before its header is written) that copies the sound of `content`.
    /// - Throws: `.cannotCopy` with the reason when its packets cannot join the track: not AAC-LC with the output's
    ///   rate and channels, or a shift of half a packet would put the sound more than a frame from its picture.
    init(in context: OutputContext, content: String, format: OutputFormat, encoding: EncodingSettings,
         reportedAs destination: String) throws(MediaError) {
        let halfPacket = Rational(SplicedAudioTrack.size / 2, Int64(format.sampleRate))
        guard halfPacket < format.frameRate.frameDuration.seconds else {
            throw .cannotCopy(path: content, reason: .packetShift(format.frameRate))
        }
        let first = try Encoder.audioCodec(format: format, encoding: encoding, globalHeader: context.wantsGlobalHeader)
        guard first.codecID == AV_CODEC_ID_AAC, first.initialPadding == SplicedAudioTrack.size, first.frameSize == SplicedAudioTrack.size else {
            throw .cannotCopy(path: content, reason: .outputSound)
        }
        bitstream = Bitstream(config: first.extradata, outputPhase: -Int64(first.initialPadding))
        self.content = try AudioPacketSource(path: content, format: format, config: bitstream.config,
                                             outputPhase: bitstream.outputPhase)
        encodedRun = EncodedRun(unused: first)
        samples = Samples(pcm: try AudioFIFO(format: AV_SAMPLE_FMT_FLTP, channels: format.channels, capacity: 8192,
                                             path: destination))
        frame = try Frame()
        packet = try Packet()
        let stream = try context.newStream()
        output = Output(context: context, stream: stream, destination: destination, format: format, encoding: encoding)
        try stream.setParameters(from: first)
        stream.setTiming(timeBase: first.timeBase)
    }

    /// Opens `path` (an ad) for its packets to be copied like the content's.
    /// - Throws: `.cannotCopy` with the reason when its sound is not AAC-LC in the output's format.
    func source(_ path: String) throws(MediaError) -> AudioPacketSource {
        try AudioPacketSource(path: path, format: output.format, config: bitstream.config, outputPhase: bitstream.outputPhase)
    }

    /// Appends the samples of `buffer` and writes every packet they settle.
    func write(_ buffer: AudioBuffer) throws(MediaError) {
        guard buffer.count > 0 else { return }
        _ = try buffer.withPlanes { planes throws(MediaError) in try samples.pcm.write(planes, count: buffer.count) }
        let received = samples.received
        if let sound = buffer.copyableSound {
            let offset = received - sound.position
            if let last = runs.last, last.end == received, last.offset == offset, last.source === sound.source {
                runs[runs.count - 1].end += Int64(buffer.count)
            } else {
                runs.append((received, received + Int64(buffer.count), offset, sound.source))
            }
        }
        samples.received += Int64(buffer.count)
        // A packet is settled once its block and the next have arrived.
        while next + 3 * SplicedAudioTrack.size <= samples.received { try settle(next) }
    }

    /// Writes the packets left, encoding the sound past the last one copied.
    func finish() throws(MediaError) {
        while next < samples.received { try settle(next) }
        if encodedRun.encoder != nil { try endRun(at: .max) }
    }

    /// Copies or encodes packet `p`.
    private func settle(_ p: Int64) throws(MediaError) {
        let size = SplicedAudioTrack.size
        if let content = try copyable(p) {
            if encodedRun.encoder != nil { try endRun(at: p) }
            try writeCopied(content, at: p)
        } else {
            if encodedRun.encoder == nil { try startRun(at: p) }
            try feed(to: min(p + size, samples.received))
        }
        // The next run starts no earlier than the next packet, less its warm-up.
        try dropSamples(before: p + size - SplicedAudioTrack.warmUp)
        next = p + size
    }

    /// The packet of the file whose run holds output packet `p`'s block, when it can be copied there.
    private func copyable(_ p: Int64) throws(MediaError) -> Packet? {
        let size = SplicedAudioTrack.size
        // The block and a packet either side within one run (a run from the output's start needs none before it):
        // the encoded packets either side of a copied stretch then hold only that file's sound, so the encoder
        // chooses long windows, or a start window before a change, as the copied packets next to them expect.
        let from = max(p - size, 0), to = p + 3 * size
        guard to <= samples.received else { return nil }
        runs.removeAll { $0.end < p }
        guard let run = runs.first(where: { $0.start <= from && $0.end >= to }) else { return nil }
        return try run.source.packet(at: p - run.offset)
    }

    /// Opens an encoder for a run whose first packet is `p`.
    private func startRun(at p: Int64) throws(MediaError) {
        if p < 0, let unused = encodedRun.unused {
            encodedRun.encoder = unused
            encodedRun.keepFrom = .min
        } else {
            encodedRun.encoder = try Encoder.audioCodec(format: output.format, encoding: output.encoding,
                                                        globalHeader: output.context.wantsGlobalHeader)
            encodedRun.keepFrom = p
        }
        encodedRun.unused = nil
        let start = max(p - (p < 0 ? 0 : SplicedAudioTrack.warmUp), 0)
        precondition(start >= samples.start, "an encoded run starts at \(start), before the samples kept from \(samples.start)")
        encodedRun.fed = start
    }

    /// Gives the current encoder the output's samples up to `end`, a packet at a time.
    private func feed(to end: Int64) throws(MediaError) {
        guard let encoder = encodedRun.encoder else { return }
        while encodedRun.fed < end {
            let fed = encodedRun.fed
            let count = Int(min(SplicedAudioTrack.size, end - fed))
            try encoder.prepareAudio(frame, count: count)
            try samples.pcm.peek(into: frame, count: count, offset: Int(fed - samples.start))
            frame.presentationTime = fed
            try encoder.send(frame, path: output.destination)
            encodedRun.fed += Int64(count)
            try drain(before: .max)
        }
    }

    /// Ends the encoded run before packet `end`: feeds the samples its last packet overlaps, flushes, and writes
    /// the packets stamped before `end`.
    private func endRun(at end: Int64) throws(MediaError) {
        guard let encoder = encodedRun.encoder else { return }
        // The last packet's block reaches a packet past it, and the encoder looks one further to choose its window.
        if end != .max { try feed(to: end + 2 * SplicedAudioTrack.size) }
        try encoder.send(nil, path: output.destination)
        try drain(before: end)
        encodedRun.encoder = nil
    }

    /// Writes the packets the encoder has ready that are stamped in `[keepFrom, end)`.
    private func drain(before end: Int64) throws(MediaError) {
        guard let encoder = encodedRun.encoder else { return }
        let keepFrom = encodedRun.keepFrom
        try encoder.receivePackets(into: packet, path: output.destination) { packet throws(MediaError) in
            guard let pts = packet.pts, pts >= keepFrom, pts < end else { return }
            packets.encoded += 1
            try write(packet)
        }
    }

    private func writeCopied(_ content: Packet, at p: Int64) throws(MediaError) {
        content.stamp(pts: p, dts: p, duration: SplicedAudioTrack.size)
        packets.copied += 1
        try write(content)
    }

    /// Writes `packet`, stamped on the output's sample clock, to the track.
    private func write(_ packet: Packet) throws(MediaError) {
        try output.context.write(packet, to: output.stream, from: Rational(1, Int64(output.format.sampleRate)),
                                 path: output.destination)
    }

    /// Forgets the samples before `sample`: no encoded run will start before it.
    private func dropSamples(before sample: Int64) throws(MediaError) {
        let n = min(sample, samples.received) - samples.start
        guard n > 0 else { return }
        try samples.pcm.drain(Int(n))
        samples.start += n
    }
}
