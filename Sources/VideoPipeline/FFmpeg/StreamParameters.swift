import CFFmpeg
import MediaCore

/// What a stream's codec parameters (`AVCodecParameters`) say, copied out as values when read, so that code outside
/// `FFmpeg/` (the passthrough tracks, which check and match a file's coding) never holds FFmpeg's struct or its
/// pointers.
struct StreamParameters {
    let codecID: AVCodecID
    /// Pictures: the pixel format, size, sample aspect ratio (0/1 when unknown: `knownSampleAspect` is `nil`) and
    /// colour description.
    let pixelFormat: AVPixelFormat
    let width: Int
    let height: Int
    let sampleAspect: AVRational
    let colour: ColourDescription
    /// How many pictures the decoder holds back for reordering (`video_delay`).
    let videoDelay: Int
    /// Sound: the sample rate and channel count.
    let sampleRate: Int
    let channels: Int
    /// The codec's global header (for H.264 in MP4 the `avcC`, for AAC the `AudioSpecificConfig`); empty when none.
    let extradata: [UInt8]

    init(_ par: AVCodecParameters) {
        codecID = par.codec_id
        pixelFormat = AVPixelFormat(rawValue: par.format)
        width = Int(par.width)
        height = Int(par.height)
        sampleAspect = par.sample_aspect_ratio
        colour = ColourDescription(range: par.color_range, primaries: par.color_primaries, transfer: par.color_trc,
                                   space: par.color_space, chromaLocation: par.chroma_location)
        videoDelay = Int(par.video_delay)
        sampleRate = Int(par.sample_rate)
        channels = Int(par.ch_layout.nb_channels)
        extradata = par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(par.extradata_size))) } ?? []
    }

    /// The sample aspect ratio, when the stream states a positive one.
    var knownSampleAspect: Rational? {
        sampleAspect.num > 0 && sampleAspect.den > 0 ? Rational(Int64(sampleAspect.num), Int64(sampleAspect.den)) : nil
    }

    /// FFmpeg's name of the codec (`avcodec_get_name`).
    var codecName: String { String(cString: avcodec_get_name(codecID)) }
}

/// A picture's colour description as its codec parameters state it, for an encoder to state the same.
struct ColourDescription {
    let range: AVColorRange
    let primaries: AVColorPrimaries
    let transfer: AVColorTransferCharacteristic
    let space: AVColorSpace
    let chromaLocation: AVChromaLocation

    /// Nothing stated: what an encoder writes when not told.
    static let unspecified = ColourDescription(range: AVCOL_RANGE_UNSPECIFIED, primaries: AVCOL_PRI_UNSPECIFIED,
                                               transfer: AVCOL_TRC_UNSPECIFIED, space: AVCOL_SPC_UNSPECIFIED,
                                               chromaLocation: AVCHROMA_LOC_UNSPECIFIED)
}

extension InputFile {
    /// The codec parameters of stream `index`.
    func parameters(ofStream index: Int) -> StreamParameters {
        StreamParameters(stream(index).pointee.codecpar.pointee)
    }

    /// The time base of stream `index`; `nil` when it is unset (0/0).
    func timeBase(ofStream index: Int) -> Rational? {
        stream(index).pointee.time_base.rational
    }

    /// Stream `index`'s average frame rate as the demuxer found it (`avg_frame_rate`); `nil` when unknown.
    func nominalFrameRate(ofStream index: Int) -> Rational? {
        stream(index).pointee.avg_frame_rate.rational
    }

    /// Makes the demuxer skip every stream but `index` unread.
    func discardAll(except index: Int) {
        for i in 0..<streamCount where i != index { stream(i).pointee.discard = AVDISCARD_ALL }
    }

    /// Seeks stream `index` to the last keyframe at or before `timestamp` (in its time base; `av_seek_frame`).
    func seek(stream index: Int, to timestamp: Int64) throws(MediaError) {
        try check(av_seek_frame(context, Int32(index), timestamp, AVSEEK_FLAG_BACKWARD), "av_seek_frame", path: path)
    }

    /// Reads the next packet of stream `index` into `packet` (unreferenced first), skipping the other streams';
    /// `false` at the end of the file (`av_read_frame`).
    func readPacket(ofStream index: Int, into packet: Packet) throws(MediaError) -> Bool {
        while true {
            packet.unref()
            let r = av_read_frame(context, packet.pointer)
            if r == averrorEOF { return false }
            try check(r, "av_read_frame", path: path)
            if packet.streamIndex == index { return true }
        }
    }
}
