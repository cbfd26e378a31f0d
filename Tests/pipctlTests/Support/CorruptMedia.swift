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
}
