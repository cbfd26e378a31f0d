import Foundation
import LoopbackServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `--media-cache` as a user meets it when the cache cannot be trusted: a cached creative that changed, an entry
    /// that names a file outside the cache, a path that is not a directory, a directory others can write to.
    @Suite struct MediaCacheTrustTests {
        typealias Remote = RemoteMediaTests

        /// The `LOG` lines of the event log with reason `mediaCacheEntryDropped`, and the index of each relative to
        /// the ad's `LOADED`.
        static func drops(_ events: [[String: Any]]) -> (messages: [String], beforeLoaded: Bool) {
            let index = events.firstIndex { $0["reason"] as? String == "mediaCacheEntryDropped" }
            let loaded = events.firstIndex { $0["type"] as? String == "LOADED" && $0["break"] as? Int == 0 && $0["ad"] as? Int == 0 }
            let messages = events.filter { $0["reason"] as? String == "mediaCacheEntryDropped" }.compactMap {
                $0["type"] as? String == "LOG" && $0["break"] as? Int == 0 && $0["ad"] as? Int == 0 ? $0["message"] as? String : nil
            }
            return (messages, index.map { i in loaded.map { i + 1 == $0 } ?? false } ?? false)
        }

        /// The cached creative's file name (`<sha256>.mp4`) after a render.
        static func cachedFile(_ cache: String) throws -> String {
            let files = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".mp4") }
            return try #require(files.count == 1 ? files[0] : nil, "\(files)")
        }

        @Test func aCachedCreativeReplacedByOtherMediaIsFetchedAgainWithALogLineAndTheRightAdPlays() async throws {
            let server = try await Remote.server(media: try await Remote.adA())
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let cache = dir.path("cache")
            let first = try await PipctlProcess.run(try await Remote.render(server, output: dir.path("first.mp4"), cache: cache))
            try #require(first.exitStatus == 0, "\(first.standardError)")
            // pipctl made the directory, private.
            var info = stat()
            #expect(stat(cache, &info) == 0 && info.st_mode & 0o7777 == 0o700)
            // Another playable clip in its place: without the check it would play as the ad.
            let file = try Self.cachedFile(cache)
            try Data(contentsOf: URL(fileURLWithPath: try await TestClip.adB.path)).write(to: URL(fileURLWithPath: cache + "/" + file))

            let output = dir.path("again.mp4")
            let again = try await PipctlProcess.run(try await Remote.render(server, output: output, cache: cache))
            #expect(again.exitStatus == 0, "\(again.standardError)")
            #expect(again.standardOutput.contains("ads: 1 played, 0 skipped, 0 failed"), "\(again.standardOutput)")
            #expect(server.requests(for: "/ad.mp4").count == 2)
            let drops = Self.drops(try Remote.events(output + ".events.jsonl"))
            #expect(drops.messages.count == 1 && drops.beforeLoaded, "\(drops)")
            #expect(drops.messages.first?.hasPrefix("media cache: \(file) (for \(server.baseURL.absoluteString)/ad.mp4) no longer matches its SHA-256") == true,
                    "\(drops.messages)")
            #expect(FileManager.default.contents(atPath: cache + "/" + file) == (try Data(contentsOf: URL(fileURLWithPath: try await TestClip.adA.path))))
            // The pixels say ad A played, not the clip put in its place.
            let verify = try await PipctlProcess.run(["verify", output])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
        }

        @Test func anEntryNamingAFileOutsideTheCacheIsDroppedWithALogLineAndNeverPlayed() async throws {
            let server = try await Remote.server(media: try await Remote.adA())
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let cache = dir.path("cache")
            let first = try await PipctlProcess.run(try await Remote.render(server, output: dir.path("first.mp4"), cache: cache))
            try #require(first.exitStatus == 0, "\(first.standardError)")
            // As in a shared /tmp/ads: an entry pointed at a file beside the cache.
            let outside = dir.path("outside.mp4")
            try Data(contentsOf: URL(fileURLWithPath: try await TestClip.adB.path)).write(to: URL(fileURLWithPath: outside))
            let entries = try FileManager.default.contentsOfDirectory(atPath: cache + "/entries")
            let entry = cache + "/entries/" + (try #require(entries.first))
            let text = try String(contentsOfFile: entry, encoding: .utf8)
            try text.replacingOccurrences(of: try Self.cachedFile(cache), with: "../outside.mp4")
                .write(toFile: entry, atomically: true, encoding: .utf8)

            let output = dir.path("again.mp4")
            let again = try await PipctlProcess.run(try await Remote.render(server, output: output, cache: cache))
            #expect(again.exitStatus == 0, "\(again.standardError)")
            #expect(again.standardOutput.contains("ads: 1 played, 0 skipped, 0 failed"), "\(again.standardOutput)")
            let drops = Self.drops(try Remote.events(output + ".events.jsonl"))
            #expect(drops.messages == ["media cache: the entry for \(server.baseURL.absoluteString)/ad.mp4 names \"../outside.mp4\", "
                + "which is not a file inside the cache; dropped and fetched again"], "\(drops)")
            #expect(drops.beforeLoaded)
            #expect(server.requests(for: "/ad.mp4").count == 2)
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let source = try #require((timeline["segments"] as? [[String: Any]])?.first?["source"] as? String)
            #expect(source == cache + "/" + (try Self.cachedFile(cache)))
        }

        @Test func aMediaCachePathThatIsNotADirectoryIsAUsageErrorNamingIt() async throws {
            let dir = try ScratchDirectory()
            let file = try dir.write("mine", to: "cache")
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--break",
                                                      "pre=\(try await TestClip.adA.path)", "-o", dir.path("out.mp4"),
                                                      "--media-cache", file])
            #expect(result.exitStatus == 2)
            #expect(result.errorLines.first == "pipctl render: --media-cache: \(file) is not a directory", "\(result.standardError)")
            #expect(dir.entries() == ["cache"])
            #expect(try dir.text("cache") == "mine")
        }

        @Test func aMediaCacheOthersCanWriteToIsRefusedUnlessSharedOnPurpose() async throws {
            let server = try await Remote.server(media: try await Remote.adA())
            defer { server.stop() }
            let dir = try ScratchDirectory()
            let cache = try dir.subdirectory("cache")
            #expect(chmod(cache, 0o1777) == 0)
            let refused = try await PipctlProcess.run(try await Remote.render(server, output: dir.path("out.mp4"), cache: cache))
            #expect(refused.exitStatus == 2)
            #expect(refused.errorLines.first == "pipctl render: --media-cache: \(cache) can be written by other users (mode 1777); "
                + "make it private (chmod go-w) or pass --media-cache-shared", "\(refused.standardError)")
            #expect(server.requests(for: "/vast.xml").isEmpty)
            #expect(dir.entries() == ["cache"])

            let shared = try await PipctlProcess.run(try await Remote.render(server, output: dir.path("out.mp4"), cache: cache,
                                                                             extra: ["--media-cache-shared"]))
            #expect(shared.exitStatus == 0, "\(shared.standardError)")
            #expect(shared.standardOutput.contains("ads: 1 played, 0 skipped, 0 failed"), "\(shared.standardOutput)")
        }

        /// The HLS staging directory is made before the media cache is looked at: refusing the cache removes it.
        @Test func aRefusedMediaCacheLeavesNoHLSStagingDirectory() async throws {
            let dir = try ScratchDirectory()
            let file = try dir.write("mine", to: "cache")
            let result = try await PipctlProcess.run(["render", "--content", try await TestClip.content.path, "--break",
                                                      "pre=\(try await TestClip.adA.path)", "--hls", dir.path("hls"),
                                                      "--media-cache", file])
            #expect(result.exitStatus == 2, "\(result.standardError)")
            #expect(dir.entries() == ["cache"])
        }
    }
}
