@testable import AdDecisioning
@testable import AdPlayback
import Foundation
import LoopbackServer
import MediaCore
import Testing

extension SerialDecisioningTests {
    /// Wrapper chains, timeouts, loops, limits and media downloads against a real HTTP server on 127.0.0.1.
    @Suite struct LoopbackResolutionTests {
        /// Deadlines that a loopback answer always meets; the timeout tests shorten the one they test.
        static func settings() -> AdsLoaderSettings {
            var s = AdsLoaderSettings()
            s.firstRequestTimeout = .seconds(5)
            s.wrapperTimeout = .seconds(5)
            return s
        }

        @Test func followsAnHTTPWrapperChainAndMergesImpressionsAndTracking() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/ads/top.xml", .xml(VASTText.document(VASTText.wrapper(id: "top", tag: "middle.xml?cb=1"))))
            server.route("/ads/middle.xml", .xml(VASTText.document(VASTText.wrapper(id: "middle", tag: "\(base)/inline.xml"))))
            server.route("/inline.xml", .xml(VASTText.document(VASTText.inline(id: "final", media: "\(base)/media/ad.mp4",
                                                                               impression: "https://track.example/final-impression"))))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/ads/top.xml"))
            #expect(result.plan.errors.isEmpty)
            let ad = try #require(result.plan.breaks.first?.ads.first?.ad)
            #expect(ad.id == "final")
            #expect(ad.beacons.impressions == ["https://track.example/top-impression", "https://track.example/middle-impression",
                                       "https://track.example/final-impression"])
            #expect(ad.beacons.tracking.map(\.url) == ["https://track.example/top-complete", "https://track.example/middle-complete",
                                               "https://track.example/final-start"])
            #expect(ad.beacons.clickTracking == ["https://track.example/top-click", "https://track.example/middle-click"])
            #expect(ad.wrappers.map(\.source) == ["\(base)/ads/top.xml", "\(base)/ads/middle.xml?cb=1"])
            // Decisioning never downloads media: the remote rendition is chosen and left for the render to fetch.
            #expect(ad.selection?.chosen?.url == "\(base)/media/ad.mp4")
            #expect(ad.selection?.localPath == nil)
            #expect(ad.selection?.remoteURL == URL(string: "\(base)/media/ad.mp4"))
            #expect(server.requests.map(\.target) == ["/ads/top.xml", "/ads/middle.xml?cb=1", "/inline.xml"])
        }

        @Test func aServedDocumentsRelativeReferencesKeepTheirQueryAndLoseTheirDotSegments() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/ads/a/top.xml", .xml(VASTText.document(VASTText.wrapper(id: "top", tag: "../b/./inline.xml?a=b#frag"))))
            server.route("/ads/b/inline.xml", .xml(VASTText.document(VASTText.inline(id: "final", media: "../media/./ad.mp4?cb=1"))))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/ads/a/top.xml"))
            #expect(result.plan.errors.isEmpty)
            let ad = try #require(result.plan.breaks.first?.ads.first?.ad)
            #expect(server.requests.map(\.target) == ["/ads/a/top.xml", "/ads/b/inline.xml?a=b"])
            #expect(ad.selection?.chosen?.url == "\(base)/ads/media/ad.mp4?cb=1")
        }

        @Test func aLocalDocumentsProtocolRelativeWrapperIsFetchedAsHTTPS() async throws {
            let dir = try TemporaryDirectory()
            let top = try dir.write("top.xml", VASTText.document(VASTText.wrapper(id: "top", tag: "//ads.example/inline.xml?x=1")))
            try dir.write("served/inline.xml", VASTText.document(VASTText.inline(id: "final", media: "//cdn.example/ad.mp4")))
            var settings = Self.settings()
            // Only the https URL is mapped: a local path or an http URL would not be found.
            settings.urlMap = URLMap(rules: [.init(urlPrefix: "https://ads.example/", localPrefix: dir.path + "/served/")])
            let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: top))
            #expect(result.plan.errors.isEmpty)
            let ad = try #require(result.plan.breaks.first?.ads.first?.ad)
            #expect(ad.wrappers.map(\.source) == [top])
            // The inner document is remote by origin (it was fetched by URL), so its own protocol-relative media is https.
            #expect(ad.selection?.chosen?.url == "https://cdn.example/ad.mp4")
        }

        @Test func reportsASlowWrapperAs301WithinTheDeadline() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/top.xml", .xml(VASTText.document(VASTText.wrapper(id: "top", tag: "slow.xml"))))
            // The wrapper's tag never answers: only the 0.5 s wrapper timeout ends the wait (the decision deadline is 15 s).
            server.route("/slow.xml", .hang)
            var settings = Self.settings()
            settings.wrapperTimeout = .milliseconds(500)
            // The error names what ended the wait: the 0.5 s timeout, not the decision deadline.
            let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: "\(base)/top.xml"))
            #expect(result.plan.breaks.isEmpty)
            #expect(result.plan.errors == [AdError(.wrapperTimeout, "wrapper ad 'top' (line 1) in \(base)/top.xml: loading \(base)/slow.xml timed out after 0.5 s",
                                                   errorURLs: ["https://track.example/top-error?c=[ERRORCODE]"])])
        }

        @Test func throwsWhenTheAdTagItselfTimesOut() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            // Never answers: the 0.5 s timeout is the only way out, however slow the machine.
            server.route("/slow.xml", .hang)
            var settings = Self.settings()
            settings.firstRequestTimeout = .milliseconds(500)
            let url = server.baseURL.absoluteString + "/slow.xml"
            await #expect(throws: DecisioningError.timedOut(source: url, timeout: .milliseconds(500))) {
                _ = try await AdsLoader(settings: settings).load(AdsRequest(adTag: url))
            }
        }

        @Test func reportsHTTPErrorsAndUnreachableHostsAs301NamingTheURL() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            // A port that was just free: nothing listens there.
            let closed = try LoopbackHTTPServer()
            let dead = closed.baseURL.absoluteString + "/gone.xml"
            closed.stop()
            server.route("/error.xml", LoopbackHTTPServer.Response(status: 500, contentType: "text/plain", body: Data("boom".utf8)))
            server.route("/top.xml", .xml(VASTText.document(VASTText.wrapper(id: "a", tag: "error.xml"),
                                                            VASTText.wrapper(id: "b", tag: "missing.xml"),
                                                            VASTText.wrapper(id: "c", tag: dead))))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/top.xml"))
            #expect(result.plan.errors.map(\.code) == [.wrapperTimeout, .wrapperTimeout, .wrapperTimeout])
            #expect(result.plan.errors[0].message.hasSuffix("cannot load \(base)/error.xml: HTTP status 500"))
            #expect(result.plan.errors[1].message.hasSuffix("cannot load \(base)/missing.xml: HTTP status 404"))
            #expect(result.plan.errors[2].message.contains("cannot load \(dead): "))
        }

        @Test func detectsAnHTTPLoop() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/a.xml", .xml(VASTText.document(VASTText.wrapper(id: "a", tag: "b.xml"))))
            server.route("/b.xml", .xml(VASTText.document(VASTText.wrapper(id: "b", tag: "\(base)/a.xml"))))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/a.xml"))
            #expect(result.plan.errors.map(\.code) == [.wrapperLimit])
            #expect(result.plan.errors[0].message == "wrapper loop: ad 'b' (line 1) in \(base)/b.xml points back at \(base)/a.xml")
            #expect(server.requests.map(\.target) == ["/a.xml", "/b.xml"])
        }

        @Test func stopsAHundredDeepChainAtTheLimitWith302() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            for i in 0..<100 {
                server.route("/w\(i).xml", .xml(VASTText.document(VASTText.wrapper(id: "w\(i)", tag: "w\(i + 1).xml"))))
            }
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: server.baseURL.absoluteString + "/w0.xml"))
            #expect(result.plan.errors.map(\.code) == [.wrapperLimit])
            #expect(result.plan.errors[0].message.hasSuffix("not followed: wrapper limit of 5 reached"))
            // The ad tag and five wrappers' tags; the sixth wrapper is not followed.
            #expect(server.requests.count == 6)
        }

        @Test func reportsAnEmptyResponseAfterWrappersAs303() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/top.xml", .xml(VASTText.document(VASTText.wrapper(id: "top", tag: "mid.xml"))))
            server.route("/mid.xml", .xml(VASTText.document(VASTText.wrapper(id: "mid", tag: "empty.xml"))))
            server.route("/empty.xml", .xml(#"<VAST version="4.2"><Error>https://track.example/empty?c=[ERRORCODE]</Error></VAST>"#))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/top.xml"))
            #expect(result.plan.breaks.isEmpty)
            #expect(result.plan.errors == [AdError(.noAdsAfterWrapper, "\(base)/empty.xml: no ads after 2 wrapper(s), last ad 'mid' (line 1) in \(base)/mid.xml",
                                                   errorURLs: ["https://track.example/top-error?c=[ERRORCODE]",
                                                               "https://track.example/mid-error?c=[ERRORCODE]",
                                                               "https://track.example/empty?c=[ERRORCODE]"])])
        }

        @Test func mapsRemoteAdTagsToLocalFiles() async throws {
            var settings = Self.settings()
            settings.urlMap = URLMap(rules: [.init(urlPrefix: "https://ads.example/vast/", localPrefix: DecisioningFixtures.path("VAST"))])
            let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: "https://ads.example/vast/wrapper-outer.xml?cb=42"))
            #expect(result.source == "https://ads.example/vast/wrapper-outer.xml?cb=42 (mapped to \(DecisioningFixtures.path("VAST/wrapper-outer.xml")))")
            // Relative tags resolve against the remote URL, then map again.
            let ad = try #require(result.plan.breaks.first?.ads.first?.ad)
            #expect(ad.id == "inline-1")
            #expect(ad.wrappers.map(\.source) == ["https://ads.example/vast/wrapper-outer.xml?cb=42 (mapped to \(DecisioningFixtures.path("VAST/wrapper-outer.xml")))",
                                                  "https://ads.example/vast/wrapper-middle.xml (mapped to \(DecisioningFixtures.path("VAST/wrapper-middle.xml")))"])
        }
    }
}

