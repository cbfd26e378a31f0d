import CFFmpeg
import Foundation
import MediaCore

/// Cuts MPEG-TS content (H.264 and AAC: one HLS segment, or a few consecutive ones joined byte for byte) into two
/// pieces at an exact frame, re-encoding only the partial GOPs on either side of the cut: what `pipctl serve` puts
/// around an ad break (docs/SERVE.md, "The cut").
///
/// ```
/// input   |I . . . . . . I . . . . . . . I . . . . . |
/// cut                          ▼
/// before  |I . . . . . . |e e e|                        copied, then the cut's GOP up to the cut encoded
/// after                        |e e e e|I . . . . . |   the rest of the cut's GOP encoded, then copied
/// ```
///
/// - **Timestamps** stay the input's (90 kHz), so `before` continues the segments in front of it and `after` leads
///   into the ones behind it without a discontinuity; a player sees the jump only at the ad. The mpegts muxer is
///   told not to shift them (`copyts`).
/// - **Encoded runs** are x264 without B-frames (decode order is display order), each starting with an IDR, with
///   the content's profile, level, aspect and colour and SPS/PPS ids clear of the content's (both sets travel in
///   the stream, as MPEG-TS carries them). Decode times are presentation times less the decode delay of the IDR
///   that follows the run (or none), so they rise across every switch between copied and encoded pictures.
/// - **Sound** is copied, never re-encoded: each AAC packet goes to the piece its middle falls in. `before` ends and
///   `after` starts within half a packet of the cut (the same packet boundary), so whatever is put between them
///   (an ad whose sound starts with its picture) meets each with a gap or overlap of at most half an AAC frame, and
///   a reader that plays the pieces' sound one after the other is never more than half a frame off the pictures
///   there. A cut at the first picture (`before` absent) leaves out the sound before it (an encoder's priming).
///   With `soundLeads`, each piece's file starts with a sound packet, then its first picture followed by one, the rest
///   interleaved by decode time (its pictures' decode times are earlier than their sound's by the content's decode
///   delay), every picture's PES with its length. The ffmpeg tool joins the timestamps across a discontinuity at
///   each packet it reads whose decode time jumps: it reads the first sound packet and continues the sound; the
///   first picture hands over the last picture of the segment before (its H.264 parser holds a picture until the
///   next one comes), which moves the join back; the next sound packet joins it to the sound again, and the
///   pictures are placed beside the sound by their presentation times. Interleaved by decode time alone, the
///   pictures' decode times would be continued and the sound left a decode delay late.
/// - **Limits:** the video must be H.264, 8-bit 4:2:0, its first picture an IDR; GOPs are closed at IDRs (other
///   keyframes are not cut points). `SegmentCutter.maximumInputBytes` bounds the input before anything is decoded.
public enum SegmentCutter {
    /// The largest input read (a few segments of a high rendition).
    public static let maximumInputBytes: Int64 = 256 << 20
    /// The sound packets written ahead of the interleaved packets with `soundLeads` (the second after the first
    /// picture).
    static let leadingSoundPackets = 2

    public struct Request: Sendable {
        /// An MPEG-TS file.
        public var input: String
        /// Where the cut falls, on the input's clock in seconds (its PTS over 90 kHz): the piece after starts with
        /// the frame whose start is nearest to it, the later one on a tie.
        public var cut: Rational
        /// Where the two pieces are written (MPEG-TS). A piece that would hold no frame is not written.
        public var before: String
        public var after: String
        /// The encoded runs' x264 settings (preset, CRF, threads, `maximumBitRate`).
        public var encoding: EncodingSettings
        /// Whether `before` keeps the sound packets whose middle is before the input's first picture (an AAC
        /// encoder's priming); `after` never has them.
        public var soundBeforeFirstPicture = true
        /// Whether each piece's file leads with sound (see the type's notes): for a stream's first segment, which
        /// follows a pre-roll. Off, packets are interleaved by decode time alone (what Video.js 7's VHS, whose
        /// transmuxer times a segment from its first packets, plays in place; led by sound, it plays the content
        /// after a mid-roll two frames late).
        public var soundLeads = false

