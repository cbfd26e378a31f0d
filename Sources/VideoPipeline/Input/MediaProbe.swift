import MediaCore

/// Reads what a media file holds without decoding it.
public enum MediaProbe {
    /// Opens `path` and describes its container and streams, after opening a decoder for its main video and audio
    /// streams (nothing is decoded): a file whose codec parameters no decoder accepts cannot be played, and saying
    /// so here is better than listing it as if it could.
    ///
    /// - Parameter pictureLimit: for an ad's file, the largest video it may have, checked from the container's
    ///   header before `avformat_find_stream_info` decodes anything (`InputFile`); `nil` for the user's content.
    /// - Throws: `MediaError.fileNotFound`, `.isDirectory`, `.emptyFile`, `.unreadable` (not media, or no decoder
    ///   for a codec), `.truncated`, `.pictureTooLarge` over `pictureLimit`, and FFmpeg errors naming
    ///   `avcodec_open2` (corrupt codec parameters).
    public static func probe(_ path: String, pictureLimit: PictureLimit? = nil) throws(MediaError) -> MediaInfo {
        let input = try InputFile(path: path, pictureLimit: pictureLimit)
        for kind in [StreamKind.video, .audio] {
            guard let index = input.bestStream(kind) else { continue }
            _ = try CodecContext.decoder(for: input.stream(index), kind: kind, threads: 1, path: path)
        }
        return input.info
    }

    /// What a demux-only scan of the video stream finds: how many frames (packets) it has and where it ends.
    public struct VideoScan: Hashable, Sendable {
        /// Packets of the video stream: its frames, counted in the container rather than read from a header.
        public var frames: Int64
        /// The end of its last frame (timestamp + duration) relative to the file's start; `nil` without timestamps.
        public var end: MediaDuration?
        /// Where its first picture starts (the earliest presentation timestamp) relative to the file's start, which
        /// is the earliest of all its streams': a sound that starts before the picture (an AAC encoder's priming)
        /// puts it after zero; `nil` without timestamps.
        public var firstPicture: MediaDuration?
    }

    /// Reads every packet of the file's video stream without decoding it.
    ///
    /// - Throws: what `probe` throws, `.missingStream(kind: .video)`, and demuxing errors naming `av_read_frame`.
    public static func scanVideo(_ path: String) throws(MediaError) -> VideoScan {
        let input = try InputFile(path: path)
        guard let index = input.bestStream(.video) else { throw .missingStream(path: path, kind: .video) }
        let (count, first, end) = try input.scanPackets(ofStream: index)
        let origin = input.startTime ?? .zero
        return VideoScan(frames: count, end: end.map { $0 - origin }, firstPicture: first.map { $0 - origin })
    }

    /// What a demux-only scan of a file's sound and picture finds, on the file's own clock (seconds).
    public struct SoundScan: Hashable, Sendable {
        /// The samples its sound packets hold, at `sampleRate`: each packet's duration (an AAC packet's 1,024).
        public var samples: Int64
        public var sampleRate: Int
        /// The presentation time of its first sound packet and of its first picture; `nil` without either.
        public var firstSound: Rational?
        public var firstPicture: Rational?
        /// Its pictures (video packets), and the presentation time of the last one's start.
        public var pictures: Int64 = 0
        public var lastPicture: Rational?

        /// Where its sound starts after its first picture, in samples (negative: before it).
        public var soundAfterPicture: Int64? {
            guard let firstSound, let firstPicture else { return nil }
            return ((firstSound - firstPicture) * Rational(Int64(sampleRate))).rounded
        }
    }

    /// Reads every packet of the file's sound and video without decoding them: how much sound it holds and where
    /// its sound and picture start (what a reader that plays files' sounds one after the other hears).
    ///
    /// - Throws: what `probe` throws and demuxing errors naming `av_read_frame`.
    public static func scanSound(_ path: String) throws(MediaError) -> SoundScan {
        let input = try InputFile(path: path)
        let audio = input.bestStream(.audio), video = input.bestStream(.video)
        let sampleRate = input.info.bestAudio?.sampleRate ?? 48_000
        let bases = (0..<input.streamCount).map { input.streamDescription($0).timeBase }
        var scan = SoundScan(samples: 0, sampleRate: sampleRate)
        try input.forEachPacket { packet throws(MediaError) in
            guard let pts = packet.pts else { return }
            let time = Rational(pts) * bases[packet.streamIndex]
            if packet.streamIndex == audio {
                scan.samples += (Rational(packet.duration) * bases[packet.streamIndex] * Rational(Int64(sampleRate))).rounded
                scan.firstSound = scan.firstSound.map { .min($0, time) } ?? time
            } else if packet.streamIndex == video {
                scan.firstPicture = scan.firstPicture.map { .min($0, time) } ?? time
                scan.lastPicture = scan.lastPicture.map { .max($0, time) } ?? time
                scan.pictures += 1
            }
        }
        return scan
    }
}
