import CFFmpeg
import Foundation
import MediaCore

/// One H.264 track made of the content's own packets, copied, and pictures encoded around them: the core of a
/// passthrough render, which re-encodes only the partial GOPs at each cut and the ads.
///
/// **How one stream holds both.** The copied packets refer to the content's SPS and PPS; the encoded runs to
/// x264's, which are set up with `sps-id` one past the content's highest id, so the two sets have distinct ids and
/// the track's `avcC` lists both (ISO/IEC 14496-15 allows several). A decoder activates the SPS a slice's PPS names
/// at each IDR, and every switch is at an IDR: a copied run starts at one of the content's IDRs and ends before the
/// next, and each encoded run is a fresh encoder whose first picture is an IDR. x264 gets the content's profile,
/// level, sample aspect and colour description, so the switch changes nothing a player shows.
///
/// **Timestamps.** Presentation time is the output frame index; decode time is the packet's decode index less a
/// constant delay `D`, the larger of the content's and the encoder's reordering depth. Each run is closed (no
/// reference crosses an IDR), so within a run whose own depth is at most `D` every packet's decode time is at most
/// its presentation time, and decode times increase across the splices.
///
/// **Limits.** The content must be H.264, 8-bit 4:2:0, constant frame rate equal to the output's, at the output's
/// size, with closed GOPs starting at IDRs (x264's default); `CopySource` says which condition fails.
/// An ad is copied the same way when it was coded with the content's own parameter sets (`copySource`).
final class SplicedVideoTrack {
    let destination: String
    let format: OutputFormat
    /// The content, whose pictures are copied between the cuts.
    let content: CopySource

    private let encoding: EncodingSettings
    private let context: OutputContext
    let stream: MuxerStream
    private let encoderSPSID: Int
    private let delay: Int64
    private let packet: Packet
    /// Holds a packet's properties while its payload is rewritten.
    private let properties: Packet
    private var encoder: CodecContext?
    private var runStart: Int64 = 0
    private var runFrames: Int64 = 0
    private var frames: Int64 = 0
    private var decodeIndex: Int64 = 0

    /// Opens `content` for copying and adds the track to `context` (before its header is written).
    init(in context: OutputContext, content path: String, format: OutputFormat, encoding: EncodingSettings,
         reportedAs destination: String) throws(MediaError) {
        self.destination = destination
        self.context = context
        self.format = format
        self.encoding = encoding
        content = try CopySource(path: path, format: format)
        let contentSets = content.sets
        encoderSPSID = (contentSets.sequenceSetIDs.max() ?? 0) + 1
        guard encoderSPSID < 32, (contentSets.pictureSetIDs.max() ?? 0) < 255 else {
            throw .cannotCopy(path: path, reason: .parameterSetIDsExhausted)
        }
        packet = try Packet()
        properties = try Packet()
        stream = try context.newStream()
        let par = content.parameters
        let first = try SplicedVideoTrack.x264(format: format, encoding: encoding, content: content, spsID: encoderSPSID)
            .open(path: destination)
        let encoderSets = try AVCParameterSets(annexB: first.extradata)
        guard Set(encoderSets.sequenceSetIDs).isDisjoint(with: contentSets.sequenceSetIDs),
              Set(encoderSets.pictureSetIDs).isDisjoint(with: contentSets.pictureSetIDs) else {
            throw .cannotCopy(path: path, reason: .parameterSetIDsClash(encoderSets.sequenceSetIDs.map { Int($0) }))
        }
        encoder = first
        delay = max(content.reorderDepth, first.reorderDepth)
        try stream.setParameters(from: first)
        try stream.setExtradata(contentSets.merged(with: encoderSets).avcC)
        stream.setVideoTiming(rate: format.frameRate, sampleAspect: par.sampleAspect)
    }

    /// Opens `path` (an ad) for copying into this track.
    /// - Throws: `.cannotCopy` with the reason when its pictures cannot join the track as they are: not H.264 at
    ///   the output's size and rate, or coded with parameter sets other than the content's (the track's `avcC` is
    ///   the content's and x264's, fixed before the first picture), or reordered deeper than the track allows.
    func copySource(_ path: String) throws(MediaError) -> CopySource {
        let source = try CopySource(path: path, format: format)
        guard source.sets.sequenceSets.allSatisfy(content.sets.sequenceSets.contains),
              source.sets.pictureSets.allSatisfy(content.sets.pictureSets.contains) else {
            throw .cannotCopy(path: path, reason: .otherParameterSets)
        }
        guard source.reorderDepth <= delay else {
            throw .cannotCopy(path: path, reason: .reorderDepth(Int(source.reorderDepth), limit: Int(delay)))
        }
        return source
    }

