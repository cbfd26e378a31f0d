import CFFmpeg
import MediaCore

/// Encodes single pictures into still-image files' bytes: PNG (FFmpeg's `png` encoder, RGB) or JPEG (its `mjpeg`
/// encoder, yuv420p); owns its `CodecContext`, a packet and the converted picture, freed in their `deinit`.
///
/// One encoder serves one picture size and kind; each `encode` is a whole file (a PNG or JFIF stream), sent and
/// drained at once with the codec's own send/receive loop.
final class ImageEncoder {
    enum Kind: Sendable {
        case png
        /// `quality` is FFmpeg's qscale, 2 (best) to 31.
        case jpeg(quality: Int)
    }

    let size: PixelSize
    private let codec: CodecContext
    private let packet: Packet
    /// The picture in the encoder's format (RGB24 for PNG); nil for JPEG, which takes yuv420p as it is.
    private let converted: Frame?
    private let converter: Scaler?
    private let quality: Int32?
    private var sent: Int64 = 0

    /// - Throws: `.invalidSetting` when this FFmpeg has no such encoder; FFmpeg errors naming `avcodec_open2` or
    ///   `sws_init_context`.
    init(kind: Kind, size: PixelSize) throws(MediaError) {
        self.size = size
        let name = switch kind { case .png: "png"; case .jpeg: "mjpeg" }
        guard let found = avcodec_find_encoder_by_name(name) else {
            throw .invalidSetting(name: "image", value: name, reason: "this FFmpeg has no \(name) encoder")
        }
        codec = try CodecContext(codec: found)
        packet = try Packet()
        let c = codec.pointer
        c.pointee.width = Int32(size.width)
        c.pointee.height = Int32(size.height)
        c.pointee.time_base = AVRational(num: 1, den: 1)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        switch kind {
        case .png:
            c.pointee.pix_fmt = AV_PIX_FMT_RGB24
            converted = try Frame.picture(size, format: AV_PIX_FMT_RGB24)
            converter = try Scaler(source: size, format: AV_PIX_FMT_YUV420P.rawValue, fullRange: false, destination: size,
                                   destinationFormat: AV_PIX_FMT_RGB24)
            quality = nil
        case .jpeg(let q):
            // Limited-range yuv420p, as every picture here is; mjpeg takes it once told it is not strict JFIF.
            c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            c.pointee.color_range = AVCOL_RANGE_MPEG
            c.pointee.strict_std_compliance = FF_COMPLIANCE_UNOFFICIAL
            c.pointee.flags |= AV_CODEC_FLAG_QSCALE
            converted = nil
            converter = nil
            quality = Int32(max(2, min(31, q)))
        }
        try codec.open(options: nil, path: nil)
    }

    /// The bytes of a still-image file of `picture`, a yuv420p frame of this encoder's size.
    func encode(_ picture: Frame) throws(MediaError) -> [UInt8] {
        guard picture.size == size, picture.pixelFormat == AV_PIX_FMT_YUV420P else {
            throw .invalidSetting(name: "image", value: "\(picture.size)", reason: "is not a yuv420p picture of \(size)")
        }
        let input: Frame
        if let converted, let converter {
            try converted.makeWritable()
            try converter.scale(picture, into: converted)
            input = converted
        } else {
            input = picture
        }
        if let quality { input.pointer.pointee.quality = FF_QP2LAMBDA * quality }
        input.presentationTime = sent
        sent += 1
        try codec.send(input, path: nil)
        var bytes: [UInt8] = []
        try codec.receivePackets(into: packet, path: nil) { (p: Packet) throws(MediaError) in bytes += p.payload }
        guard !bytes.isEmpty else {
            throw .ffmpeg(function: "avcodec_receive_packet", code: averrorEAGAIN, message: "the image encoder kept the picture", path: nil)
        }
        return bytes
    }
}
