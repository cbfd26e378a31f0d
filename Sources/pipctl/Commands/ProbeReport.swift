import Foundation
import MediaCore
import VideoPipeline

/// How `pipctl probe` shows a `MediaInfo`: one line per stream for people, or JSON.
struct ProbeReport: Encodable {
    /// One stream, written flat in the JSON (its picture's and its sound's fields beside the rest), as ffprobe does.
    struct Stream: Encodable {
        var index: Int
        var kind: String
        var codec: String
        var timeBase: String
        var duration: Double?
        var bitRate: Int64?
        var frameCount: Int64?
        /// A video stream's picture (every field `nil` for sound).
        var picture: Picture
        /// An audio stream's sound (every field `nil` for a picture).
        var sound: Sound

        struct Picture: Encodable {
            var width: Int?
            var height: Int?
            /// The sample aspect ratio by the display-geometry rule: the container's when it states one.
            var sampleAspectRatio: String?
            var containerSampleAspectRatio: String?
            var bitstreamSampleAspectRatio: String?
            var displayAspectRatio: String?
            /// Counterclockwise degrees the display matrix turns the picture (ffprobe's `rotation`).
            var rotation: Int?
            var mirrored: Bool?
            /// The picture's size on screen, in square pixels, turned.
            var displayWidth: Int?
            var displayHeight: Int?
            var frameRate: String?
            var pixelFormat: String?
        }

        struct Sound: Encodable {
            var sampleRate: Int?
            var channels: Int?
            var channelLayout: String?
            var sampleFormat: String?
        }

        private enum CodingKeys: String, CodingKey {
            case index, kind, codec, timeBase, duration, bitRate, frameCount
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(kind, forKey: .kind)
            try container.encode(codec, forKey: .codec)
            try container.encode(timeBase, forKey: .timeBase)
            try container.encodeIfPresent(duration, forKey: .duration)
            try container.encodeIfPresent(bitRate, forKey: .bitRate)
            try container.encodeIfPresent(frameCount, forKey: .frameCount)
            // The groups' keys go into the same object.
            try picture.encode(to: encoder)
            try sound.encode(to: encoder)
        }
    }

    /// `probe --loudness`: the sound's loudness, rounded to a tenth as meters show it.
    struct Loudness: Encodable {
        /// LUFS; nil when everything is gated out (silence).
        var integrated: Double?
        /// LU.
        var range: Double?
        var maxMomentary: Double?
        /// dBTP / dBFS; nil for digital silence.
        var truePeak: Double?
        var samplePeak: Double?
        var duration: Double
        /// How many samples were measured (at the rate measured), for the text: a short sound is counted in samples.
        private var samples: Int64

        private enum CodingKeys: String, CodingKey { case integrated, range, maxMomentary, truePeak, samplePeak, duration }

        init(_ measured: VideoPipeline.Loudness, sampleRate: Int) {
            func tenth(_ value: Double?) -> Double? { value.map { ($0 * 10).rounded() / 10 } }
            integrated = tenth(measured.integrated)
            range = tenth(measured.range)
            maxMomentary = tenth(measured.maxMomentary)
            truePeak = tenth(measured.truePeak)
            samplePeak = tenth(measured.samplePeak)
            duration = measured.duration.seconds.doubleValue
            samples = (measured.duration.seconds * Rational(Int64(sampleRate))).rounded
        }

        /// `1.250 s`, or under a second the samples and milliseconds: `1 sample (0.02 ms)`, `4800 samples (100.00 ms)`.
        var length: String {
            guard duration < 1 else { return String(format: "%.3f s", duration) }
            return "\(samples) sample\(samples == 1 ? "" : "s") (" + String(format: "%.2f ms", duration * 1000) + ")"
        }

        var text: String {
            func figure(_ value: Double?, _ unit: String) -> String { value.map { String(format: "%.1f \(unit)", $0) } ?? "silent" }
            return "  loudness: integrated \(figure(integrated, "LUFS")), range \(figure(range, "LU")), "
                + "momentary max \(figure(maxMomentary, "LUFS")), true peak \(figure(truePeak, "dBTP")), "
                + "sample peak \(figure(samplePeak, "dBFS")), over \(length)"
        }
    }