        public init(input: String, cut: Rational, before: String, after: String, encoding: EncodingSettings = EncodingSettings()) {
            self.input = input
            self.cut = cut
            self.before = before
            self.after = after
            self.encoding = encoding
        }
    }

    /// One written piece.
    public struct Piece: Hashable, Sendable {
        /// Its pictures, and how many of them were encoded (the rest are the input's own packets).
        public var frames: Int64
        public var encodedFrames: Int64
        /// Its first picture's presentation time on the input's clock, in seconds.
        public var start: Rational
        /// From its first picture's start to its last one's end.
        public var duration: Rational
    }

    public struct Result: Hashable, Sendable {
        /// `nil` when the cut falls at or before the input's first picture (`before`) or after its last (`after`).
        public var before: Piece?
        public var after: Piece?
        /// The input's pictures and frame rate.
        public var frames: Int64
        public var frameRate: FrameRate
    }

    /// The presentation time of the first picture of `path` (MPEG-TS or any container FFmpeg reads), in seconds on
    /// its own clock: where an HLS rendition's content time 0 is.
    public static func firstPictureTime(of path: String) throws(MediaError) -> Rational {
        try VideoScan(path).start
    }

    /// Where an HLS rendition's content time 0 is (`firstPictureTime`), and how long before its presentation each
    /// picture is decoded (its first picture's presentation less its first decode time, in seconds: two frames in
    /// x264's default B-pyramid, zero without B-frames), from one scan of `path`.
    public static func pictureTiming(of path: String) throws(MediaError) -> (start: Rational, decodeDelay: Rational) {
        let scan = try VideoScan(path)
        return (scan.start, scan.decodeDelay)
    }

    public static func cut(_ request: Request) throws(MediaError) -> Result {
        let path = request.input
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
        guard let size else { throw .fileNotFound(path: path) }
        guard size <= maximumInputBytes else {
            throw .invalidSetting(name: "segment", value: path, reason: "is \(size) bytes, over the \(maximumInputBytes) a cut reads")
        }
        let scan = try VideoScan(path)
        let cut = scan.index(nearest: request.cut)
        // Where the piece after starts copying: the cut itself when it is an IDR, else the next one.
        let nextIDR = scan.idrs.first { $0 >= cut } ?? scan.count
        let before: Piece?, after: Piece?
        var muxers: [PieceMuxer] = []
        // The piece before: copied GOPs [0, k), then [k, cut) encoded, k the last IDR at or before the cut.
        var beforeMuxer: PieceMuxer?
        var copiedBefore: Range<Int64> = 0..<0
        if cut > 0 {
            let k = scan.idrs.last { $0 <= cut }!
            let muxer = try PieceMuxer(path: request.before, scan: scan)
            muxers.append(muxer)
            beforeMuxer = muxer
            copiedBefore = 0..<k
            before = Piece(frames: cut, encodedFrames: cut - k, start: scan.time(0), duration: scan.time(cut) - scan.time(0))
        } else {
            before = nil
        }
        var afterMuxer: PieceMuxer?
        if cut < scan.count {
            let muxer = try PieceMuxer(path: request.after, scan: scan)
            muxers.append(muxer)
            afterMuxer = muxer
            after = Piece(frames: scan.count - cut, encodedFrames: nextIDR - cut, start: scan.time(cut),
                          duration: scan.end - scan.time(cut))
        } else {
            after = nil
        }
        // The partial GOPs, decoded once from the IDR before the cut and encoded into their pieces.
        let lastIDR = scan.idrs.last { $0 <= cut } ?? 0
        var runs: [EncodedRun] = []
        if let beforeMuxer, lastIDR < cut {
            runs.append(EncodedRun(frames: lastIDR..<cut, into: beforeMuxer, delayOf: lastIDR))
        }
        if let afterMuxer, cut < nextIDR {
            runs.append(EncodedRun(frames: cut..<nextIDR, into: afterMuxer, delayOf: nextIDR < scan.count ? nextIDR : nil))
        }
        let cutTicks = Rational(scan.pts[Int(min(cut, scan.count - 1))] + (cut == scan.count ? scan.frameTicks : 0))
        let firstPicture = Rational(scan.pts[0]), keepsLead = request.soundBeforeFirstPicture
        func soundPiece(_ middle: Rational) -> PieceMuxer? {
            middle < firstPicture && !keepsLead ? nil : middle < cutTicks ? beforeMuxer : afterMuxer
        }
        // Each piece's first sound packet leads its file.
        var written: Set<Int64> = []
        if scan.audioStream != nil, request.soundLeads {
            var leading: [ObjectIdentifier: Int] = [:]
            try scan.copySound { middle, pts in
                guard let muxer = soundPiece(middle), leading[ObjectIdentifier(muxer), default: 0] < SegmentCutter.leadingSoundPackets else { return nil }
                leading[ObjectIdentifier(muxer), default: 0] += 1
                written.insert(pts)
                return muxer
            } write: { muxer, packet throws(MediaError) in try muxer.writeAudioAhead(packet) }
        }
        if let beforeMuxer { try scan.copyPackets(copiedBefore, into: beforeMuxer) }
        if !runs.isEmpty {
            try scan.encode(runs, encoding: request.encoding)
        }
        if let afterMuxer, nextIDR < scan.count {
            try scan.copyPackets(nextIDR..<scan.count, into: afterMuxer)
        }
        if scan.audioStream != nil {
            try scan.copySound { middle, pts in written.contains(pts) ? nil : soundPiece(middle) } write: { muxer, packet throws(MediaError) in
                try muxer.writeAudio(packet)
            }
        }
        for muxer in muxers { try muxer.finish() }
        return Result(before: before, after: after, frames: scan.count, frameRate: scan.rate)
    }
}

