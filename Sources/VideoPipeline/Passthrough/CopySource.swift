import CFFmpeg
import Foundation
import MediaCore

/// An H.264 file whose pictures a passthrough track can copy: the content, or an ad coded with the content's own
/// parameter sets. It is opened and scanned once (its IDR pictures, its picture count), then read run by run.
///
/// A source is used by one thread at a time: made on the render's thread, then handed to the one that writes the
/// output (`OutputStage.copyVideo`), which alone reads it.
public final class CopySource: @unchecked Sendable {
    public var path: String { input.path }
    /// IDR pictures, by display index from the first picture: where a copied run may start and end.
    public let keyframes: [Int64]
    /// Pictures in the file.
    public let frames: Int64
    /// Keyframes that are not IDRs (I-pictures of open GOPs, with a recovery point): not copy points, since
    /// pictures after them in decode order may refer to pictures before them.
    public let openGOPKeyframes: Int
    /// Its parameter sets (`avcC`).
    let sets: AVCParameterSets
    /// How many pictures its decoder holds back for reordering.
    let reorderDepth: Int64

    private let input: InputFile
    private let stream: Int
    private let timeBase: Rational
    private let firstPTS: Int64
    private let rate: FrameRate

    /// Opens `path` for copying into an output of `format`.
    /// - Throws: `.cannotCopy` with the reason when its video is not H.264 at the output's size, 8-bit 4:2:0, on the
    ///   output's frame grid, with its parameter sets in an `avcC`.
    init(path: String, format: OutputFormat) throws(MediaError) {
        input = try InputFile(path: path)
        guard let index = input.bestStream(.video) else { throw .missingStream(path: path, kind: .video) }
        stream = index
        let par = input.parameters(ofStream: index)
        try CopySource.checkCopyable(par, path: path, format: format)
        timeBase = input.timeBase(ofStream: index) ?? Rational(1, 90_000)
        rate = format.frameRate
        guard !par.extradata.isEmpty else {
            throw .cannotCopy(path: path, reason: .noAVCC)
        }
        sets = try AVCParameterSets(avcC: par.extradata)
        reorderDepth = Int64(par.videoDelay)
        (keyframes, openGOPKeyframes, frames, firstPTS) = try CopySource.scan(input, stream: index, timeBase: timeBase, rate: format.frameRate)
    }

    /// The codec parameters of its video.
    var parameters: StreamParameters { input.parameters(ofStream: stream) }

    /// Reads the packets of pictures `range` (display indices; `range.lowerBound` an IDR) in decode order and hands
    /// each, with 4-byte NAL lengths, to `body` with its display index less `range.lowerBound`.
    func readPackets(_ range: Range<Int64>, into packet: Packet, scratch: Packet,
                     _ body: (_ offset: Int64) throws(MediaError) -> Void) throws(MediaError) {
        let start = Rational(range.lowerBound) / rate.perSecond / timeBase
        try input.seek(stream: stream, to: firstPTS + start.rounded)
        var copied: Int64 = 0
        while copied < range.count, try input.readPacket(ofStream: stream, into: packet) {
            let display = try displayIndex(packet.pts)
            guard range.contains(display) else {
                if display >= range.upperBound { break } else { continue }
            }
            try rewriteLengths(packet, scratch: scratch)
            try body(display - range.lowerBound)
            copied += 1
        }
        guard copied == Int64(range.count) else {
            throw .unreadable(path: path, function: "av_read_frame", message: "\(copied) of the \(range.count) pictures of \(range) were read")
        }
    }

    /// The display index of a packet stamped `pts`.
    private func displayIndex(_ pts: Int64?) throws(MediaError) -> Int64 {
        guard let pts else { throw .cannotCopy(path: path, reason: .unstampedPicture) }
        let index = Rational(pts - firstPTS) * timeBase * rate.perSecond
        guard index.isInteger else { throw .cannotCopy(path: path, reason: .offFrameGrid) }
        return index.numerator
    }

    /// `packet` with 4-byte NAL lengths (the track's), whatever the file's were.
    private func rewriteLengths(_ packet: Packet, scratch: Packet) throws(MediaError) {
        guard sets.lengthSize != 4 else { return }
        let units = AVCParameterSets.nalUnits(lengthPrefixed: packet.payload, lengthSize: sets.lengthSize)
        guard let units else { throw .unreadable(path: path, function: "av_read_frame", message: "a packet's NAL lengths overrun it") }
        try packet.replacePayload(withLengthPrefixed: units.map { Array($0) }, scratch: scratch)
    }

    /// Demuxes the file once: its IDR pictures (display indices), how many other keyframes it has, its picture
    /// count and its first timestamp.
    private static func scan(_ input: InputFile, stream: Int, timeBase: Rational, rate: FrameRate) throws(MediaError) -> ([Int64], Int, Int64, Int64) {
        let packet = try Packet()
        var samples: [(pts: Int64, key: Bool)] = [], openGOP = 0
        while try input.readPacket(ofStream: stream, into: packet) {
            guard let pts = packet.pts else { throw .cannotCopy(path: input.path, reason: .unstampedPicture) }
            let key = packet.isKeyframe, idr = key && isIDR(packet)
            if key && !idr { openGOP += 1 }
            samples.append((pts, idr))
        }
        guard let first = samples.map(\.pts).min() else { throw .noFrames(path: input.path) }
        // Every picture on the output's grid, one per tick with none missing: a constant rate equal to the output's.
        var keyframes: [Int64] = [], indices: [Int64] = []
        for sample in samples {
            let index = Rational(sample.pts - first) * timeBase * rate.perSecond
            guard index.isInteger else { throw .cannotCopy(path: input.path, reason: .offFrameGrid) }
            indices.append(index.numerator)
            if sample.key { keyframes.append(index.numerator) }
        }
        guard indices.sorted() == Array(0..<Int64(indices.count)) else {
            throw .cannotCopy(path: input.path, reason: .notOnePerFrame)
        }
        return (keyframes.sorted(), openGOP, Int64(samples.count), first)
    }

    /// Whether a length-prefixed sample holds an IDR slice.
    private static func isIDR(_ packet: Packet) -> Bool {
        let buffer = packet.payload
        for length in [4, 2, 1] {
            if let units = AVCParameterSets.nalUnits(lengthPrefixed: buffer, lengthSize: length) {
                return units.contains { $0.first.map { $0 & 0x1F == 5 } ?? false }
            }
        }
        return false
    }

    /// Whether a video of `par` can be copied into an output of `format`; the reason when not.
    static func checkCopyable(_ par: StreamParameters, path: String, format: OutputFormat) throws(MediaError) {
        func no(_ why: CopyRefusal) -> MediaError { .cannotCopy(path: path, reason: why) }
        guard par.codecID == AV_CODEC_ID_H264 else { throw no(.videoCodec(par.codecName)) }
        guard par.pixelFormat == AV_PIX_FMT_YUV420P || par.pixelFormat == AV_PIX_FMT_YUVJ420P else {
            throw no(.pixelFormat)
        }
        guard par.width == format.size.width, par.height == format.size.height else {
            throw no(.pictureSize(width: Int(par.width), height: Int(par.height), output: format.size))
        }
    }
}
