@testable import AdDecisioning
import Foundation
import LoopbackServer
import Testing

extension SerialDecisioningTests {
    /// Documents fetched over http(s) cannot reach the user's files: wrappers, media and beacons, on loopback.
    @Suite struct OriginPolicyTests {
        static func settings(allowLocalMedia: String? = nil) -> AdsLoaderSettings {
            var s = SerialDecisioningTests.LoopbackResolutionTests.settings()
            s.originPolicy = OriginPolicy(localMediaDirectory: allowLocalMedia.flatMap(OriginPolicy.realPath))
            return s
        }

        @Test func aRemoteDocumentsFileMediaIsRefusedWith403WhetherOrNotTheFileExists() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try TemporaryDirectory()
            let existing = try dir.write("secret.mp4", "local")
            let base = server.baseURL.absoluteString
            for (name, path) in [("exists", existing), ("missing", dir.path + "/missing.mp4")] {
                server.route("/\(name).xml", .xml(VASTText.document(VASTText.inline(id: name, media: "file://" + path))))
            }
            var messages: [String] = []
            for name in ["exists", "missing"] {
                let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/\(name).xml"))
                let planned = try #require(result.plan.breaks.first?.ads.first)
                #expect(planned.state == .failed)
                #expect(planned.error?.code == .noSupportedMedia)
                #expect(planned.ad.selection?.localPath == nil)
                messages.append(planned.error?.message.replacingOccurrences(of: name, with: "X")
                    .replacingOccurrences(of: "secret.mp4", with: "F").replacingOccurrences(of: "missing.mp4", with: "F") ?? "")
            }
            // The same answer for a file that exists and one that does not: nothing to learn from it.
            #expect(messages[0] == messages[1])
            #expect(messages[0] == "ad 'X': none of 1 MediaFile(s) can be played: local file refused: a document fetched "
                + "over http(s) may only name http(s) media (see --allow-local-media)")
        }

        @Test func aRemoteDocumentsHTTPRenditionIsChosenOverItsRefusedLocalOne() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            let extra = "<MediaFile delivery=\"progressive\" type=\"video/mp4\" width=\"1920\" height=\"1080\">file:///etc/passwd</MediaFile></MediaFiles>"
            let ad = VASTText.inline(id: "two", media: "\(base)/ad.mp4").replacingOccurrences(of: "</MediaFiles>", with: extra)
            server.route("/vast.xml", .xml(VASTText.document(ad)))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/vast.xml"))
            let planned = try #require(result.plan.breaks.first?.ads.first)
            #expect(planned.error == nil)
            #expect(planned.ad.selection?.remoteURL == URL(string: "\(base)/ad.mp4"))
            #expect(planned.ad.selection?.candidates.map(\.accepted) == [true, false])
        }

        @Test func aRemoteWrapperToALocalFileFailsWith301AndReadsNothing() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try TemporaryDirectory()
            let local = try dir.write("inner.xml", VASTText.document(VASTText.inline(id: "local-inner")))
            let base = server.baseURL.absoluteString
            server.route("/top.xml", .xml(VASTText.document(VASTText.wrapper(id: "top", tag: "file://" + local))))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/top.xml"))
            #expect(result.plan.breaks.isEmpty)
            #expect(result.plan.errors == [AdError(.wrapperTimeout,
                "wrapper ad 'top' (line 1) in \(base)/top.xml: VASTAdTagURI refused: \(base)/top.xml was fetched over http(s) "
                + "and may not reference the local file \(local)",
                errorURLs: ["https://track.example/top-error?c=[ERRORCODE]"])])
        }

        @Test func aRemoteVMAPsAdTagURIToALocalFileFailsWith301() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            server.route("/vmap.xml", .xml("""
                <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" version="1.0"><vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre">
                <vmap:AdSource><vmap:AdTagURI templateType="vast3"><![CDATA[file:///etc/passwd]]></vmap:AdTagURI></vmap:AdSource>
                </vmap:AdBreak></vmap:VMAP>
                """))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/vmap.xml"))
            #expect(result.plan.errors.map(\.code) == [.wrapperTimeout])
            #expect(result.plan.errors.first?.message.hasSuffix("AdTagURI refused: \(base)/vmap.xml was fetched over http(s) and may not reference the local file /etc/passwd") == true,
                    "\(result.plan.errors)")
        }

        @Test func aLocalWrapperToHTTPMakesTheInnerDocumentRemote() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try TemporaryDirectory()
            let media = try dir.write("ad.mp4", "local")
            let base = server.baseURL.absoluteString
            server.route("/inner.xml", .xml(VASTText.document(VASTText.inline(id: "inner", media: "file://" + media))))
            let top = try dir.write("top.xml", VASTText.document(VASTText.wrapper(id: "top", tag: "\(base)/inner.xml")))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: top))
            let planned = try #require(result.plan.breaks.first?.ads.first)
            #expect(planned.error?.code == .noSupportedMedia)
            #expect(planned.ad.selection?.localPath == nil)
        }

        @Test func aLocalDocumentStillPlaysItsLocalMedia() async throws {
            let dir = try TemporaryDirectory()
            let media = try dir.write("ad.mp4", "local")
            let top = try dir.write("top.xml", VASTText.document(VASTText.inline(id: "local", media: "file://" + media)))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: top))
            let planned = try #require(result.plan.breaks.first?.ads.first)
            #expect(planned.error == nil)
            #expect(planned.ad.selection?.localPath == media)
        }

        @Test func allowLocalMediaAdmitsFilesInsideItsFolderOnlyAfterResolvingSymlinksAndDotDot() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let dir = try TemporaryDirectory()
            let inside = try dir.write("allowed/ad.mp4", "inside")
            let outside = try dir.write("private/secret.mp4", "outside")
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/allowed/link.mp4", withDestinationPath: outside)
            let base = server.baseURL.absoluteString
            let cases: [(String, String, Bool)] = [
                ("inside", "file://" + inside, true),
                ("symlink", "file://\(dir.path)/allowed/link.mp4", false),
                ("dotdot", "file://\(dir.path)/allowed/../private/secret.mp4", false),
            ]
            for (name, url, _) in cases { server.route("/\(name).xml", .xml(VASTText.document(VASTText.inline(id: name, media: url)))) }
            let settings = Self.settings(allowLocalMedia: dir.path + "/allowed")
            for (name, _, allowed) in cases {
                let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: "\(base)/\(name).xml"))
                let planned = try #require(result.plan.breaks.first?.ads.first)
                if allowed {
                    #expect(planned.error == nil, "\(name)")
                    #expect(planned.ad.selection?.localPath == inside)
                } else {
                    #expect(planned.error?.code == .noSupportedMedia, "\(name)")
                    #expect(planned.error?.message.contains("is not inside --allow-local-media") == true, "\(name): \(String(describing: planned.error))")
                }
            }
        }

        @Test func aRemoteDocumentsNonHTTPBeaconsAreDroppedWithAWarning() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            let base = server.baseURL.absoluteString
            let ad = VASTText.inline(id: "beacons", media: "\(base)/ad.mp4", impression: "file:///tmp/impression")
                .replacingOccurrences(of: "</TrackingEvents>", with: "<Tracking event=\"complete\">ftp://x/complete</Tracking></TrackingEvents>")
                .replacingOccurrences(of: "<InLine>", with: "<InLine><Error>/var/log/e?c=[ERRORCODE]</Error><Error>https://track.example/e</Error>")
            server.route("/vast.xml", .xml(VASTText.document(ad)))
            let result = try await AdsLoader(settings: Self.settings()).load(AdsRequest(adTag: "\(base)/vast.xml"))
            let planned = try #require(result.plan.breaks.first?.ads.first)
            #expect(planned.ad.beacons.impressions.isEmpty)
            #expect(planned.ad.beacons.errorURLs == ["https://track.example/e"])
            #expect(planned.ad.beacons.tracking.map(\.url) == ["https://track.example/beacons-start"])
            let dropped = result.warnings.map(\.message).filter { $0.contains("dropped: a document fetched over http(s)") }
            #expect(dropped.count == 3, "\(result.warnings)")
            // The plan carries them, for the session's `LOG` lines.
            #expect(result.plan.droppedReferences.map(\.message) == dropped)
            #expect(dropped.contains("\(base)/vast.xml: 'file:///tmp/impression' dropped: a document fetched over http(s) may only use http(s) URLs for tracking, clicks and resources"))
        }
    }
}
