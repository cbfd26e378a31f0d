import CFFmpeg
import MediaCore

extension InputFile {
    /// Where stream `index` ends by its own declared start and duration, when it declares a duration.
    func declaredEnd(ofStream index: Int, origin: MediaTime) -> MediaTime? {
        let stream = stream(index).pointee
        let timeBase = stream.time_base.rational ?? Rational(1, 1000)
        guard let duration = stream.duration.timestamp, duration > 0 else { return nil }
        let start = stream.start_time.timestamp.map { MediaTime(value: $0, timeBase: timeBase) } ?? origin
        return start + MediaDuration(value: duration, timeBase: timeBase)
    }

    /// The duration the container declares, from the file's start; `nil` when it declares none and FFmpeg only
    /// estimated one from the bit rate (a guess that says nothing about where the frames stop).
    var declaredDuration: MediaDuration? {
        let ctx = context.pointee
        guard ctx.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE, let duration = ctx.duration.timestamp,
              duration > 0 else { return nil }
        return MediaDuration(value: duration, timeBase: Rational(1, Int64(AV_TIME_BASE)))
    }

    /// Demuxes the whole file (no decoding) and returns where its last packet of any stream ends.
    func scanEnd() throws(MediaError) -> MediaTime? {
        let packet = try Packet()
        var end: MediaTime?
        while true {
            packet.unref()
            let read = av_read_frame(context, packet.pointer)
            if read == averrorEOF { return end }
            try check(read, "av_read_frame", path: path)
            let p = packet.pointer.pointee
            guard let pts = p.pts.timestamp, let timeBase = stream(Int(p.stream_index)).pointee.time_base.rational else { continue }
            let (sum, overflow) = pts.addingReportingOverflow(max(0, p.duration))
            guard !overflow else { continue }
            let packetEnd = MediaTime(value: sum, timeBase: timeBase)
            end = max(end ?? packetEnd, packetEnd)
        }
    }

    var info: MediaInfo {
        let ctx = context.pointee
        let best = Set([bestStream(.video), bestStream(.audio)].compactMap { $0 })
        let streams = (0..<streamCount).map { streamInfo($0, isBest: best.contains($0)) }
        return MediaInfo(
            path: path,
            container: ctx.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
            duration: ctx.duration.timestamp.flatMap { $0 > 0 ? MediaDuration(value: $0, timeBase: Rational(1, Int64(AV_TIME_BASE))) : nil },
            bitRate: ctx.bit_rate > 0 ? ctx.bit_rate : nil,
            streams: streams)
    }

    func streamInfo(_ index: Int, isBest: Bool) -> StreamInfo {
        let st = stream(index).pointee
        let par = st.codecpar.pointee
        let timeBase = st.time_base.rational ?? Rational(1, 1000)
        let kind: StreamKind = switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_DATA: .data
        default: .other
        }
        var info = StreamInfo(
            index: index, kind: kind, codec: String(cString: avcodec_get_name(par.codec_id)), isBest: isBest,
            timeBase: timeBase,
            duration: st.duration.timestamp.flatMap { $0 > 0 ? MediaDuration(value: $0, timeBase: timeBase) : nil },
            bitRate: par.bit_rate > 0 ? par.bit_rate : nil,
            frameCount: st.nb_frames > 0 ? st.nb_frames : nil)
        switch kind {
        case .video:
            info.geometry = DisplayGeometry(
                codedSize: PixelSize(width: Int(par.width), height: Int(par.height)),
                bitstreamSampleAspect: par.sample_aspect_ratio.rational, containerSampleAspect: st.sample_aspect_ratio.rational,
                orientation: displayOrientation(ofStream: index))
            // avg_frame_rate is what the frames say; r_frame_rate is a guess that, for a track without frames, is
            // just the time base, so it is only taken when it is a plausible rate.
            if let rate = st.r_frame_rate.rational, rate > .zero, rate <= Rational(1000) {
                info.timestampRate = FrameRate(rate)
            }
            if let rate = st.avg_frame_rate.rational, rate > .zero {
                info.frameRate = FrameRate(rate)
            } else {
                info.frameRate = info.timestampRate
            }
            if let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: par.format)) {
                info.pixelFormat = String(cString: name)
            }
        case .audio:
            info.sampleRate = Int(par.sample_rate)
            info.channels = Int(par.ch_layout.nb_channels)
            info.channelLayout = describe(layout: par.ch_layout)
            if let name = av_get_sample_fmt_name(AVSampleFormat(rawValue: par.format)) {
                info.sampleFormat = String(cString: name)
            }
        default:
            break
        }
        return info
    }
}

extension InputFile {
    /// How stream `index` is turned for display, from its display matrix (`AV_PKT_DATA_DISPLAYMATRIX` side data):
    /// upright without one.
    ///
    /// A matrix with a negative determinant mirrors; its first column is negated to take the mirror out (as
    /// `av_display_matrix_flip` puts one in, after the rotation), and `av_display_rotation_get` reads the rotation
    /// left, rounded to the nearest quarter turn (other angles are not drawn by anyone).
    func displayOrientation(ofStream index: Int) -> DisplayOrientation {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream(index), AV_PKT_DATA_DISPLAYMATRIX, &size),
              size >= 9 * MemoryLayout<Int32>.size else { return .upright }
        let matrix = data.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
        return DisplayOrientation(displayMatrix: matrix)
    }
}

extension DisplayOrientation {
    /// The orientation an FFmpeg display matrix (nine 16.16/2.30 fixed-point numbers, row-major) states.
    init(displayMatrix matrix: [Int32]) {
        precondition(matrix.count == 9)
        let determinant = Int64(matrix[0]) * Int64(matrix[4]) - Int64(matrix[1]) * Int64(matrix[3])
        let mirrored = determinant < 0
        var unmirrored = matrix
        if mirrored {
            unmirrored[0] = -unmirrored[0]
            unmirrored[3] = -unmirrored[3]
            unmirrored[6] = -unmirrored[6]
        }
        let degrees = unmirrored.withUnsafeBufferPointer { av_display_rotation_get($0.baseAddress) }
        let quarterTurns = degrees.isFinite ? Int((degrees / 90).rounded()) : 0
        self.init(rotation: quarterTurns * 90, mirrored: mirrored)
    }
}

/// FFmpeg's name for a channel layout (`stereo`, `mono`, `5.1(side)`).
func describe(layout: AVChannelLayout) -> String {
    var layout = layout
    var buffer = [CChar](repeating: 0, count: 128)
    let n = buffer.withUnsafeMutableBufferPointer { av_channel_layout_describe(&layout, $0.baseAddress, $0.count) }
    return n > 0 ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : "\(layout.nb_channels) channels"
}
