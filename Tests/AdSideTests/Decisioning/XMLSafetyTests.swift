@testable import AdDecisioning
import Foundation
import LoopbackServer
import Testing

extension SerialDecisioningTests {
    /// Hostile and huge input: refused or parsed in bounded time, with a clear error.
    @Suite struct XMLSafetyTests {
        @Test func refusesEntityExpansion() throws {
            // "Billion laughs": ten levels of ten references each.
            var dtd = "<!ENTITY lol0 \"lol\">"
            for i in 1...9 { dtd += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">" }
            let text = "<?xml version=\"1.0\"?><!DOCTYPE VAST [\(dtd)]><VAST version=\"3.0\"><Error>&lol9;</Error></VAST>"
            let error = #expect(throws: DecisioningError.self) {
                _ = try VASTParser().parse(Data(text.utf8), source: "laughs.xml")
            }
            #expect(error == .forbiddenEntities(source: "laughs.xml"))
            #expect(error?.code == .xmlParsing)
            #expect(error?.description == "VAST error 100: laughs.xml declares XML entities in a DTD (entity expansion or external entities); refused")
        }

        @Test func refusesExternalEntities() throws {
            let text = """
            <?xml version="1.0"?>
            <!-- a comment first -->
            <!DOCTYPE VAST [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
            <VAST version="3.0"><Error>&secret;</Error></VAST>
            """
            #expect(throws: DecisioningError.forbiddenEntities(source: "xxe.xml")) {
                _ = try VASTParser().parse(Data(text.utf8), source: "xxe.xml")
            }
        }

        @Test func refusesParameterEntitiesInAVMAP() throws {
            let text = "<!DOCTYPE VMAP [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/x.dtd\"> %p;]><VMAP version=\"1.0\"/>"
            #expect(throws: DecisioningError.forbiddenEntities(source: "p.xml")) {
                _ = try AdResponse.parse(Data(text.utf8), source: "p.xml")
            }
        }

        @Test func neverFetchesAnExternalDTD() async throws {
            let server = try LoopbackHTTPServer()
            defer { server.stop() }
            server.route("/vast.dtd", .xml("<!ENTITY x \"y\">"))
            let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE VAST SYSTEM \"\(server.baseURL.absoluteString)/vast.dtd\">\n"
                + VASTText.document(VASTText.inline(id: "dtd"))
            let doc = try VASTParser().parse(Data(text.utf8), source: "dtd.xml")
            #expect(doc.ads.map(\.id) == ["dtd"])
            #expect(server.requests.isEmpty)
        }

        @Test func acceptsADoctypeInsideCompanionHTML() throws {
            // `<!DOCTYPE html>` inside CDATA is content, not a DTD.
            let companion = "<Creative><CompanionAds><Companion width=\"300\" height=\"250\"><HTMLResource><![CDATA[<!DOCTYPE html><!ENTITY is just text here>]]></HTMLResource></Companion></CompanionAds></Creative>"
            let text = VASTText.document(VASTText.inline(id: "c").replacingOccurrences(of: "</Creatives>", with: companion + "</Creatives>"))
            let doc = try VASTParser().parse(Data(text.utf8), source: "c.xml")
            #expect(doc.ads[0].creatives[1].companions[0].resources == [.html("<!DOCTYPE html><!ENTITY is just text here>")])
        }

        @Test func refusesADocumentOverTheSizeLimitUnread() throws {
            let big = Data(count: 50 * 1_000_000)
            // This thread's CPU time (the parse is synchronous): reading 50 MB would cost seconds, refusing it none.
            let start = ThreadCPU.seconds()
            let error = #expect(throws: DecisioningError.self) {
                _ = try VASTParser().parse(big, source: "big.xml")
            }
            let cpu = ThreadCPU.seconds() - start
            #expect(error == .documentTooLarge(source: "big.xml", bytes: 50_000_000, limit: 16 << 20))
            #expect(error?.description == "VAST error 100: big.xml is 50000000 bytes, more than the limit of 16777216 bytes (16 MiB)")
            #expect(cpu < 1.0 * Double(SanitizerSlack.factor), "refusing took \(cpu) s of CPU: the document was read")
        }

        @Test func refusesALargeFileBeforeReadingIt() async throws {
            let dir = try TemporaryDirectory()
            let path = try dir.write("big.xml", Data(count: 2_000_000))
            var settings = AdsLoaderSettings()
            settings.maximumDocumentBytes = 1_000_000
            let error = await #expect(throws: DecisioningError.self) {
                _ = try await AdsLoader(settings: settings).load(AdsRequest(adTag: path))
            }
            #expect(error == .documentTooLarge(source: path, bytes: 2_000_000, limit: 1_000_000))
        }

        @Test func aLocalWrapperToADeviceStopsAtTheLimit() async throws {
            // A wrapper in a local file may point at another local file; /dev/zero has no size and never ends.
            let dir = try TemporaryDirectory()
            let path = try dir.write("top.xml", VASTText.document(VASTText.wrapper(id: "dev", tag: "/dev/zero")))
            var settings = AdsLoaderSettings()
            settings.maximumDocumentBytes = 1_000_000
            let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: path))
            #expect(result.plan.errors.map(\.code) == [.xmlParsing])
            #expect(result.plan.errors.first?.message.hasSuffix(
                "/dev/zero is larger than the limit of 1000000 bytes (1.0 MiB); the download was stopped there") == true)
        }

        @Test func readsADocumentFromAPipe() async throws {
            // `pipctl ads inspect <(curl …)`: a pipe has no size; it is read to its end.
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let text = VASTText.document(VASTText.inline(id: "piped"))
            let writer = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
            Thread.detachNewThread { try? writer.write(contentsOf: Data(text.utf8)); try? writer.close() }
            let result = try await AdsLoader().load(AdsRequest(adTag: "/dev/fd/\(fds[0])"))
            close(fds[0])
            #expect(result.plan.breaks.first?.ads.first?.ad.id == "piped")
        }

        @Test func parsesALargeLegalDocumentJustUnderTheLimitInBoundedTime() throws {
            // 15 MB of real ads (just under the default 16 MiB): every ad read, well within 10 s of CPU even in a debug
            // build. CPU time, not wall-clock time, so that a busy machine does not fail a linear parser.
            let ad = VASTText.inline(id: "bulk", impression: "https://track.example/imp?a=1&amp;b=2") + "\n"
            let count = 15_000_000 / ad.utf8.count
            let text = "<VAST version=\"4.2\">\n" + String(repeating: ad, count: count) + "</VAST>\n"
            let data = Data(text.utf8)
            #expect(data.count > 14_000_000 && data.count < VASTParser.defaultMaximumDocumentBytes)
            // This thread's CPU time: the parse is synchronous, and other tests running beside it do not count.
            let start = ThreadCPU.seconds()
            let doc = try VASTParser().parse(data, source: "large.xml")
            let elapsed = Duration.seconds(ThreadCPU.seconds() - start)
            #expect(doc.ads.count == count)
            #expect(doc.ads.last?.impressions == ["https://track.example/imp?a=1&b=2"])
            #expect(doc.ads.last?.linearCreatives.first?.mediaFiles.count == 1)
            #expect(elapsed < SanitizerSlack.time(.seconds(10)), "took \(elapsed)")
        }

        @Test func reportsTheLineOfAMalformedDocumentPastTenMegabytes() throws {
            // libxml2 refuses more than 10 MB given at once; fed as a stream it parses to the real error.
            let ad = VASTText.inline(id: "bulk") + "\n"
            let count = 12_000_000 / ad.utf8.count
            let lines = count * ad.split(separator: "\n", omittingEmptySubsequences: false).count - count + 1
            let text = "<VAST version=\"4.2\">\n" + String(repeating: ad, count: count) + "<Ad></VAST>\n"
            let error = #expect(throws: DecisioningError.self) {
                _ = try VASTParser().parse(Data(text.utf8), source: "long.xml")
            }
            guard case .malformedXML(_, let line, let reason) = error else {
                Issue.record("expected malformedXML, got \(String(describing: error))")
                return
            }
            #expect(line == lines + 1)
            #expect(reason == "closing tag does not match the open element")
        }

        @Test func handlesTenThousandBreaksInBoundedTime() async throws {
            var text = "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/vmap-1.0\" version=\"1.0\">\n"
            for i in 1...10_000 {
                text += "<vmap:AdBreak timeOffset=\"\(MediaTimeText.clock(seconds: i))\" breakType=\"linear\" breakId=\"b\(i)\"><vmap:AdSource><vmap:VASTAdData>"
                    + VASTText.document(VASTText.inline(id: "ad\(i)", media: "https://cdn.example/same.mp4"))
                    + "</vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>\n"
            }
            text += "</vmap:VMAP>\n"
            let dir = try TemporaryDirectory()
            let path = try dir.write("many.xml", text)
            // CPU time, not wall-clock time (as above): a busy machine must not fail a linear plan builder.
            let start = ProcessCPU.seconds()
            let result = try await AdsLoader().load(AdsRequest(adTag: path, contentDuration: .init(seconds: 20_000)))
            let elapsed = Duration.seconds(ProcessCPU.seconds() - start)
            #expect(result.plan.breaks.count == 10_000)
            #expect(result.plan.errors.isEmpty)
            #expect(elapsed < SanitizerSlack.time(.seconds(10)), "took \(elapsed)")
        }
    }
}

