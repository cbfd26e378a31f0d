import Foundation
import MediaCore

/// How HLS segments are packaged: fMP4/CMAF (an init segment and `.m4s` fragments) or MPEG-TS (`.ts`).
public enum HLSSegmentType: String, Sendable, CaseIterable {
    case fmp4
    case mpegts

    /// The extension of a media segment's file.
    public var segmentExtension: String { self == .fmp4 ? "m4s" : "ts" }
}

/// The segment files of a render, as `HLSSegmenter` wrote them.
public struct HLSSegmentFiles: Hashable, Sendable {
    public struct Segment: Hashable, Sendable {
        /// The file's name inside the directory (`seg00000.m4s`).
        public var uri: String
        /// The output frame it starts with (an IDR), and how many frames it holds.
        public var startFrame: Int64
        public var frameCount: Int64
        public var bytes: Int64
    }

    /// `init.mp4` for fMP4 (`ftyp` and an empty `moov`); `nil` for MPEG-TS.
    public var initSegment: String?
    public var segments: [Segment]
    /// The presentation time of output frame 0 in the segments' container, 90 kHz: read back from what the muxer
    /// wrote (MPEG-TS starts later than zero; fMP4 shifts by the encoder delay and AAC priming).
    public var ptsOffset: Int64
    /// RFC 6381 codec strings of the streams: `avc1.PPCCLL` from the SPS, `mp4a.40.N` from the AAC config.
    public var codecs: [String]
    /// With `alternateEnding`: the last segment again, its sound ending on the other side of the last picture's end
    /// (one AAC packet more or fewer), named `segNNNNN-alt.ts`; `nil` when no packet straddles that end.
    public var alternateLast: Segment?
}

/// Cuts a rendered MP4 into HLS segments by stream copy, at its keyframes.
///
/// One muxer (`SegmentMuxer`) writes every segment into one temporary file, flushing at each cut and noting the
/// byte offset; the file is then split at those offsets. This keeps the segments one continuous stream (one fMP4
/// `moov`, continuous fragment sequence numbers and decode times; one TS with its continuity counters) exactly as a
/// player joins them, which separate muxers per segment would each restart.
public enum HLSSegmenter {
    /// The frames in a segment of `seconds`: the first whole frame count that lasts at least that long.
    public static func frames(perSegment seconds: Rational, rate: FrameRate) -> Int64 {
        max(1, (seconds * rate.perSecond).ceiling)
    }

