import CFFmpeg
import MediaCore

/// How libx264 is opened: the one place its options are set, for the encoded output (`Encoder.video`) and for each
/// encoded run of a passthrough track (`SplicedVideoTrack`).
///
/// Always: the output's size and frame rate, yuv420p, the render's preset, CRF and threads, bit-exact, and forced
/// keyframes as IDRs. A passthrough run also matches the content (`Match`).
struct X264Encoder {
    /// What an encoded run of a passthrough track takes from the content, so that a switch between copied and
    /// encoded pictures changes nothing a player shows: its profile and level, sample aspect ratio and colour
    /// description, and SPS/PPS ids from `spsID` (x264 numbers its PPS like its SPS), clear of the content's.
    struct Match {
        let profile: UInt8
        let level: UInt8
        let spsID: Int
        /// `nil` when the content does not say (the run then states 1:1).
        let sampleAspect: Rational?
        let colour: ColourDescription
    }

    let format: OutputFormat
    let encoding: EncodingSettings
    /// Whether the container wants the SPS and PPS once, in its header (MP4), rather than in the stream.
    let globalHeader: Bool
    let match: Match?
    /// Whether pictures may be reordered (B-frames). A run spliced between copied pictures of an MPEG-TS segment
    /// (`SegmentCutter`) is coded without, so that its decode times are its presentation times less a constant.
    var reorders = true

    /// The opened encoder; errors name `path` (the destination) when given.
    /// - Throws: `.invalidSetting` when this FFmpeg has no libx264; FFmpeg errors naming `avcodec_open2`.
    func open(path: String?) throws(MediaError) -> CodecContext {
        guard let codec = avcodec_find_encoder_by_name("libx264") else {
            throw match == nil
                ? .invalidSetting(name: "profile", value: encoding.profile.rawValue, reason: "this FFmpeg has no libx264 encoder")
                : .invalidSetting(name: "passthrough", value: "h264", reason: "this FFmpeg has no libx264 encoder")
        }
        let encoder = try CodecContext(codec: codec)
        let aspect = match?.sampleAspect?.av ?? AVRational(num: 1, den: 1)
        encoder.setVideo(format: format, sampleAspect: aspect, threads: encoding.threads, globalHeader: globalHeader)
        if let colour = match?.colour { encoder.setColour(colour) }
        let options = FFmpegOptions()
        try options.set("preset", encoding.preset)
        try options.set("crf", String(encoding.crf))
        if let rate = encoding.maximumBitRate {
            try options.set("maxrate", String(rate))
            try options.set("bufsize", String(rate))
        }
        if !reorders || !encoding.reorders { try options.set("bf", "0") }
        if let match {
            try options.set("profile", X264Encoder.profileName(match.profile))
            try options.set("level", String(match.level))
            try options.set("x264-params", "sps-id=\(match.spsID)")
        }
        // A frame sent as a forced keyframe becomes an IDR, where a segment may start (x264 would otherwise make it
        // a plain I frame that later frames can reach across). Unforced frames are unaffected.
        try options.set("forced-idr", "1")
        try encoder.open(options: options, path: path)
        return encoder
    }

    /// x264's name of an H.264 `profile_idc` (the profiles 8-bit 4:2:0 content comes in).
    static func profileName(_ idc: UInt8) -> String {
        switch idc {
        case 66: "baseline"
        case 77: "main"
        default: "high"
        }
    }
}

extension CodecContext {
    /// Sets up a video encoder (before it is opened) for yuv420p pictures of the output's size, stamped with their
    /// frame index (time base `1 / frame rate`), bit-exact.
    func setVideo(format: OutputFormat, sampleAspect: AVRational, threads: Int, globalHeader: Bool) {
        let c = pointer
        c.pointee.width = Int32(format.size.width)
        c.pointee.height = Int32(format.size.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = format.frameRate.timeBase.av
        c.pointee.framerate = format.frameRate.perSecond.av
        c.pointee.sample_aspect_ratio = sampleAspect
        c.pointee.thread_count = Int32(threads)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
    }

    /// States `colour` in the encoded stream (the VUI of H.264).
    func setColour(_ colour: ColourDescription) {
        pointer.pointee.color_range = colour.range
        pointer.pointee.color_primaries = colour.primaries
        pointer.pointee.color_trc = colour.transfer
        pointer.pointee.colorspace = colour.space
        pointer.pointee.chroma_sample_location = colour.chromaLocation
    }

    /// The frame rate a video encoder stamps (`framerate`) and its sample aspect ratio.
    var videoTiming: (frameRate: AVRational, sampleAspect: AVRational) {
        (pointer.pointee.framerate, pointer.pointee.sample_aspect_ratio)
    }
}