/// `hh:mm:ss` for whole seconds, as VMAP writes offsets.
enum MediaTimeText {
    static func clock(seconds: Int) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }
}

extension SerialDecisioningTests {
    /// The nesting and element-count limits of `XMLTreeReader`, checked while parsing.
    @Suite struct XMLLimitTests {
        /// A VAST document whose `Ad` holds `depth - 2` nested `Extension`-free elements, so the deepest is at
        /// `depth` (VAST is depth 1).
        static func nested(depth: Int) -> String {
            let inner = max(0, depth - 2)
            return "<VAST version=\"4.2\"><Ad id=\"deep\">" + String(repeating: "<x>", count: inner)
                + String(repeating: "</x>", count: inner) + "</Ad></VAST>"
        }

        @Test func refusesSixtyThousandNestedElementsWithError100() throws {
            let text = XMLLimitTests.nested(depth: 60_000)
            #expect(text.utf8.count > 300_000)
            let error = #expect(throws: DecisioningError.self) {
                _ = try VASTParser().parse(Data(text.utf8), source: "deep.xml")
            }
            #expect(error == .xmlLimitExceeded(source: "deep.xml", limit: .depth(256), line: 1))
            #expect(error?.code == .xmlParsing)
            #expect(error?.description == "VAST error 100: deep.xml nests elements more than 256 deep (line 1); refused")
        }