    /// Writes the segments of `input` (an MP4 whose video frame `n` has presentation time `n / rate`) into
    /// `directory`: a segment starts at frame 0, at every frame of `cuts` (which must be keyframes: the render
    /// forced them), and otherwise at the first keyframe at least `target` frames after the current segment's start.
    ///
    /// - Parameter soundWithPictures: the sound trimmed to the pictures, for segments that follow or lead into
    ///   other media (`pipctl serve`'s ads and packaged content, MPEG-TS, which has no edit list): without the packets
    ///   the input marks as not presented (its AAC encoder's priming, which would be heard before the first
    ///   picture), and without those whose middle falls past the last picture's end, so that the sound starts with
    ///   the first picture and ends within half an AAC frame of the last one's end.
    /// - Parameter alternateEnding: with `soundWithPictures`, the last segment is written a second time with the
    ///   packet that straddles the last picture's end taken the other way (kept if the nearest end leaves it out, left
    ///   out if it keeps it): its sound ends up to a frame from the pictures' end, on the other side, so that a
    ///   stitcher can choose, per viewer, the ending that keeps the sound of a run of ads in step (`pipctl serve`).
    /// - Parameter decodeDelay: for video whose pictures are not reordered (no B-frames), each picture is decoded
    ///   this long before it is shown (every stream later by it), as in content coded with B-frames.
    /// - Parameter timestampBase: added to every timestamp.
    /// - Parameter pids: MPEG-TS only, the PIDs of the pictures and the sound (those of the stream the segments join).
    /// - Throws: `.invalidSetting` when a cut is not a keyframe or the video is not H.264, FFmpeg errors naming the
    ///   function, `.outputNotWritable` when a segment file cannot be written.
    public static func segment(_ input: String, into directory: String, type: HLSSegmentType, rate: FrameRate,
                               target: Int64, cuts: Set<Int64>, soundWithPictures: Bool = false,
                               alternateEnding: Bool = false, decodeDelay: Rational = .zero,
                               timestampBase: Rational = .zero, pids: TransportStreamPIDs? = nil) throws(MediaError) -> HLSSegmentFiles {
        let plan = try keyframePlan(input, rate: rate)
        // Frames are numbered by presentation time from 0; the first segment starts at the first picture, which a
        // packager's stream may put seconds in (MPEG-TS from FFmpeg's muxer starts at 1.4 s).
        var starts: [Int64] = [plan.first]
        for k in plan.keyframes.sorted() where k > plan.first && k < plan.frames {
            if cuts.contains(k) || k - starts.last! >= target { starts.append(k) }
        }
        if let missed = cuts.filter({ $0 > plan.first && $0 < plan.frames && !plan.keyframes.contains($0) }).min() {
            throw .invalidSetting(name: "hls", value: "frame \(missed)", reason: "must start a segment but is not a keyframe")
        }
        let muxed = directory + "/.segments." + type.segmentExtension
        defer { try? FileManager.default.removeItem(atPath: muxed) }
        let soundEnd = soundWithPictures ? Rational(plan.frames) / rate.perSecond : nil
        let (offsets, straddled) = try mux(input, to: muxed, type: type, rate: rate, starts: starts, soundEnd: soundEnd, flipped: false,
                                           decodeDelay: decodeDelay, timestampBase: timestampBase, pids: pids)
        var files = HLSSegmentFiles(initSegment: type == .fmp4 ? "init.mp4" : nil, segments: [],
                                    ptsOffset: try firstVideoPTS(muxed), codecs: plan.codecs)
        if let initSegment = files.initSegment { try copyBytes(of: muxed, range: 0..<offsets[0], to: directory + "/" + initSegment) }
        for (i, start) in starts.enumerated() {
            let end = i + 1 < starts.count ? starts[i + 1] : plan.frames
            let uri = "seg" + String(format: "%05d", i) + "." + type.segmentExtension
            try copyBytes(of: muxed, range: offsets[i]..<offsets[i + 1], to: directory + "/" + uri)
            files.segments.append(.init(uri: uri, startFrame: start, frameCount: end - start, bytes: offsets[i + 1] - offsets[i]))
        }
        if alternateEnding, straddled, let last = files.segments.last {
            // The same packets up to the last piece, so its continuity counters follow the segment before it too.
            let other = directory + "/.alternate." + type.segmentExtension
            defer { try? FileManager.default.removeItem(atPath: other) }
            let (ends, _) = try mux(input, to: other, type: type, rate: rate, starts: starts, soundEnd: soundEnd, flipped: true,
                                    decodeDelay: decodeDelay, timestampBase: timestampBase, pids: pids)
            let uri = "seg" + String(format: "%05d", starts.count - 1) + "-alt." + type.segmentExtension
            let range = ends[starts.count - 1]..<ends[starts.count]
            try copyBytes(of: other, range: range, to: directory + "/" + uri)
            files.alternateLast = .init(uri: uri, startFrame: last.startFrame, frameCount: last.frameCount, bytes: Int64(range.count))
        }
        return files
    }

    /// The video's keyframes (by output frame), its frame count and the streams' codec strings, without decoding.
    /// The video's keyframes and its first picture's frame number, by presentation time from 0, the number after its
    /// last picture's, and the streams' codec strings.
    private static func keyframePlan(_ path: String, rate: FrameRate) throws(MediaError) -> (keyframes: Set<Int64>, first: Int64, frames: Int64, codecs: [String]) {
        let input = try InputFile(path: path)
        guard let video = input.bestStream(.video) else { throw .missingStream(path: path, kind: .video) }
        let timeBase = input.streamDescription(video).timeBase
        var keyframes: Set<Int64> = [], frames: Int64 = 0, first: Int64?
        try input.forEachPacket { packet throws(MediaError) in
            guard packet.streamIndex == video, let pts = packet.pts else { return }
            let frame = (Rational(pts) * timeBase * rate.perSecond).rounded
            frames = max(frames, frame + 1)
            first = min(first ?? frame, frame)
            if packet.isKeyframe { keyframes.insert(frame) }
        }
        var codecs: [String] = []
        for i in 0..<input.streamCount {
            let stream = input.streamDescription(i)
            switch stream.kind {
            case .video:
                guard let codec = avcCodecString(stream.extradata) else {
                    throw .invalidSetting(name: "hls", value: path, reason: "the video is not H.264 with an SPS")
                }
                codecs.append(codec)
            case .audio:
                // AudioSpecificConfig: the first five bits are the audio object type (2: AAC LC).
                codecs.append("mp4a.40.\(stream.extradata.first.map { Int($0 >> 3) } ?? 2)")
            default: break
            }
        }
        return (keyframes, max(0, first ?? 0), frames, codecs)
    }