/// A range of pictures to encode into a piece; its decode times are its presentation times less the decode delay
/// of the IDR at `delayOf` (the copied picture that follows it), or none.
private struct EncodedRun {
    var frames: Range<Int64>
    var into: PieceMuxer
    var delayOf: Int64?
}

/// One piece's MPEG-TS muxer: the input's video and sound streams, timestamps kept as they are.
private final class PieceMuxer {
    let path: String
    let context: OutputContext
    let video: MuxerStream
    let audio: MuxerStream?
    let timeBase: Rational
    let audioTimeBase: Rational

    init(path: String, scan: VideoScan) throws(MediaError) {
        self.path = path
        context = try OutputContext(container: "mpegts", filename: path)
        video = try context.newStream()
        try video.copyParameters(from: scan.input, stream: scan.videoStream)
        timeBase = scan.timeBase
        // The PIDs of the segments the piece stands between (a packager's, 0x1E1 and 0x1E2 say), which a player
        // reads on across the splice without a discontinuity: the muxer's own would be new streams to it.
        let pids = TransportStreamPIDs(scan.input, video: scan.videoStream, audio: scan.audioStream)
        if let pids { video.setTransportStreamPID(pids.video) }
        if let index = scan.audioStream {
            let stream = try context.newStream()
            try stream.copyParameters(from: scan.input, stream: index)
            if let pid = pids?.audio { stream.setTransportStreamPID(pid) }
            audio = stream
            audioTimeBase = scan.input.timeBase(ofStream: index) ?? Rational(1, 90_000)
        } else {
            audio = nil
            audioTimeBase = Rational(1, 90_000)
        }
        try context.openIO(path, reportedAs: path)
        let options = FFmpegOptions()
        // Timestamps as the input has them (the muxer would otherwise add 1.4 s), and every packet held until both
        // streams have one, so the sound written after the pictures still interleaves with them.
        try options.set("copyts", "1")
        try options.set("max_interleave_delta", "0")
        // Each sound packet its own PES, written when it comes (the first ones ahead of the interleaved packets), and
        // each picture's PES with its length, so that a demuxer hands it over once read.
        try options.set("pes_payload_size", "0")
        try options.set("omit_video_pes_length", "0")
        try context.writeHeader(options: options, reportedAs: path)
    }