extension SerialDecisioningTests {
    /// The creative resolver: local files and the URL map are found, remote media is left for the media cache.
    @Suite struct CreativeResolverTests {
        @Test func leavesARemoteMediaFileRemoteAndPlayableInThePlanWithoutRequestingIt() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/vast.xml", .xml(VASTText.document(VASTText.inline(id: "remote", media: "\(base)/media/ad.mp4"))))
            let result = try await AdsLoader(settings: SerialDecisioningTests.LoopbackResolutionTests.settings())
                .load(AdsRequest(adTag: "\(base)/vast.xml"))
            let planned = try #require(result.plan.breaks.first?.ads.first)
            #expect(planned.state == .available)
            #expect(planned.error == nil)
            #expect(planned.ad.selection?.remoteURL == URL(string: "\(base)/media/ad.mp4"))
            #expect(server.requests(for: "/media/ad.mp4").isEmpty)
        }

        @Test func findsLocalAndMappedFilesAndRefusesMissingOnes() throws {
            let dir = try TemporaryDirectory()
            let file = try dir.write("intro.mp4", "placeholder")
            let map = URLMap(rules: [.init(urlPrefix: "https://iabtechlab.com/", localPrefix: file),
                                     .init(urlPrefix: "https://cdn.example/", localPrefix: dir.path + "/")])
            let resolver = CreativeResolver(urlMap: map)
            #expect(try resolver.resolve(file).get() == .local(file))
            #expect(try resolver.resolve("file://" + file).get() == .local(file))
            #expect(try resolver.resolve("https://iabtechlab.com/wp-content/uploads/2016/07/VAST-4.0-Short-Intro.mp4").get() == .local(file))
            #expect(resolver.resolve("https://cdn.example/other.mp4")
                    == .failure(AdError(.fileNotFound, "media https://cdn.example/other.mp4 (mapped to \(dir.path)/other.mp4): no such file")))
            #expect(resolver.resolve(dir.path + "/none.mp4") == .failure(AdError(.fileNotFound, "media \(dir.path)/none.mp4: no such file")))
            #expect(try resolver.resolve("https://remote.example/a.mp4").get() == .remote(URL(string: "https://remote.example/a.mp4")!))
        }

        @Test func hashesLikeSHA256() {
            #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            #expect(SHA256.hex(String(repeating: "a", count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        }
    }
}
