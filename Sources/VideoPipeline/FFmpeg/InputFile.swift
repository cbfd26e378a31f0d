import CFFmpeg
import Foundation
import MediaCore

/// An opened input (`AVFormatContext`), closed in `deinit`.
///
/// Opening first checks the path itself, so that a missing file, a directory or an empty file gets its own
/// plain message rather than FFmpeg's; then it checks that a file with a sample index (MP4, MOV) is not cut short.
/// With a `PictureLimit`, each video stream's coded size is checked as soon as the container states it, before
/// `avformat_find_stream_info` decodes a frame, and its decoders there refuse larger pictures (`max_pixels`).
final class InputFile {
    let context: UnsafeMutablePointer<AVFormatContext>
    let path: String

    init(path: String, pictureLimit: PictureLimit? = nil) throws(MediaError) {
        FFmpegLog.applyDefault()
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw .isDirectory(path: path) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        if size == 0 { throw .emptyFile(path: path) }

        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        let opened = avformat_open_input(&ctx, path, nil, nil)
        guard opened >= 0, let ctx else {
            throw InputFile.openFailure(path: path, function: "avformat_open_input", code: opened)
        }
        context = ctx
        let found: Int32
        if let pictureLimit {
            try checkCodedSizes(pictureLimit, after: "avformat_open_input")
            found = try findStreamInfo(maximumPixels: pictureLimit.maximumPixels)
        } else {
            found = avformat_find_stream_info(ctx, nil)
        }
        if found < 0 {
            throw InputFile.openFailure(path: path, function: "avformat_find_stream_info", code: found)
        }
        if let pictureLimit {
            try checkCodedSizes(pictureLimit, after: "avformat_find_stream_info")
            try checkSizesKnown(pictureLimit)
        }
        try checkIndexFitsFile(fileSize: size)
    }

    /// Throws `.pictureTooLarge` for the first video stream whose coded size, as known after `function`, is over
    /// `limit`; a size not known yet (0) passes.
    private func checkCodedSizes(_ limit: PictureLimit, after function: String) throws(MediaError) {
        for index in 0..<streamCount {
            let parameters = stream(index).pointee.codecpar.pointee
            guard parameters.codec_type == AVMEDIA_TYPE_VIDEO, parameters.width > 0, parameters.height > 0,
                  let refusal = limit.refusal(of: PixelSize(width: Int(parameters.width), height: Int(parameters.height)))
            else { continue }
            throw .pictureTooLarge(path: path, detail: "video stream #\(index)'s coded size (\(function)) \(refusal)")
        }
    }

    /// Throws `.pictureTooLarge` for a video stream whose size is still unknown after `avformat_find_stream_info`:
    /// its container does not state it (an image file's) and its decoder refused the first picture (`max_pixels`), so
    /// it is over the limit or cannot be decoded; opened anyway, it would be decoded whole without the limit.
    private func checkSizesKnown(_ limit: PictureLimit) throws(MediaError) {
        for index in 0..<streamCount {
            let parameters = stream(index).pointee.codecpar.pointee
            guard parameters.codec_type == AVMEDIA_TYPE_VIDEO, parameters.width <= 0 || parameters.height <= 0 else { continue }
            throw .pictureTooLarge(path: path, detail: "video stream #\(index)'s picture size is unknown after avformat_find_stream_info "
                + "(its decoder did not decode a picture of at most \(limit.maximumPixels) pixels)")
        }
    }

    /// `avformat_find_stream_info` with every stream's decoder refusing pictures over `maximumPixels` (its
    /// `max_pixels`), so that a stream whose container did not state its size cannot make it allocate one.
    private func findStreamInfo(maximumPixels: Int) throws(MediaError) -> Int32 {
        var options = [OpaquePointer?](repeating: nil, count: streamCount)
        defer { for i in options.indices { av_dict_free(&options[i]) } }
        for i in options.indices {
            try check(av_dict_set(&options[i], "max_pixels", String(maximumPixels), 0), "av_dict_set", path: path)
        }
        return options.withUnsafeMutableBufferPointer { buffer in
            avformat_find_stream_info(context, buffer.baseAddress)
        }
    }

    /// A file that FFmpeg recognises by its first bytes but cannot open is damaged or cut short, which is worth
    /// saying; anything else is simply not media.
    static func openFailure(path: String, function: String, code: Int32) -> MediaError {
        let message = ffmpegMessage(code)
        guard let name = recognisedFormat(path) else {
            return .unreadable(path: path, function: function, message: message)
        }
        return .truncated(path: path, detail: "it starts as \(name) but cannot be read: \(function): \(message)")
    }

