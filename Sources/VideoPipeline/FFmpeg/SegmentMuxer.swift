import CFFmpeg
import MediaCore

/// A stream-copy muxer that writes an input's streams into one file in flushed pieces, and tells where each piece
/// ends: what `HLSSegmenter` cuts into segment files.
///
/// fMP4 is libavformat's mp4 muxer with `frag_custom+delay_moov+default_base_moof` (as FFmpeg's own HLS muxer
/// sets it): the `moov` is written at the first flush, once every track's first timestamps are known, so that its
/// edit lists keep the first video frame at its time and drop AAC's priming (with `empty_moov` the muxer would
/// stretch the first frame over the priming instead). `ftyp` + `moov` is the init segment; each `endPiece()`
/// flushes one `moof`+`mdat` fragment. MPEG-TS is the
/// mpegts muxer with PAT and PMT sent again at the start of every piece after the first. Timestamps go through
/// unchanged (rescaled to each output stream's time base), so the pieces are one continuous stream. A plain MP4 is
/// one piece.
final class SegmentMuxer {
    enum Container {
        case fragmentedMP4, mpegTS
        /// A plain MP4, its `moov` written at the end: one piece (what `HLSSegmenter.remux` writes).
        case mp4
    }

    private let output: OutputContext
    private let container: Container
    private let path: String
    /// Each input stream's time base, by its index.
    private let timeBases: [AVRational]
    /// The output stream each input stream feeds, by the input's index: the pictures first, then the others in
    /// the input's order, whatever order the input has them in (an MP4's sound track may come first, as FFmpeg's
    /// HLS reader puts an audio rendition's before its variant's). So every segment made of it has the stream
    /// order (and MPEG-TS PIDs) of the pieces cut and the ads conditioned for the same rendition.
    private let outputIndex: [Int?]
    /// fMP4: where the init segment (`ftyp` + `moov`) ends, known once the first piece is flushed.
    private(set) var initEnd: Int64?

    /// Opens `path` and writes the header, with one output stream per stream of `input` (only its sound with
    /// `soundOnly`; `write` then passes over the others' packets): its video first. In MPEG-TS, `pids` gives the
    /// video's PID and the first sound stream's.
    init(copying input: InputFile, to path: String, container: Container, pids: TransportStreamPIDs? = nil,
         soundOnly: Bool = false) throws(MediaError) {
        self.container = container
        self.path = path
        output = try OutputContext(container: container == .mpegTS ? "mpegts" : "mp4", filename: path)
        let isVideo = { (i: Int) in input.stream(i).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
        let isSound = { (i: Int) in input.stream(i).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
        let order = soundOnly ? (0..<input.streamCount).filter(isSound)
            : (0..<input.streamCount).filter(isVideo) + (0..<input.streamCount).filter { !isVideo($0) }
        var outputs = [Int?](repeating: nil, count: input.streamCount)
        for (o, i) in order.enumerated() { outputs[i] = o }
        outputIndex = outputs
        timeBases = (0..<input.streamCount).map { input.stream($0).pointee.time_base }
        var soundPID = pids?.audio
        for i in order {
            let source = input.stream(i)
            let stream = try allocated(avformat_new_stream(output.pointer, nil), "avformat_new_stream")
            if container == .mpegTS, let pids {
                if isVideo(i), stream.pointee.index == 0 {
                    stream.pointee.id = pids.video
                } else if source.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO, let pid = soundPID {
                    stream.pointee.id = pid
                    soundPID = nil
                }
            }
            try check(avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar), "avcodec_parameters_copy")
            // The input's tag is MP4's (avc1, mp4a); the muxer chooses its own.
            stream.pointee.codecpar.pointee.codec_tag = 0
            stream.pointee.time_base = source.pointee.time_base
            stream.pointee.avg_frame_rate = source.pointee.avg_frame_rate
        }
        try output.openIO(path, reportedAs: path)
        let options = FFmpegOptions()
        if container == .fragmentedMP4 {
            try options.set("movflags", "+frag_custom+dash+delay_moov+default_base_moof")
        }
        try output.writeHeader(options: options, reportedAs: path)
    }

    /// Bytes written so far (everything before is on its way to the file).
    func flushedSize() -> Int64 {
        avio_flush(output.pointer.pointee.pb)
        return avio_tell(output.pointer.pointee.pb)
    }

    /// Starts a new piece: for MPEG-TS, its first packet is preceded by PAT and PMT.
    func beginPiece() throws(MediaError) {
        guard container == .mpegTS else { return }
        try check(av_opt_set(output.pointer.pointee.priv_data, "mpegts_flags", "+resend_headers", 0), "av_opt_set", path: path)
    }

    /// Writes a packet of input stream `packet.streamIndex` (nothing for a stream it does not carry).
    func write(_ packet: Packet) throws(MediaError) {
        let index = Int(packet.pointer.pointee.stream_index)
        guard let target = outputIndex[index] else { return }
        let stream = output.pointer.pointee.streams[target]!
        av_packet_rescale_ts(packet.pointer, timeBases[index], stream.pointee.time_base)
        packet.pointer.pointee.stream_index = Int32(target)
        packet.pointer.pointee.pos = -1
        try check(av_interleaved_write_frame(output.pointer, packet.pointer), "av_interleaved_write_frame", path: path)
    }

    /// Writes every packet still queued and flushes them as one piece (an fMP4 fragment); returns the file's
    /// size after it.
    func endPiece() throws(MediaError) -> Int64 {
        try check(av_interleaved_write_frame(output.pointer, nil), "av_interleaved_write_frame", path: path)
        if container == .fragmentedMP4, initEnd == nil {
            // With delay_moov the first flush writes the moov alone; the fragment follows at the next one.
            try check(av_write_frame(output.pointer, nil), "av_write_frame", path: path)
            initEnd = flushedSize()
        }
        try check(av_write_frame(output.pointer, nil), "av_write_frame", path: path)
        return flushedSize()
    }

    /// Writes the trailer (after the last piece; its bytes belong to no segment) and closes the file.
    func finish() throws(MediaError) {
        try output.writeTrailer(reportedAs: path)
        try output.closeIO(reportedAs: path)
    }
}

extension Packet {
    /// A new packet referring to the same data (`av_packet_clone`), to be written later.
    func clone() throws(MediaError) -> Packet {
        let copy = try Packet()
        try check(av_packet_ref(copy.pointer, pointer), "av_packet_ref")
        return copy
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }
    var pts: Int64? { pointer.pointee.pts.timestamp }
    var dts: Int64? { pointer.pointee.dts.timestamp }
    var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
}

extension InputFile {
    /// Reads every packet in file order, handing each to `body` (which must not keep it beyond the call).
    func forEachPacket(_ body: (Packet) throws(MediaError) -> Void) throws(MediaError) {
        let packet = try Packet()
        while true {
            packet.unref()
            let read = av_read_frame(context, packet.pointer)
            if read == averrorEOF { return }
            try check(read, "av_read_frame", path: path)
            try body(packet)
        }
    }

    /// Stream `index`'s time base, its kind, and its codec's configuration bytes (`extradata`).
    func streamDescription(_ index: Int) -> (timeBase: Rational, kind: StreamKind, extradata: [UInt8]) {
        let par = stream(index).pointee.codecpar.pointee
        let kind: StreamKind = switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        default: .other
        }
        let bytes = par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(par.extradata_size))) } ?? []
        return (stream(index).pointee.time_base.rational ?? Rational(1, 90000), kind, bytes)
    }
}
