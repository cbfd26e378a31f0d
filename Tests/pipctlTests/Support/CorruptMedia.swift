import Foundation

/// Media made unplayable on purpose, from a clip `pipctl testsrc` made.
enum CorruptMedia {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A copy of an MP4 whose AAC AudioSpecificConfig (the DecoderSpecificInfo descriptor of `esds`) says audio
    /// object type 0: the demuxer reads the file, `avcodec_open2` refuses its codec parameters.
    static func withUnsupportedAudioObjectType(_ mp4: Data) throws -> Data {
        var bytes = [UInt8](mp4)
        guard let esds = bytes.firstRange(of: Array("esds".utf8))?.lowerBound,
              var i = bytes[esds...].firstIndex(of: 0x05) else { throw Failure(description: "no esds descriptor") }
        i += 1
        while bytes[i] & 0x80 != 0 { i += 1 }
        i += 1
        guard bytes[i] >> 3 == 2 else { throw Failure(description: "not AAC LC (object type \(bytes[i] >> 3))") }
        bytes[i] &= 0x07
        return Data(bytes)
    }

    /// A copy of an MP4 whose media data (`mdat`) is zeroed from `share` of its length on, as a download cut short
    /// and padded would leave it: its index is whole, so it opens, and decoding fails part-way.
    static func withMediaDataZeroed(_ mp4: Data, from share: Double) throws -> Data {
        var bytes = [UInt8](mp4)
        guard let type = bytes.firstRange(of: Array("mdat".utf8))?.lowerBound, type >= 4 else {
            throw Failure(description: "no mdat box")
        }
        let size = bytes[(type - 4)..<type].reduce(0) { $0 << 8 | Int($1) }
        guard size > 8, type - 4 + size <= bytes.count else { throw Failure(description: "an mdat box of \(size) bytes") }
        let start = type + 4 + Int(Double(size - 8) * share), end = type - 4 + size
        bytes.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
        return Data(bytes)
    }
}