    /// The sound packets after the first, each written right after one of the first pictures.
    private var heldSound: [Packet] = []
    private var interleaving = false

    func writeVideo(_ packet: Packet, pts: Int64, dts: Int64, duration: Int64, key: Bool) throws(MediaError) {
        packet.stamp(pts: pts, dts: dts, duration: duration)
        packet.setKeyframe(key)
        if !interleaving, !heldSound.isEmpty, let audio {
            try context.writeAhead(packet, to: video, from: timeBase, flush: false, path: path)
            try context.writeAhead(heldSound.removeFirst(), to: audio, from: audioTimeBase, path: path)
            return
        }
        interleaving = true
        try context.write(packet, to: video, from: timeBase, path: path)
    }

    func writeAudio(_ packet: Packet) throws(MediaError) {
        guard let audio else { return }
        packet.stamp(pts: packet.pts ?? 0, dts: packet.dts ?? packet.pts ?? 0, duration: packet.duration)
        try context.write(packet, to: audio, from: audioTimeBase, path: path)
    }

    /// Writes the piece's first sound packet before anything else, and keeps its second for after its first picture.
    func writeAudioAhead(_ packet: Packet) throws(MediaError) {
        guard let audio else { return }
        packet.stamp(pts: packet.pts ?? 0, dts: packet.dts ?? packet.pts ?? 0, duration: packet.duration)
        if sentAhead {
            heldSound.append(try packet.clone())
        } else {
            sentAhead = true
            try context.writeAhead(packet, to: audio, from: audioTimeBase, path: path)
        }
    }
    private var sentAhead = false

    func finish() throws(MediaError) {
        // A piece with fewer pictures still gets its held sound.
        if let audio {
            for held in heldSound { try context.write(held, to: audio, from: audioTimeBase, path: path) }
            heldSound = []
        }
        try context.writeTrailer(reportedAs: path)
        try context.closeIO(reportedAs: path)
    }
}

/// The input's video, scanned once: every picture's presentation and decode time by display index, and its IDRs.
private final class VideoScan {
    let input: InputFile
    let path: String
    let videoStream: Int
    let audioStream: Int?
    let timeBase: Rational
    /// By display index.
    let pts: [Int64]
    let dts: [Int64]
    let idrs: [Int64]
    let rate: FrameRate
    /// One picture's length in the stream's ticks.
    let frameTicks: Int64
    let parameters: StreamParameters
    /// The bytes the first picture's packet begins with (its in-band SPS and PPS when the stream has no extradata).
    let firstPacketBytes: [UInt8]

    var count: Int64 { Int64(pts.count) }
    var start: Rational { time(0) }
    /// The first picture's presentation less the first decode time.
    var decodeDelay: Rational { Rational(max(0, pts[0] - (dts.min() ?? pts[0]))) * timeBase }
    var end: Rational { Rational(pts[pts.count - 1] + frameTicks) * timeBase }