    /// `avc1.PPCCLL` (profile, constraint flags, level, in hex) from H.264 extradata: an `avcC` record (MP4) or
    /// Annex B start codes with an SPS.
    static func avcCodecString(_ extradata: [UInt8]) -> String? {
        var sps: ArraySlice<UInt8>?
        if extradata.first == 1, extradata.count >= 4 {
            sps = extradata[1..<4]
        } else {
            for i in 0..<max(0, extradata.count - 6) where extradata[i] == 0 && extradata[i + 1] == 0 && extradata[i + 2] == 1 {
                if extradata[i + 3] & 0x1F == 7 { sps = extradata[(i + 4)..<(i + 7)]; break }
            }
        }
        guard let sps else { return nil }
        return "avc1." + sps.map { String(format: "%02X", $0) }.joined()
    }

    /// Remuxes `input` into `path`, one flushed piece per segment; returns where each piece starts, and the end, and
    /// whether a sound packet straddles `soundEnd`. With `soundEnd` (seconds: the last picture's end), sound packets
    /// marked as not presented and those whose middle (as a whole frame) falls at or after it are left out; `flipped`
    /// takes the packet that straddles it the other way.
    private static func mux(_ input: String, to path: String, type: HLSSegmentType, rate: FrameRate, starts: [Int64],
                            soundEnd: Rational?, flipped: Bool, decodeDelay: Rational, timestampBase: Rational,
                            pids: TransportStreamPIDs?) throws(MediaError) -> (offsets: [Int64], straddled: Bool) {
        let file = try InputFile(path: input)
        let muxer = try SegmentMuxer(copying: file, to: path, container: type == .fmp4 ? .fragmentedMP4 : .mpegTS, pids: pids)
        // TS: the first segment begins at the first byte; fMP4: after the init segment, known after the first piece.
        var offsets: [Int64] = [0]
        let video = file.bestStream(.video)
        let timeBases = (0..<file.streamCount).map { file.streamDescription($0).timeBase }
        /// The segment of a packet: a video frame's by its frame number; another stream's by its start time.
        func segment(of packet: Packet) -> Int? {
            guard let pts = packet.pts else { return nil }
            let time = Rational(pts) * timeBases[packet.streamIndex] * rate.perSecond
            let frame = packet.streamIndex == video ? time.rounded : time.floor
            return (starts.lastIndex { $0 <= frame }) ?? 0
        }
        // Packets are held until every stream has moved past their segment, then written as one piece.
        var pending: [[Packet]] = Array(repeating: [], count: starts.count)
        var reached = Array(repeating: -1, count: file.streamCount)
        var current = 0
        func writePiece() throws(MediaError) {
            try muxer.beginPiece()
            for packet in pending[current] { try muxer.write(packet) }
            pending[current] = []
            offsets.append(try muxer.endPiece())
            current += 1
        }
        // A sound frame's length, the longest packet's so far (an MP4's last packet is cut short by its edit list).
        var soundFrame = Array(repeating: Int64(0), count: file.streamCount)
        var straddled = false
        try file.forEachPacket { packet throws(MediaError) in
            if let soundEnd, packet.streamIndex != video, let pts = packet.pts {
                let length = max(soundFrame[packet.streamIndex], packet.duration), base = timeBases[packet.streamIndex]
                soundFrame[packet.streamIndex] = length
                let middle = (Rational(pts) + Rational(length, 2)) * base
                let straddles = Rational(pts) * base < soundEnd && (Rational(pts) + Rational(length)) * base > soundEnd
                straddled = straddled || (straddles && !packet.isDiscarded)
                if packet.isDiscarded || (middle >= soundEnd) != (flipped && straddles) { return }
            }
            let s = max(current, segment(of: packet) ?? reached[packet.streamIndex])
            let copy = try packet.clone()
            if decodeDelay > .zero || timestampBase > .zero, let pts = packet.pts {
                // Every stream later by the base and the delay, and each picture (not reordered: see the parameter)
                // decoded the delay before it is shown: the same pictures and sound, in step.
                let base = (timestampBase / timeBases[packet.streamIndex]).rounded
                let delay = (decodeDelay / timeBases[packet.streamIndex]).rounded
                let decoded = packet.streamIndex == video && decodeDelay > .zero ? pts : (packet.dts ?? pts) + delay
                copy.stamp(pts: base + pts + delay, dts: base + decoded, duration: packet.duration)
            }
            pending[s].append(copy)
            reached[packet.streamIndex] = max(reached[packet.streamIndex], s)
            while current < starts.count - 1, reached.allSatisfy({ $0 > current }) { try writePiece() }
        }
        while current < starts.count { try writePiece() }
        try muxer.finish()
        if let initEnd = muxer.initEnd { offsets[0] = initEnd }
        return (offsets, straddled)
    }