    /// The container FFmpeg guesses from the first 64 KiB, with a confidence above "extension only".
    private static func recognisedFormat(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path),
              let head = try? handle.read(upToCount: 65536), !head.isEmpty else { return nil }
        try? handle.close()
        var bytes = [UInt8](head) + [UInt8](repeating: 0, count: Int(AVPROBE_PADDING_SIZE))
        return bytes.withUnsafeMutableBufferPointer { buffer -> String? in
            var probe = AVProbeData(filename: nil, buf: buffer.baseAddress, buf_size: Int32(head.count), mime_type: nil)
            var score: Int32 = 0
            guard let format = av_probe_input_format2(&probe, 1, &score), score > AVPROBE_SCORE_EXTENSION else { return nil }
            return String(cString: format.pointee.long_name ?? format.pointee.name)
        }
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&ctx)
    }

    var streamCount: Int { Int(context.pointee.nb_streams) }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> { context.pointee.streams[index]! }

    /// The MPEG-TS PID stream `index` is carried on (libavformat's `AVStream.id` for the mpegts demuxer), or nil for
    /// another container or a PID a muxer cannot be given (0x0010–0x1FFE).
    func transportStreamPID(ofStream index: Int) -> Int32? {
        guard let format = context.pointee.iformat, String(cString: format.pointee.name) == "mpegts" else { return nil }
        let id = stream(index).pointee.id
        return (0x0010...0x1FFE).contains(id) ? id : nil
    }

    /// The best stream of a kind (FFmpeg's choice), or `nil`.
    func bestStream(_ kind: StreamKind) -> Int? {
        let type: AVMediaType = kind == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Demuxes the whole file and counts the packets of stream `index` (the others are discarded unread), with
    /// the earliest presentation timestamp and the latest end (timestamp + duration) among them.
    func scanPackets(ofStream index: Int) throws(MediaError) -> (count: Int64, first: MediaTime?, end: MediaTime?) {
        discardAll(except: index)
        let timeBase = stream(index).pointee.time_base.rational ?? Rational(1, 1000)
        let packet = try Packet()
        var count: Int64 = 0
        var first: MediaTime?
        var end: MediaTime?
        while true {
            packet.unref()
            let read = av_read_frame(context, packet.pointer)
            if read == averrorEOF { return (count, first, end) }
            try check(read, "av_read_frame", path: path)
            let p = packet.pointer.pointee
            guard Int(p.stream_index) == index else { continue }
            count += 1
            if let pts = p.pts.timestamp {
                let start = MediaTime(value: pts, timeBase: timeBase)
                first = min(first ?? start, start)
                let (sum, overflow) = pts.addingReportingOverflow(max(0, p.duration))
                if !overflow {
                    let packetEnd = MediaTime(value: sum, timeBase: timeBase)
                    end = max(end ?? packetEnd, packetEnd)
                }
            }
        }
    }

    /// Where the presentation of the file starts, as FFmpeg computed it from all streams.
    var startTime: MediaTime? {
        context.pointee.start_time.timestamp.map { MediaTime(value: $0, timeBase: Rational(1, Int64(AV_TIME_BASE))) }
    }

    /// Demuxers with a sample index (MP4/MOV) know where every packet lies; an index pointing past the end of
    /// the file means the file was cut short, which decoding alone would only show as a silently short clip.
    private func checkIndexFitsFile(fileSize: Int64) throws(MediaError) {
        for i in 0..<streamCount {
            let st = stream(i)
            var end: Int64 = 0
            for entry in 0..<avformat_index_get_entries_count(st) {
                guard let e = avformat_index_get_entry(st, entry), e.pointee.pos >= 0 else { continue }
                end = max(end, e.pointee.pos + Int64(e.pointee.size))
            }
            if end > fileSize {
                throw .truncated(path: path, detail: "its index needs \(end) bytes but the file has \(fileSize)")
            }
        }
    }
}

extension AVRational {
    var rational: Rational? { den == 0 || num == 0 ? nil : Rational(Int64(num), Int64(den)) }
}

extension Rational {
    /// As an `AVRational`; both parts must fit in 32 bits (time bases and rates do).
    var av: AVRational { AVRational(num: Int32(numerator), den: Int32(denominator)) }
}