        @Test func parsesADocumentExactlyAtTheDepthLimit() throws {
            let doc = try VASTParser().parse(Data(XMLLimitTests.nested(depth: 256).utf8), source: "d256.xml")
            #expect(doc.ads.map(\.id) == ["deep"])
            #expect(throws: DecisioningError.xmlLimitExceeded(source: "d257.xml", limit: .depth(256), line: 1)) {
                _ = try VASTParser().parse(Data(XMLLimitTests.nested(depth: 257).utf8), source: "d257.xml")
            }
        }

        @Test func countsSkippedElementsTowardsTheElementLimit() throws {
            // VAST, Ad, InLine, Extensions: 4 elements, then `<e/>`s up to the limit exactly.
            func document(elements: Int) -> Data {
                Data(("<VAST version=\"4.2\"><Ad id=\"many\"><InLine><Extensions>"
                    + String(repeating: "<e/>", count: elements - 4) + "</Extensions></InLine></Ad></VAST>").utf8)
            }
            let limit = XMLTreeReader.maximumElements
            #expect(limit == 1_000_000)
            let doc = try VASTParser().parse(document(elements: limit), source: "at.xml")
            #expect(doc.ads.map(\.id) == ["many"])
            let error = #expect(throws: DecisioningError.self) {
                _ = try VASTParser().parse(document(elements: limit + 1), source: "over.xml")
            }
            #expect(error == .xmlLimitExceeded(source: "over.xml", limit: .elements(limit), line: 1))
            #expect(error?.message == "over.xml has more than 1000000 XML elements (line 1); refused")
        }

        @Test func refusesADeepVMAPWithError100() throws {
            let text = "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/vmap-1.0\" version=\"1.0\">"
                + String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000) + "</vmap:VMAP>"
            #expect(throws: DecisioningError.xmlLimitExceeded(source: "deep-vmap.xml", limit: .depth(256), line: 1)) {
                _ = try AdResponse.parse(Data(text.utf8), source: "deep-vmap.xml")
            }
        }
    }
}

/// The tree's release is iterative: no stack frame per level, whatever the depth.
@Suite struct XMLElementNodeTeardownTests {
    @Test func releasesAMillionDeepTreeWithoutRecursing() {
        // Built by hand, past the reader's depth limit: freed recursively this would overflow the stack (SIGSEGV).
        var root: XMLElementNode? = XMLElementNode(name: "VAST", key: "vast", attributes: [], line: 1)
        var leaf = root!
        for i in 0..<1_000_000 {
            let child = XMLElementNode(name: "x", key: "x", attributes: [], line: i + 2)
            leaf.children.append(child)
            leaf = child
        }
        leaf = XMLElementNode(name: "y", key: "y", attributes: [], line: 0)
        weak let deepest = root?.children.first?.children.first
        #expect(deepest != nil)
        root = nil
        #expect(deepest == nil)
    }

    @Test func keepsASubtreeThatIsStillReferenced() {
        var root: XMLElementNode? = XMLElementNode(name: "VAST", key: "vast", attributes: [], line: 1)
        let ad = XMLElementNode(name: "Ad", key: "ad", attributes: [], line: 2)
        ad.children.append(XMLElementNode(name: "InLine", key: "inline", attributes: [], line: 3))
        root?.children.append(ad)
        root = nil
        #expect(ad.child("inline")?.line == 3)
    }
}
