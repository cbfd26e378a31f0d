import Foundation
import LoopbackServer
import Testing

/// Content with two languages (an audio group of two renditions, each with its playlist, as CMAF packagers write
/// them): the default one is muxed into the variants as before; the other is its own playlist of sound only, with
/// the break cut in at the same frame as the pictures.
@Suite struct ServeAudioTracksTests {
    /// Two video-only TS variants and two audio renditions (English at 440 Hz, the default; Spanish at 660 Hz), 8 s,
    /// 4 s segments, made by the ffmpeg tool's HLS muxer.
    static func languagesOrigin() throws -> String {
        try TestFixtures.directory(for: "serve-languages-origin-v1") { directory in
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=8",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
                "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=8",
                "-filter_complex", "[0:v]split=2[a][b];[b]scale=320:180[s]", "-map", "[a]", "-map", "[s]", "-map", "1:a", "-map", "2:a",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0",
                "-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod", "-master_pl_name", "master.m3u8",
                "-var_stream_map", "v:0,agroup:sound,name:v0 v:1,agroup:sound,name:v1 a:0,agroup:sound,name:en,language:en,default:yes a:1,agroup:sound,name:es,language:es",
                "-hls_segment_filename", directory + "/%v/seg%d.ts", directory + "/%v/index.m3u8",
            ])
        }
    }

    /// The sound of `input`'s first audio stream as the ffmpeg tool decodes it: 48 kHz mono, 16-bit.
    static func samples(_ input: String) async throws -> [Int16] {
        let data = try await offPool { try FFmpegCommandLine.run(["-i", input, "-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "s16le", "-"]) }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The frequency of a sine between two times (seconds), from its zero crossings.
    static func tone(_ samples: [Int16], from: Double, to: Double) -> Double {
        let range = Int(from * 48_000)..<min(samples.count, Int(to * 48_000))
        guard range.count > 1 else { return 0 }
        var crossings = 0
        for i in range.dropFirst() where (samples[i - 1] < 0) != (samples[i] < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(range.count) / 48_000)
    }

    @Test func theOtherLanguageIsItsOwnPlaylistOfSoundWithTheAdAtTheCut() async throws {
        let origin = try Self.languagesOrigin()
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache, origin: origin)
        let id = try await harness.session(content: "master.m3u8")
        let master = try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8").text
        let media = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=AUDIO") }
        #expect(media.count == 2, "\(master)")
        #expect(media.first?.contains("LANGUAGE=\"en\"") == true && media.first?.contains("DEFAULT=YES") == true
                && media.first?.contains("URI=") == false, "\(master)")
        let spanish = try #require(media.last)
        #expect(spanish.contains("LANGUAGE=\"es\"") && spanish.contains("DEFAULT=NO"), "\(master)")
        let uri = try #require(spanish.split(separator: "\"").last { $0.hasPrefix("/v1/sessions/") }.map(String.init), "\(spanish)")
        let variants = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.count == 2 && variants.allSatisfy { $0.contains("AUDIO=\"group_sound\"") }, "\(master)")

        // The Spanish playlist: sound only, the ad in place.
        let playlist = try await harness.request("GET", uri)
        let segments = ServeStitchTests.segments(playlist.text)
        #expect(segments.allSatisfy { $0.uri.hasPrefix("/v1/audio/") || $0.uri.hasPrefix("/v1/sessions/\(id)/ads/") }, "\(playlist.text)")
        #expect(segments.contains { $0.uri.hasSuffix("/before.ts") } && segments.contains { $0.uri.hasSuffix("/after.ts") }, "\(playlist.text)")
        let ad = try #require(segments.first { $0.uri.contains("/ads/") }?.uri)
        let redirect = try await harness.request("GET", ad)
        #expect(redirect.status == 302 && redirect.headers["location"]?.hasPrefix("/v1/audio/ads/") == true, "\(redirect.headers)")
        let url = "http://127.0.0.1:\(harness.port)\(uri)"
        let streams = try await offPool { try FFmpegCommandLine.probe(["-show_entries", "stream=codec_type", "-of", "csv=p=0", url]) }
        #expect(Set(streams.split(separator: "\n").map(String.init)) == ["audio"], "\(streams)")

        // Its sound: the content's 8 s and the ad's 3 s, within an AAC frame per splice; Spanish, then the ad's
        // 1 kHz tone from the cut at 5.5 s to 8.5 s, then Spanish again.
        let sound = try await Self.samples(url)
        #expect(abs(sound.count - 11 * 48_000) <= 2 * 1024, "\(sound.count) samples")
        for (from, to, hertz) in [(0.5, 5.3, 660.0), (5.7, 8.3, 1000.0), (8.7, 10.8, 660.0)] {
            let found = Self.tone(sound, from: from, to: to)
            #expect(abs(found - hertz) < 15, "\(from)–\(to) s: \(found) Hz, not \(hertz)")
        }
        // Only the cache's own segments are served as sound only; anything else is a 404.
        let key = String(repeating: "a", count: 64)
        for target in ["/v1/audio/cuts/\(key)/before.ts", "/v1/audio/audio/\(key)/seg00000.ts", "/v1/audio/packaged/..%2F..%2Fetc/passwd.ts",
                       "/v1/audio/packaged/xyz/seg00000.ts", "/v1/audio/media/\(key)/seg00000.ts"] {
            #expect(try await harness.request("GET", target).status == 404, "\(target)")
        }
        // The variants keep the default language's sound, the ad in place.
        let main = try await Self.samples("http://127.0.0.1:\(harness.port)/v1/sessions/\(id)/0.m3u8")
        #expect(abs(Self.tone(main, from: 0.5, to: 5.3) - 440) < 15 && abs(Self.tone(main, from: 5.7, to: 8.3) - 1000) < 15)
    }
    /// A guided session lists the languages too: the other one's primary playlist is its sound only, with the same
    /// interstitials at the same dates as the pictures' (its breaks are played from the asset lists).
    @Test func aGuidedSessionListsTheOtherLanguageWithTheSameInterstitials() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeGuidedTests.harness(cache: cache, origin: try Self.languagesOrigin())
        let id = try await ServeGuidedTests.guidedSession(harness, content: "master.m3u8")
        let master = try await harness.request("GET", "/v1/sessions/\(id)/master.m3u8").text
        let spanish = try #require(master.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA:TYPE=AUDIO") && $0.contains("LANGUAGE=\"es\"") }, "\(master)")
        let uri = try #require(spanish.split(separator: "\"").last { $0.hasPrefix("/v1/guided/") }.map(String.init), "\(spanish)")
        let variants = try await ServeGuidedTests.variants(harness, id)
        #expect(variants.count == 2 && master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.allSatisfy { $0.contains("AUDIO=") })
        let sound = try await harness.request("GET", uri).text, pictures = try await harness.request("GET", try #require(variants.first)).text
        #expect(ServeStitchTests.segments(sound).allSatisfy { $0.uri.hasPrefix("/v1/audio/packaged/") }, "\(sound)")
        func interstitials(_ text: String) -> [Substring] { text.split(separator: "\n").filter { $0.contains("CLASS=\"com.apple.hls.interstitial\"") } }
        #expect(!interstitials(sound).isEmpty && interstitials(sound) == interstitials(pictures), "\(sound)")
        let samples = try await Self.samples("http://127.0.0.1:\(harness.port)\(uri)")
        #expect(abs(samples.count - 8 * 48_000) <= 2 * 1024 && abs(Self.tone(samples, from: 0.5, to: 7.5) - 660) < 15, "\(samples.count) samples")
    }
}
