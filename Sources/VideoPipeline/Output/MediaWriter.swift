import CFFmpeg
import Foundation
import MediaCore

/// Encodes canvas pictures and audio and muxes them into a file, atomically.
///
/// Video frame `n` gets timestamp `n` in the time base `1 / frame rate`; audio gets the running sample count in
/// `1 / sample rate`, so the two clocks are exact and independent. The file is written under a temporary name
/// beside the destination and renamed into place by `finish()`; a writer dropped before that removes it.
public final class MediaWriter {
    public let destination: String
    public let format: OutputFormat
    public let encoding: EncodingSettings

    /// The file being written and its muxer.
    private var file: File
    private var video: Video
    /// The audio track's state; with `encodeAudio` on a thread of its own, only that thread touches it.
    private var audio: Audio
    /// The audio encoder, when the track is encoded (not spliced), for `writeAudio(packets:)` on the muxing
    /// thread.
    private let audioOutput: Encoder?

    /// The file being written: under its temporary name until it is put in place, the muxer writing it, the packet
    /// the encoders drain through, and whether its trailer is written.
    private struct File {
        let output: AtomicFile
        let context: OutputContext
        let packet: Packet
        var finished = false
    }

    /// The video track: the encoder, or in passthrough the track of copied and encoded runs, and the frames written.
    private struct Video {
        let encoder: Encoder?
        let spliced: SplicedVideoTrack?
        var frames: Int64 = 0
    }

    /// The audio track: the encoder, or in passthrough (when the content's sound can be copied) the track of copied
    /// and encoded packets; the samples waiting for the encoder (`fifo`, taken `frameSize` at a time into `frame`;
    /// `staging` converts them for PCM) and the samples encoded or passed to the spliced track.
    private struct Audio {
        let encoder: Encoder?
        let spliced: SplicedAudioTrack?
        let fifo: AudioFIFO
        let frame: Frame
        let frameSize: Int
        /// The packet the encoder's packets are received through (not the file's: audio may be encoded on a
        /// thread of its own).
        let scratch: Packet
        var samples: Int64 = 0
        var staging: AudioBuffer?
    }

    /// Video frames written so far.
    public var frameCount: Int64 { video.frames }
    /// Audio samples written so far.
    public var sampleCount: Int64 { audio.samples + Int64(audio.fifo.count) }
    /// In passthrough, the content's sound, whose packets are copied; `nil` when it is encoded (`audioCopyRefusal`
    /// says why).
    public var contentSound: AudioPacketSource? { audio.spliced?.content }

    /// In passthrough with the content's sound copied, `path` (an ad) opened for its packets to be copied too.
    /// - Throws: `.cannotCopy` with the reason when its sound is not AAC-LC in the output's format.
    public func soundSource(_ path: String) throws(MediaError) -> AudioPacketSource? {
        try audio.spliced?.source(path)
    }
    /// In passthrough, why the content's sound is encoded rather than copied.
    public let audioCopyRefusal: CopyRefusal?
    /// In passthrough, the AAC packets copied from the content and encoded so far.
    public var audioPackets: (copied: Int, encoded: Int)? { audio.spliced.map { ($0.packets.copied, $0.packets.encoded) } }