    init(_ path: String) throws(MediaError) {
        self.path = path
        input = try InputFile(path: path)
        guard let video = input.bestStream(.video) else { throw .missingStream(path: path, kind: .video) }
        videoStream = video
        audioStream = input.bestStream(.audio)
        parameters = input.parameters(ofStream: video)
        guard parameters.codecID == AV_CODEC_ID_H264 else { throw .cannotCopy(path: path, reason: .videoCodec(parameters.codecName)) }
        guard parameters.pixelFormat == AV_PIX_FMT_YUV420P || parameters.pixelFormat == AV_PIX_FMT_YUVJ420P else {
            throw .cannotCopy(path: path, reason: .pixelFormat)
        }
        timeBase = input.timeBase(ofStream: video) ?? Rational(1, 90_000)
        let scanner = try InputFile(path: path)
        let packet = try Packet()
        var samples: [(pts: Int64, dts: Int64, idr: Bool)] = []
        var first: [UInt8] = []
        while try scanner.readPacket(ofStream: video, into: packet) {
            guard let p = packet.pts else { throw .cannotCopy(path: path, reason: .unstampedPicture) }
            let bytes = Array(packet.payload)
            if samples.isEmpty { first = Array(bytes.prefix(4096)) }
            let idr = packet.isKeyframe && AVCParameterSets.nalUnits(annexB: bytes).contains { ($0.first ?? 0) & 0x1F == 5 }
            samples.append((p, packet.dts ?? p, idr))
        }
        guard !samples.isEmpty else { throw .noFrames(path: path) }
        let ordered = samples.sorted { $0.pts < $1.pts }
        pts = ordered.map(\.pts)
        dts = ordered.map(\.dts)
        idrs = ordered.indices.filter { ordered[$0].idr }.map { Int64($0) }
        guard idrs.first == 0 else { throw .cannotCopy(path: path, reason: .noIDRAtStart) }
        firstPacketBytes = first
        let stated = input.nominalFrameRate(ofStream: video)
        let smallest = zip(pts.dropFirst(), pts).map { $0 - $1 }.filter { $0 > 0 }.min()
        if let stated, stated > .zero {
            rate = FrameRate(stated)
        } else if let smallest {
            rate = FrameRate((Rational(smallest) * timeBase).reciprocal)
        } else {
            rate = FrameRate(25)
        }
        frameTicks = max(1, (rate.perSecond.reciprocal / timeBase).rounded)
    }

    /// Picture `index`'s start, in seconds on the input's clock (`count` is the end of the last).
    func time(_ index: Int64) -> Rational {
        index >= count ? end : Rational(pts[Int(index)]) * timeBase
    }

    /// The display index of the picture whose start is nearest to `seconds` (the later on a tie); `count` when the
    /// end of the last picture is nearer than its start.
    func index(nearest seconds: Rational) -> Int64 {
        let target = seconds / timeBase
        for i in 0..<pts.count {
            let next = i + 1 < pts.count ? Rational(pts[i + 1]) : Rational(pts[i] + frameTicks)
            // Within [pts_i, pts_{i+1}): picture i, unless the next start is no farther.
            if target < next {
                if target <= Rational(pts[i]) { return Int64(i) }
                return next - target <= target - Rational(pts[i]) ? Int64(i + 1) : Int64(i)
            }
        }
        return count
    }

    /// Copies the packets of pictures `range` (display indices, from an IDR to an IDR or the end) in decode order.
    func copyPackets(_ range: Range<Int64>, into muxer: PieceMuxer) throws(MediaError) {
        guard !range.isEmpty else { return }
        let reader = try InputFile(path: path)
        let packet = try Packet()
        let lower = pts[Int(range.lowerBound)], upper = range.upperBound < count ? pts[Int(range.upperBound)] : Int64.max
        while try reader.readPacket(ofStream: videoStream, into: packet) {
            guard let p = packet.pts, p >= lower, p < upper else { continue }
            try muxer.writeVideo(packet, pts: p, dts: packet.dts ?? p, duration: frameTicks, key: packet.isKeyframe)
        }
    }

