import Foundation
import MediaCore
import Testing
import VideoPipeline

/// Issue 39: what the sound of a stitched HLS rendition does at each splice, measured from the segments a player
/// downloads (each one's sound and video packets, `MediaProbe.scanSound`: FFmpeg's demuxer, not the server's own
/// account), in the two ways players place them:
/// - **by presentation time** (MSE, hls.js, VHS): within a discontinuity a segment's sound sits at its PTS beside
///   its pictures, so at a splice the sound before ends `overrun` after its last picture's end and the sound after
///   starts `lead` before its first picture: their sum is the overlap (negative, a gap);
/// - **one after the other** (the ffmpeg tool over HTTP): each segment's sound follows the samples of all the
///   segments before it, so a segment's first picture is heard `offset` samples after it is shown, counted from the
///   stream's start (its own lead included): what any lead, overrun or priming adds up to.
package enum SoundSplices {
    /// One AAC frame, in samples.
    package static let frame: Int64 = 1_024

    package struct Splice: CustomStringConvertible, Sendable {
        /// The segment after the splice, by its index in the media playlist.
        package var segment: Int
        package var uri: String
        /// By presentation time: the sound before's end past its last picture plus the sound after's start before its
        /// first picture (samples; negative, a gap).
        package var overlap: Int64
        /// One after the other: how late the sound of the segment's first picture is heard (samples).
        package var offset: Int64
        package var description: String { "segment \(segment) (\(uri)): overlap \(overlap), offset \(offset) samples" }
    }

    /// What a rendition's segments' sound does at each discontinuity, and at every segment.
    package struct Measure: Sendable {
        package var splices: [Splice]
        /// One after the other, at every segment's start and at the stream's end (samples; the stream's first
        /// segment counts from its own lead, which a reader hears before its first picture).
        package var offsets: [Int64]
        package var sampleRate: Int
    }

    /// One downloaded segment of a media playlist, in its order.
    package struct Segment: Sendable {
        package var uri: String
        package var discontinuity: Bool
        /// The segment's bytes, as a file.
        package var file: String

        package init(uri: String, discontinuity: Bool, file: String) {
            self.uri = uri
            self.discontinuity = discontinuity
            self.file = file
        }
    }

    /// Measures the splices of `segments`, whose pictures are at `rate`.
    package static func measure(_ segments: [Segment], rate: Rational) throws -> Measure {
        let scans = try segments.map { try MediaProbe.scanSound($0.file) }
        let sampleRate = try #require(scans.first?.sampleRate)
        let perSecond = Rational(Int64(sampleRate))
        func samples(_ seconds: Rational) -> Int64 { (seconds * perSecond).rounded }
        var splices: [Splice] = [], offsets: [Int64] = []
        var heard: Int64 = 0, shown = Rational.zero
        var streamLead: Int64 = 0
        for (n, scan) in scans.enumerated() {
            let firstSound = try #require(scan.firstSound, "segment \(n) has no sound")
            let firstPicture = try #require(scan.firstPicture, "segment \(n) has no picture")
            let lead = samples(firstPicture - firstSound)
            if n == 0 { streamLead = lead }
            // Heard after all the sound before and its own lead; shown after all the pictures before and the
            // stream's first lead.
            offsets.append(heard + lead - samples(shown) - streamLead)
            if n > 0, segments[n].discontinuity {
                let before = scans[n - 1]
                let pictureEnd = try #require(before.lastPicture) + rate.reciprocal
                let soundEnd = try #require(before.firstSound) + Rational(before.samples) / perSecond
                splices.append(Splice(segment: n, uri: segments[n].uri, overlap: samples(soundEnd - pictureEnd) + lead,
                                      offset: offsets.last!))
            }
            heard += scan.samples
            shown = shown + Rational(scan.pictures) / rate
        }
        offsets.append(heard - samples(shown) - streamLead)
        return Measure(splices: splices, offsets: offsets, sampleRate: sampleRate)
    }

    /// Expects `count` splices, each within one AAC frame both ways, and the sound never more than a frame off its
    /// pictures one after the other.
    package static func expectWithinOneFrame(_ measure: Measure, splices count: Int, _ shape: String) {
        #expect(measure.splices.count == count, "\(shape): \(measure.splices)")
        for splice in measure.splices {
            #expect(abs(splice.overlap) <= frame, "\(shape) by presentation time: \(splice)")
            #expect(abs(splice.offset) <= frame, "\(shape) one after the other: \(splice)")
        }
        #expect(measure.offsets.allSatisfy { abs($0) <= frame }, "\(shape): offsets \(measure.offsets)")
    }

    /// The media segments of a playlist's text, in order: each URI and whether `EXT-X-DISCONTINUITY` precedes it.
    package static func playlistSegments(_ playlist: String) -> [(uri: String, discontinuity: Bool)] {
        var result: [(String, Bool)] = [], discontinuity = false
        for line in playlist.split(separator: "\n").map(String.init) {
            if line == "#EXT-X-DISCONTINUITY" {
                discontinuity = true
            } else if !line.hasPrefix("#"), !line.isEmpty {
                result.append((line, discontinuity))
                discontinuity = false
            }
        }
        return result
    }
}