    /// Copies every stream of `input` (an HLS media playlist, read once from start to end through FFmpeg's HLS
    /// demuxer) into a plain MP4 at `path`, in which FFmpeg can seek: FFmpeg 5.1's HLS demuxer misreads fMP4
    /// segments after a seek, and `verify` seeks to check the sound.
    public static func remux(_ input: String, toMP4 path: String) throws(MediaError) {
        let file = try InputFile(path: input)
        let muxer = try SegmentMuxer(copying: file, to: path, container: .mp4)
        try file.forEachPacket { packet throws(MediaError) in try muxer.write(try packet.clone()) }
        try muxer.finish()
    }

    /// Copies `input`'s sound (its audio streams, not its pictures) into MPEG-TS file `path`, timestamps and the
    /// sound's PID as they are: a sound-only segment of a segment that carries pictures and sound, for an audio
    /// rendition whose breaks were cut with pictures.
    public static func soundOnly(_ input: String, to path: String) throws(MediaError) {
        let file = try InputFile(path: input)
        guard file.bestStream(.audio) != nil else { throw .missingStream(path: input, kind: .audio) }
        let muxer = try SegmentMuxer(copying: file, to: path, container: .mpegTS, pids: try? TransportStreamPIDs.of(input), soundOnly: true)
        try file.forEachPacket { packet throws(MediaError) in try muxer.write(try packet.clone()) }
        try muxer.finish()
    }

    /// The earliest video presentation time of a media file or an HLS media playlist, 90 kHz, read from its
    /// packets (no decoding).
    public static func firstVideoPTS(_ path: String) throws(MediaError) -> Int64 {
        let input = try InputFile(path: path)
        guard let video = input.bestStream(.video) else { throw .missingStream(path: path, kind: .video) }
        let timeBase = input.streamDescription(video).timeBase
        var first: Int64?
        try input.forEachPacket { packet throws(MediaError) in
            guard packet.streamIndex == video, let pts = packet.pts else { return }
            first = min(first ?? pts, pts)
        }
        return first.map { (Rational($0) * timeBase * Rational(90_000)).rounded } ?? 0
    }

    /// Copies bytes `range` of `path` into a new file `destination`.
    private static func copyBytes(of path: String, range: Range<Int64>, to destination: String) throws(MediaError) {
        do {
            let source = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? source.close() }
            try source.seek(toOffset: UInt64(range.lowerBound))
            guard FileManager.default.createFile(atPath: destination, contents: nil) else {
                throw MediaError.outputNotWritable(path: destination, reason: "cannot create the file")
            }
            let sink = try FileHandle(forWritingTo: URL(fileURLWithPath: destination))
            defer { try? sink.close() }
            var left = range.count
            while left > 0 {
                let chunk = try source.read(upToCount: min(left, 1 << 20)) ?? Data()
                guard !chunk.isEmpty else { throw MediaError.outputNotWritable(path: destination, reason: "\(path) ended early") }
                try sink.write(contentsOf: chunk)
                left -= chunk.count
            }
        } catch let error as MediaError {
            throw error
        } catch {
            throw .outputNotWritable(path: destination, reason: "\(error.localizedDescription)")
        }
    }
}
