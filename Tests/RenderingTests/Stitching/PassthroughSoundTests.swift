import Foundation
import LoopbackServer
import MediaCore
@testable import Rendering
import StampedMedia
import Testing
import VideoPipeline

/// Passthrough copies AAC packets too, the content's and those of ads with sound in the output's format: ffmpeg
/// demuxes each source's own packets from the output away from the splices; the sound it decodes is the content's
/// there and no worse than an encode at the splices; and it is within a frame of its picture (the verifier's check).
@Suite(.enabled(if: StampedMedia.hasFFmpeg, "needs the ffmpeg command-line tool"))
struct PassthroughSoundTests {
    /// `path`'s sound as ffmpeg decodes it, mixed to mono.
    static func decodedSound(_ path: String) throws -> [Float] {
        let data = try FFmpegCommandLine.run(["-i", path, "-map", "0:a:0", "-ac", "1", "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The MD5 of each audio packet of `path`, by its stamp (samples), as ffmpeg demuxes it.
    static func audioPackets(_ path: String) throws -> [Int64: String] {
        let text = String(decoding: try FFmpegCommandLine.run(["-i", path, "-map", "0:a:0", "-c", "copy", "-f", "framemd5", "-"]), as: UTF8.self)
        var packets: [Int64: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.count == 6, let pts = Int64(fields[2]) { packets[pts] = fields[5] }
        }
        return packets
    }

    /// For each content segment, how far the output's sound is from the content's at the positions the timeline
    /// says it read: the largest difference over the whole run, and over the run less `margin` samples at each end.
    static func contentErrors(_ result: RenderResult, output: String, content: [Float], margin: Int) throws -> [(whole: Float, inside: Float)] {
        let sound = try decodedSound(output)
        let clock = try #require(FrameRate(parsing: result.timeline.output.fps)).sampleClock(result.timeline.output.sampleRate)
        return result.timeline.segments.filter { $0.kind == .content }.map { segment in
            let start = Int(segment.sound.start), source = Int(segment.sound.sourceStart)
            let count = Int(clock.sample(atFrame: segment.outEndFrame) - segment.sound.start)
            var whole: Float = 0, inside: Float = 0
            for i in 0..<count where start + i < sound.count && source + i < content.count {
                let d = abs(sound[start + i] - content[source + i])
                whole = max(whole, d)
                if i >= margin && i < count - margin { inside = max(inside, d) }
            }
            return (whole, inside)
        }
    }

    @Test func theSoundIsCopiedAndJoinsTheEncodedSoundAsAnEncodeWould() throws {
        let dir = try TemporaryDirectory()
        // Two ads with sound like the content's (AAC, 48 kHz stereo), and one with 44.1 kHz mono sound.
        let (copied, encoded) = try PassthroughAdTests.renderBothWays(["3=ad25.mp4", "6=ad24.mp4,mono.mp4"], in: dir)
        guard case .copied(let packets, let encodedPackets) = copied.passthroughSound else {
            Issue.record("the sound was not copied: \(String(describing: copied.passthroughSound))")
            return
        }
        // 12.2 s at 48 kHz is 572 packets: the mono ad's 57 and a few either side of each of the five splices are
        // encoded, the rest copied.
        #expect(packets > 450 && encodedPackets > 57 && encodedPackets < 130, "\(packets) copied, \(encodedPackets) encoded")
        #expect(encoded.passthroughSound == nil)
        try FFmpegCommandLine.run(["-v", "error", "-xerror", "-i", dir.path + "/out-on.mp4", "-f", "null", "-"])

        // Away from the splices, every packet is its source's own, the one holding the samples the timeline says;
        // but the mono ad's, which are encoded.
        let output = try Self.audioPackets(dir.path + "/out-on.mp4")
        let clock = try #require(FrameRate(parsing: copied.timeline.output.fps)).sampleClock(copied.timeline.output.sampleRate)
        var compared = 0
        for segment in copied.timeline.segments {
            let source = try Self.audioPackets(segment.source)
            let shift = segment.sound.start - segment.sound.sourceStart, end = clock.sample(atFrame: segment.outEndFrame)
            let isMono = segment.source.hasSuffix("/mono.mp4")
            for (pts, md5) in output where pts >= segment.sound.start + 4096 && pts + 4096 <= end {
                if isMono {
                    #expect(source[pts - shift] != md5, "output packet \(pts) copied from the mono ad")
                } else {
                    #expect(source[pts - shift] == md5, "output packet \(pts) is not \(segment.source)'s packet \(pts - shift)")
                }
                compared += 1
            }
        }
        #expect(compared > 400)

        let content = try Self.decodedSound(try StampedMedia.shared.content.path)
        let ours = try Self.contentErrors(copied, output: dir.path + "/out-on.mp4", content: content, margin: 4096)
        let encodes = try Self.contentErrors(encoded, output: dir.path + "/out-off.mp4", content: content, margin: 4096)
        #expect(ours.count == 3 && encodes.count == 3)
        for (run, (mine, theirs)) in zip(ours, encodes).enumerated() {
            // There they decode to the content's samples, but for the noise AAC's noise substitution draws from
            // the decoder's running random state (-90 dB).
            #expect(mine.inside < 0.0001 && theirs.inside > mine.inside * 10, "content run \(run): \(mine.inside) inside, an encode's \(theirs.inside)")
            // At the splices, the joins of copied and encoded packets are no worse than encoding throughout.
            #expect(mine.whole <= theirs.whole * 1.5 + 0.002, "content run \(run): \(mine.whole) against an encode's \(theirs.whole)")
        }
    }

    @Test func soundInAnotherFormatThanTheOutputsIsEncodedAndSaysWhy() throws {
        let dir = try TemporaryDirectory()
        let media = try StampedMedia.shared
        var request = media.request(try media.plan(["3=ad25.mp4"]), output: dir.path + "/out.mp4")
        request.passthrough.mode = .on
        request.format.sampleRate = 44100
        let result = try Stitcher.render(request)
        try StampedMedia.expectGoodRender(result, request)
        #expect(result.passthroughSound == .encoded(.soundFormat(sampleRate: 48000, channels: 2, outputSampleRate: 44100, outputChannels: 2)))
        #expect(result.passthroughSound.map { if case .encoded(let r) = $0 { r.description } else { "" } }
                == "its sound is 48000 Hz with 2 channels, the output's 44100 Hz with 2")
    }

    @Test func soundCanBeEncodedWithEverySampleInItsPlaceWhilePicturesAreCopied() throws {
        let dir = try TemporaryDirectory()
        let media = try StampedMedia.shared
        var results: [RenderResult] = []
        for mode in [PassthroughMode.on, .off] {
            var request = media.request(try media.plan(["3=ad25.mp4", "6=ad24.mp4"]), output: dir.path + "/out-\(mode.rawValue).mp4")
            request.passthrough.mode = mode
            request.passthrough.sound = .encode
            let result = try Stitcher.render(request)
            try StampedMedia.expectGoodRender(result, request)
            results.append(result)
        }
        #expect(results[0].passthroughSound == .encoded(.soundEncodedByRequest))
        #expect(results[0].timeline.videoRuns?.contains { $0.mode == .copied } == true)
        // The sound is read where the pictures put it, as in a render encoded throughout.
        #expect(results[0].timeline.segments.map(\.sound.sourceStart) == results[1].timeline.segments.map(\.sound.sourceStart))
    }

    @Test func aRunIsReadOnTheOutputsPacketGridWithinHalfAPacket() {
        let grid = AudioCopyGrid(outputPhase: -1024, sourcePhase: 960)
        for output in stride(from: Int64(0), to: 200_000, by: 1470) {
            for nominal in [Int64(0), 7, 1023, 1_323_000, 6_637_050] {
                let start = grid.sourceStart(output: output, nominal: nominal)
                #expect(abs(start - nominal) <= 512)
                // The run's packets start where the output's do: output P ≡ 0, source P − (output − start) ≡ 960.
                #expect(((start - output) % 1024 + 1024) % 1024 == 960, "output \(output), nominal \(nominal): \(start)")
            }
        }
    }
}