    /// Creates the temporary output and opens the encoders.
    ///
    /// The container follows the destination's extension (`.mp4`, `.m4v`, `.mov`, `.mkv`); other names get the
    /// profile's own (MP4 for delivery, Matroska for lossless).
    /// With `passthrough`, an H.264 file at the output's size and rate, the video track is a `SplicedVideoTrack`:
    /// `copyVideo` copies that file's pictures, `writeVideo` encodes runs between them; MP4 only. Its audio track,
    /// with `copySound` and sound that allows it, is a `SplicedAudioTrack` (`contentSound`).
    /// - Throws: `.invalidSetting` for a bad size, rate or encoder setting, `.outputNotWritable` when the
    ///   destination's directory is missing, `.cannotCopy` for a `passthrough` file that cannot be copied, FFmpeg
    ///   errors naming the function.
    public init(destination: String, format: OutputFormat, encoding: EncodingSettings, passthrough: String? = nil,
                copySound: Bool = true) throws(MediaError) {
        FFmpegLog.applyDefault()
        try format.validate()
        try encoding.validate()
        self.destination = destination
        self.format = format
        self.encoding = encoding
        let containerName = try MediaWriter.container(for: destination, profile: encoding.profile)
        let output = try AtomicFile.forMedia(destination)

        // Each FFmpeg object is owned by its wrapper from allocation, so a failure anywhere below frees each once.
        let context = try OutputContext(container: containerName, filename: output.temporaryPath)
        file = File(output: output, context: context, packet: try Packet())
        if let passthrough {
            guard containerName == "mp4" || containerName == "mov" else {
                throw .invalidSetting(name: "passthrough", value: destination, reason: "copies H.264 into MP4 only: name the output .mp4")
            }
            video = Video(encoder: nil, spliced: try SplicedVideoTrack(in: context, content: passthrough, format: format,
                                                                       encoding: encoding, reportedAs: destination))
        } else {
            video = Video(encoder: try Encoder.video(in: context, format: format, encoding: encoding), spliced: nil)
        }
        var splicedAudio: SplicedAudioTrack?, refusal: CopyRefusal?
        if passthrough != nil, !copySound {
            refusal = .soundEncodedByRequest
        } else if let passthrough {
            do {
                splicedAudio = try SplicedAudioTrack(in: context, content: passthrough, format: format, encoding: encoding, reportedAs: destination)
            } catch .cannotCopy(_, let reason) {
                refusal = reason
            }
        }
        audioCopyRefusal = refusal
        let encoder = splicedAudio == nil ? try Encoder.audio(in: context, format: format, encoding: encoding) : nil
        audioOutput = encoder
        let frameSize = encoder?.frameSize ?? 1024
        audio = Audio(encoder: encoder, spliced: splicedAudio,
                      fifo: try AudioFIFO(format: AV_SAMPLE_FMT_FLTP, channels: format.channels, capacity: frameSize * 4,
                                          path: destination),
                      frame: try Frame(), frameSize: frameSize, scratch: try Packet())
        try openFile()
    }

    static func container(for destination: String, profile: EncodingSettings.Profile) throws(MediaError) -> String {
        let ext = URL(fileURLWithPath: destination).pathExtension.lowercased()
        switch (ext, profile) {
        case ("mkv", _): return "matroska"
        case ("mp4", .delivery), ("m4v", .delivery): return "mp4"
        case ("mov", .delivery): return "mov"
        case ("mp4", .lossless), ("m4v", .lossless), ("mov", .lossless):
            throw .invalidSetting(name: "profile", value: "lossless",
                                  reason: "writes FFV1 and PCM, which need Matroska: name the output .mkv")
        default: return profile == .delivery ? "mp4" : "matroska"
        }
    }

    private func openFile() throws(MediaError) {
        try file.context.openIO(file.output.temporaryPath, reportedAs: destination)
        let options = FFmpegOptions()
        if encoding.profile == .delivery { try options.set("movflags", "+faststart") }
        try file.context.writeHeader(options: options, reportedAs: destination)
    }

    /// Encodes the compositor's canvas as the next video frame.
    public func writeVideo(_ compositor: Compositor) throws(MediaError) {
        try writeVideo(compositor.picture)
    }

    /// Encodes `picture` (which must be yuv420p at the output size) as the next video frame; a `keyframe` is
    /// forced to be one, so that the stream can be cut there (HLS segments).
    public func writeVideo(_ picture: VideoPicture, keyframe: Bool = false) throws(MediaError) {
        precondition(picture.size == format.size && picture.frame.pixelFormat == AV_PIX_FMT_YUV420P)
        video.frames += 1
        guard let encoder = video.encoder else { return try video.spliced!.encode(picture, keyframe: keyframe) }
        try encoder.send(picture.frame, pts: video.frames - 1, keyframe: keyframe, path: destination)
        try drain(encoder)
    }

    /// The passthrough file's IDR pictures (where a copied run may start or end) and its picture count; `nil`
    /// without passthrough.
    public var copyable: CopySource? { video.spliced?.content }

    /// Opens `path` (an ad) to be copied like the passthrough file; `nil` without passthrough.
    /// - Throws: `.cannotCopy` with the reason when its pictures cannot be copied into this output as they are.
    public func copySource(_ path: String) throws(MediaError) -> CopySource? {
        try video.spliced?.copySource(path)
    }

    /// Copies the pictures `range` of `source` (the passthrough file when `nil`) as the next video frames (`range`
    /// starts at an IDR and ends at one or at the file's end, `copyable`).
    public func copyVideo(_ range: Range<Int64>, from source: CopySource? = nil) throws(MediaError) {
        try video.spliced!.copy(range, from: source)
        video.frames += Int64(range.count)
    }