    /// Frames written so far.
    var frameCount: Int64 { frames }

    /// Copies the pictures `range` (display indices) of `source` (the content when `nil`): `range.lowerBound` must
    /// be an IDR (`keyframes`), and `range.upperBound` another or the file's end.
    func copy(_ range: Range<Int64>, from source: CopySource? = nil) throws(MediaError) {
        let source = source ?? content
        precondition(source.keyframes.contains(range.lowerBound) && (source.keyframes.contains(range.upperBound) || range.upperBound == source.frames),
                     "copied run \(range) of \(source.path) does not start and end at IDRs")
        try endRun()
        try source.readPackets(range, into: packet, scratch: properties) { (offset: Int64) throws(MediaError) in
            try write(pts: frames + offset, key: packet.isKeyframe)
        }
        frames += Int64(range.count)
    }

    /// Encodes `picture` (yuv420p at the output size) as the next frame; the first after a copy starts a new run
    /// with an IDR, and a `keyframe` is one too (where an HLS segment may start).
    func encode(_ picture: VideoPicture, keyframe: Bool = false) throws(MediaError) {
        precondition(picture.size == format.size && picture.frame.pixelFormat == AV_PIX_FMT_YUV420P)
        if encoder == nil {
            encoder = try SplicedVideoTrack.x264(format: format, encoding: encoding, content: content, spsID: encoderSPSID)
                .open(path: destination)
        }
        if runFrames == 0 { runStart = frames }
        picture.frame.presentationTime = runFrames
        picture.frame.forceKeyframe(keyframe)
        try encoder!.send(picture.frame, path: destination)
        runFrames += 1
        frames += 1
        try drainRun()
    }

    /// Ends the last encoded run (before the file's trailer is written).
    func finish() throws(MediaError) {
        try endRun()
        encoder = nil
    }

    // MARK: - Runs

    /// x264 for a run: the output's size and rate, the content's profile, level, aspect and colour, and SPS/PPS ids
    /// from `spsID`.
    private static func x264(format: OutputFormat, encoding: EncodingSettings, content: CopySource, spsID: Int) -> X264Encoder {
        let par = content.parameters
        let match = X264Encoder.Match(profile: content.sets.profile, level: content.sets.level, spsID: spsID,
                                      sampleAspect: par.knownSampleAspect, colour: par.colour)
        return X264Encoder(format: format, encoding: encoding, globalHeader: true, match: match)
    }

    private func drainRun() throws(MediaError) {
        guard let encoder else { return }
        try encoder.receivePackets(into: packet, path: destination) { packet throws(MediaError) in
            guard let pts = packet.pts else {
                throw .unreadable(path: destination, function: "avcodec_receive_packet", message: "x264 gave a packet without a timestamp")
            }
            try annexBToLengths()
            try write(pts: runStart + pts, key: packet.isKeyframe)
        }
    }

    /// Flushes the current encoded run, if any; the next `encode` opens a fresh encoder.
    private func endRun() throws(MediaError) {
        guard runFrames > 0, let encoder else { return }
        try encoder.send(nil, path: destination)
        try drainRun()
        self.encoder = nil
        runFrames = 0
    }

    private func write(pts: Int64, key: Bool) throws(MediaError) {
        packet.stamp(pts: pts, dts: decodeIndex - delay, duration: 1)
        packet.setKeyframe(key)
        decodeIndex += 1
        try context.write(packet, to: stream, from: format.frameRate.timeBase, path: destination)
    }

    // MARK: - NAL units

    /// An encoded packet (Annex B) as length-prefixed NAL units, without parameter sets or delimiters (the track's
    /// `avcC` has the sets).
    private func annexBToLengths() throws(MediaError) {
        let units = AVCParameterSets.nalUnits(annexB: Array(packet.payload))
        try packet.replacePayload(withLengthPrefixed: units.filter { ![7, 8, 9].contains($0[0] & 0x1F) }, scratch: properties)
    }
}
