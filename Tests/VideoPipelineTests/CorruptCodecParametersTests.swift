import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// A file whose codec parameters no decoder accepts (an AAC AudioSpecificConfig naming audio object type 0) is
/// refused with one error naming `avcodec_open2` and the file, by every entry point, and never crashes: the codec
/// context that failed to open is freed once, by its owner.
@Suite struct CorruptCodecParametersTests {
    /// A stamped 1 s clip whose `esds` says audio object type 0: the demuxer reads it, `avcodec_open2` refuses it.
    static func makeCorruptClip(in dir: TemporaryDirectory) throws -> String {
        let good = dir.path("good.mp4")
        _ = try TestSourceGenerator.generate(.init(output: good, duration: MediaDuration(seconds: 1),
                                                   size: PixelSize(width: 160, height: 90), sourceID: "corrupt"))
        let bad = dir.path("corrupt.mp4")
        try corruptingAudioObjectType(Data(contentsOf: URL(fileURLWithPath: good))).write(to: URL(fileURLWithPath: bad))
        return bad
    }

    /// Sets the audio object type (the first 5 bits of the AudioSpecificConfig, the DecoderSpecificInfo descriptor
    /// of `esds`) to 0, which no AAC decoder supports.
    static func corruptingAudioObjectType(_ data: Data) throws -> Data {
        var bytes = [UInt8](data)
        let esds = try #require(bytes.firstRange(of: Array("esds".utf8))?.lowerBound)
        // Tag 0x05 (DecoderSpecificInfo), then its length in 1–4 bytes (high bit: more follow).
        var i = try #require(bytes[esds...].firstIndex(of: 0x05))
        i += 1
        while bytes[i] & 0x80 != 0 { i += 1 }
        i += 1
        #expect(bytes[i] >> 3 == 2, "the clip's AAC is LC (object type 2)")
        bytes[i] &= 0x07
        return Data(bytes)
    }

    static func isOpenFailure(_ error: MediaError, path: String) -> Bool {
        guard case .ffmpeg("avcodec_open2", _, _, path) = error else { return false }
        return true
    }

    @Test func openingItAsASourceFailsNamingAvcodecOpen2() throws {
        let dir = TemporaryDirectory()
        let path = try Self.makeCorruptClip(in: dir)
        let error = try #require(throws: MediaError.self) {
            try MediaSource(path: path, format: OutputFormat(size: PixelSize(width: 160, height: 90), frameRate: FrameRate(30)))
        }
        #expect(Self.isOpenFailure(error, path: path), "\(error)")
        #expect(error.description == "\(path): avcodec_open2 failed: Function not implemented")
    }

    @Test func probingItFailsNamingAvcodecOpen2() throws {
        let dir = TemporaryDirectory()
        let path = try Self.makeCorruptClip(in: dir)
        let error = try #require(throws: MediaError.self) { try MediaProbe.probe(path) }
        #expect(Self.isOpenFailure(error, path: path), "\(error)")
    }

    @Test func transcodingItFailsAndWritesNothing() throws {
        let dir = TemporaryDirectory()
        let path = try Self.makeCorruptClip(in: dir)
        let error = try #require(throws: MediaError.self) {
            try Transcoder.run(.init(input: path, output: dir.path("out.mp4")))
        }
        #expect(Self.isOpenFailure(error, path: path), "\(error)")
        #expect(dir.contents == ["corrupt.mp4", "good.mp4"])
    }

    /// Opening it many times frees every context once: a double free would abort long before the last.
    @Test func openingItRepeatedlyNeverCrashes() throws {
        let dir = TemporaryDirectory()
        let path = try Self.makeCorruptClip(in: dir)
        let format = OutputFormat(size: PixelSize(width: 160, height: 90), frameRate: FrameRate(30))
        for _ in 0..<50 {
            #expect(throws: MediaError.self) { try MediaSource(path: path, format: format) }
        }
    }
}