    /// Appends the samples of `buffer` (planar float in the output format) to the audio track.
    public func writeAudio(_ buffer: AudioBuffer) throws(MediaError) {
        precondition(buffer.channels == format.channels && buffer.sampleRate == format.sampleRate)
        guard buffer.count > 0 else { return }
        if let spliced = audio.spliced {
            try spliced.write(buffer)
            audio.samples += Int64(buffer.count)
            return
        }
        try writeAudio(packets: try encodeAudio(buffer))
    }

    /// Whether the audio track is encoded here (not spliced from copied packets): then its encoding may run on a
    /// thread of its own, `encodeAudio` there and `writeAudio(packets:)` on the thread that writes the video.
    var encodesAudio: Bool { audioOutput != nil }

    /// Appends the samples of `buffer` to the audio encoder and takes the packets it makes of them, without
    /// writing them: `writeAudio(packets:)` does, in the same order relative to the video as `writeAudio(_:)`
    /// would have, so the file is the same bytes. Only one thread at a time may encode audio.
    func encodeAudio(_ buffer: AudioBuffer) throws(MediaError) -> [Packet] {
        precondition(buffer.channels == format.channels && buffer.sampleRate == format.sampleRate && encodesAudio)
        guard buffer.count > 0 else { return [] }
        let fifo = audio.fifo
        _ = try buffer.withPlanes { planes throws(MediaError) in try fifo.write(planes, count: buffer.count) }
        var packets: [Packet] = []
        while fifo.count >= audio.frameSize {
            packets += try encodeAudio(count: audio.frameSize)
        }
        return packets
    }

    /// Writes the audio packets `encodeAudio` made.
    func writeAudio(packets: [Packet]) throws(MediaError) {
        guard let audioOutput, !packets.isEmpty else { return }
        try audioOutput.write(packets, into: file.context, path: destination)
    }

    /// Flushes the encoders, writes the trailer and moves the file into place.
    public func finish() throws(MediaError) {
        try finishWriting().commitMedia()
    }

    /// Flushes the encoders and writes the trailer, leaving the file under its temporary name: the caller puts it
    /// in place with its other outputs (`AtomicFile.commitAll`), so that they all appear or none does.
    public func finishWriting() throws(MediaError) -> AtomicFile {
        precondition(!file.finished)
        let rest = audio.fifo.count
        if rest > 0 { try writeAudio(packets: try encodeAudio(count: rest)) }
        if let encoder = video.encoder {
            try encoder.send(nil, pts: 0, path: destination)
            try drain(encoder)
        }
        try video.spliced?.finish()
        try audio.spliced?.finish()
        if let encoder = audio.encoder {
            try encoder.send(nil, pts: 0, path: destination)
            try writeAudio(packets: try encoder.drain(using: audio.scratch, path: destination))
        }
        try file.context.writeTrailer(reportedAs: destination)
        file.finished = true
        try file.context.closeIO(reportedAs: destination)
        return file.output
    }

    /// Pops `count` samples from the FIFO and encodes them as one audio frame; returns the packets it made.
    private func encodeAudio(count: Int) throws(MediaError) -> [Packet] {
        guard let encoder = audio.encoder else { return [] }
        let frame = audio.frame
        try encoder.prepareAudio(frame, count: count)
        if encoder.takesPlanarFloat {
            try audio.fifo.read(into: frame, count: count)
        } else {
            try readInterleavedS16(into: frame, count: count)
        }
        try encoder.send(frame, pts: audio.samples, path: destination)
        audio.samples += Int64(count)
        return try encoder.drain(using: audio.scratch, path: destination)
    }

    /// PCM wants interleaved 16-bit: read planar floats, round and clamp.
    private func readInterleavedS16(into frame: Frame, count: Int) throws(MediaError) {
        if audio.staging == nil || audio.staging!.capacity < count {
            audio.staging = try AudioBuffer(channels: format.channels, sampleRate: format.sampleRate,
                                            capacity: max(count, audio.frameSize))
        }
        let staging = audio.staging!, fifo = audio.fifo
        _ = try staging.withPlanes { planes throws(MediaError) in try fifo.read(planes, count: count) }
        let out = UnsafeMutableRawPointer(frame.dataPointer(0)!).assumingMemoryBound(to: Int16.self)
        let channels = format.channels
        for c in 0..<channels {
            let plane = staging.plane(c)
            for i in 0..<count {
                let v = (plane[i] * 32767).rounded()
                out[i * channels + c] = Int16(max(-32768, min(32767, v)))
            }
        }
    }

    /// Takes every packet the encoder has ready and writes it.
    private func drain(_ encoder: Encoder) throws(MediaError) {
        try encoder.drain(into: file.context, using: file.packet, path: destination)
    }
}