    var path: String
    var container: String
    var duration: Double?
    var bitRate: Int64?
    var streams: [Stream]
    var loudness: Loudness?

    init(_ info: MediaInfo) {
        path = info.path
        container = info.container
        duration = info.duration?.seconds.doubleValue
        bitRate = info.bitRate
        streams = info.streams.map { s in
            Stream(index: s.index, kind: s.kind.rawValue, codec: s.codec, timeBase: s.timeBase.description,
                   duration: s.duration?.seconds.doubleValue, bitRate: s.bitRate, frameCount: s.frameCount,
                   picture: Stream.Picture(
                       width: s.size?.width, height: s.size?.height, sampleAspectRatio: s.sampleAspectRatio?.fraction,
                       containerSampleAspectRatio: s.geometry?.containerSampleAspect?.fraction,
                       bitstreamSampleAspectRatio: s.geometry?.bitstreamSampleAspect?.fraction,
                       displayAspectRatio: s.displayAspect?.fraction, rotation: s.geometry?.orientation.rotation,
                       mirrored: s.geometry?.orientation.mirrored, displayWidth: s.geometry?.displaySize.width,
                       displayHeight: s.geometry?.displaySize.height, frameRate: s.frameRate?.perSecond.fraction,
                       pixelFormat: s.pixelFormat),
                   sound: Stream.Sound(sampleRate: s.sampleRate, channels: s.channels, channelLayout: s.channelLayout,
                                       sampleFormat: s.sampleFormat))
        }
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    var text: String {
        var lines = ["\(path): \(container)" + (duration.map { ", \(String(format: "%.3f", $0)) s" } ?? "")
                     + (bitRate.map { ", \($0 / 1000) kbit/s" } ?? "")]
        for s in streams {
            let p = s.picture, a = s.sound
            var parts = ["  #\(s.index) \(s.kind): \(s.codec)"]
            if let w = p.width, let h = p.height {
                parts.append("\(w)x\(h)")
                if let sar = p.sampleAspectRatio, sar != "1/1" || (p.containerSampleAspectRatio != nil && p.bitstreamSampleAspectRatio != nil
                                                                      && p.containerSampleAspectRatio != p.bitstreamSampleAspectRatio) {
                    // Where the ratio comes from, and the one it overrides, when the two disagree.
                    var source = ""
                    if let container = p.containerSampleAspectRatio {
                        source = p.bitstreamSampleAspectRatio.map { $0 == container ? "" : " (container; bitstream \($0))" } ?? " (container)"
                    } else if p.bitstreamSampleAspectRatio != nil {
                        source = " (bitstream)"
                    }
                    parts.append("SAR \(sar)\(source)")
                }
                if let dar = p.displayAspectRatio { parts.append("DAR \(dar)") }
                if let rotation = p.rotation, rotation != 0 { parts.append("rotated \(rotation)° counterclockwise") }
                if p.mirrored == true { parts.append("mirrored") }
                if let dw = p.displayWidth, let dh = p.displayHeight, dw != w || dh != h { parts.append("shown \(dw)x\(dh)") }
            }
            if let rate = p.frameRate { parts.append("\(rate) fps") }
            if let format = p.pixelFormat { parts.append(format) }
            if let rate = a.sampleRate { parts.append("\(rate) Hz") }
            if let layout = a.channelLayout { parts.append(layout) }
            if let format = a.sampleFormat { parts.append(format) }
            if let count = s.frameCount { parts.append("\(count) \(s.kind == "video" ? "frames" : "packets")") }
            if let d = s.duration { parts.append(String(format: "%.3f s", d)) }
            parts.append("time base \(s.timeBase)")
            lines.append(parts.joined(separator: ", ").replacingOccurrences(of: ": \(s.codec),", with: ": \(s.codec)"))
        }
        if let loudness { lines.append(loudness.text) }
        return lines.joined(separator: "\n") + "\n"
    }
}