    /// Decodes from the first run's IDR and encodes each run's pictures into its piece, one fresh x264 per run.
    func encode(_ runs: [EncodedRun], encoding: EncodingSettings) throws(MediaError) {
        let byPTS = Dictionary(uniqueKeysWithValues: pts.enumerated().map { ($1, Int64($0)) })
        let last = runs.map(\.frames.upperBound).max()!
        let decoder = try StreamDecoder(path: path, kind: .video, threads: encoding.threads)
        let frame = try Frame()
        let encodedFormat = OutputFormat(size: PixelSize(width: parameters.width, height: parameters.height), frameRate: rate)
        let sets = (try? AVCParameterSets(annexB: parameters.extradata.isEmpty ? firstPacketBytes : parameters.extradata))
        let match = sets.map { sets in
            X264Encoder.Match(profile: sets.profile, level: sets.level, spsID: (sets.sequenceSetIDs.max() ?? 0) + 1,
                              sampleAspect: parameters.knownSampleAspect, colour: parameters.colour)
        }
        var current: (run: EncodedRun, encoder: CodecContext, sent: Int64)?
        var encodedTotal: Int64 = 0
        let out = try Packet()
        func drain(_ state: (run: EncodedRun, encoder: CodecContext, sent: Int64)) throws(MediaError) {
            let delay = state.run.delayOf.map { pts[Int($0)] - dts[Int($0)] } ?? 0
            try state.encoder.receivePackets(into: out, path: state.run.into.path) { packet throws(MediaError) in
                guard let local = packet.pts, local >= 0, local < Int64(state.run.frames.count) else {
                    throw .unreadable(path: state.run.into.path, function: "avcodec_receive_packet", message: "x264 gave a packet outside its run")
                }
                let p = pts[Int(state.run.frames.lowerBound + local)]
                try state.run.into.writeVideo(packet, pts: p, dts: p - max(0, delay), duration: frameTicks, key: packet.isKeyframe)
            }
        }
        func close(_ state: (run: EncodedRun, encoder: CodecContext, sent: Int64)) throws(MediaError) {
            try state.encoder.send(nil, path: state.run.into.path)
            try drain(state)
        }
        decoding: while case .frame(let picture) = try decoder.decode(into: frame) {
            guard let index = byPTS[picture.presentationTime] else { continue }
            if index >= last { break decoding }
            guard let run = runs.first(where: { $0.frames.contains(index) }) else { continue }
            if current?.run.frames != run.frames {
                if let previous = current { try close(previous) }
                var x264 = X264Encoder(format: encodedFormat, encoding: encoding, globalHeader: false, match: match)
                x264.reorders = false
                current = (run, try x264.open(path: run.into.path), 0)
            }
            guard picture.size == encodedFormat.size, picture.pixelFormat == AV_PIX_FMT_YUV420P || picture.pixelFormat == AV_PIX_FMT_YUVJ420P else {
                throw .cannotCopy(path: path, reason: .pixelFormat)
            }
            picture.presentationTime = index - run.frames.lowerBound
            picture.forceKeyframe(index == run.frames.lowerBound)
            try current!.encoder.send(picture, path: run.into.path)
            current!.sent += 1
            encodedTotal += 1
            try drain(current!)
        }
        if let previous = current { try close(previous) }
        guard encodedTotal == runs.reduce(0, { $0 + Int64($1.frames.count) }) else {
            throw .unreadable(path: path, function: "avcodec_receive_frame", message: "the decoder gave fewer pictures than the packets hold")
        }
    }

    /// Hands every sound packet to `write` with the piece `destination` names for its middle and its presentation
    /// time (90 kHz ticks of the video's clock, which in MPEG-TS is the sound's too; the time in the sound's own).
    func copySound(_ destination: (Rational, Int64) -> PieceMuxer?,
                   write: (PieceMuxer, Packet) throws(MediaError) -> Void) throws(MediaError) {
        guard let audioStream else { return }
        let reader = try InputFile(path: path)
        let packet = try Packet()
        let audioBase = reader.timeBase(ofStream: audioStream) ?? Rational(1, 90_000)
        while try reader.readPacket(ofStream: audioStream, into: packet) {
            guard let p = packet.pts else { continue }
            let middle = (Rational(p) + Rational(packet.duration, 2)) * audioBase / timeBase
            if let muxer = destination(middle, p) { try write(muxer, packet) }
        }
    }
}
