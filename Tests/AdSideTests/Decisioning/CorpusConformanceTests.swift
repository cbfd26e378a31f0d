@testable import AdDecisioning
import Foundation
import LoopbackServer
import MediaCore
import Testing

extension SerialDecisioningTests {
    /// The shared corpus of real responses (`<repo>/../shared/corpus`); skipped when this checkout has none.
    @Suite(.enabled(if: DecisioningFixtures.corpus != nil, "no ../shared/corpus beside the repository"))
    struct CorpusConformanceTests {
        static let root = DecisioningFixtures.corpus ?? "/nonexistent"

        static func path(_ relative: String) -> String { root + "/" + relative }

        /// Files that are not usable on purpose, with the code each must give.
        static let refused: [String: VASTErrorCode] = [
            "iab/VAST 1-2.0 Samples/vast1Nonlinear.xml": .versionNotSupported,
            "iab/VAST 1-2.0 Samples/vast1RegularLinear.xml": .versionNotSupported,
            "iab/VAST 1-2.0 Samples/vast1VPAIDLinear.xml": .versionNotSupported,
            "iab/VAST 1-2.0 Samples/Tremor-Video-Samples/vast1Nonlinear.xml": .versionNotSupported,
            "iab/VAST 1-2.0 Samples/Tremor-Video-Samples/vast1RegularLinear.xml": .versionNotSupported,
            "iab/VAST 1-2.0 Samples/Tremor-Video-Samples/vast1VPAIDLinear.xml": .versionNotSupported,
            "vast-client-js/spec/samples/invalid-xmlfile.xml": .xmlParsing,
            "vast-client-js/spec/samples/outdated-vast.xml": .versionNotSupported,
            "vmap/dailymotion-vmap-js/incorrect-vmap.xml": .schemaValidation,
            // A fragment (`<vmap:Extension>`), not a document.
            "vmap/dailymotion-vmap-js/parsing-example.xml": .schemaValidation,
        ]

        static var allXMLFiles: [String] {
            guard DecisioningFixtures.corpus != nil else { return [] }
            return (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".xml") }.sorted()
        }

        /// The one clip the corpus has.
        static var clip: String { path("media/VAST-4.0-Short-Intro.mp4") }

        /// Offline map for the corpus: every media host to the clip, the IAB and Tremor wrapper tags to the corpus's
        /// own copies, VMAP's `http://server.com/vast.xml` to a fixture, and anything else to a missing directory,
        /// so that no test reaches the network.
        static var urlMap: URLMap {
            let mediaHosts = ["https://iab-publicfiles.s3.amazonaws.com/", "http://cdn.iabcdn.com/", "https://cdn.iabcdn.com/",
                              "https://iabtechlab.com/", "http://example.com/", "https://example.com/", "https://mycdn.example.com/",
                              "http://media.scanscout.com/", "http://static.scanscout.com/", "http://cdnp.tremormedia.com/"]
            return URLMap(rules: mediaHosts.map { URLMap.Rule(urlPrefix: $0, localPrefix: clip) } + [
                .init(urlPrefix: "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/", localPrefix: path("iab/")),
                .init(urlPrefix: "http://demo.tremormedia.com/proddev/vast/", localPrefix: path("iab/VAST 1-2.0 Samples/Tremor-Video-Samples/")),
                .init(urlPrefix: "http://server.com/vast.xml", localPrefix: DecisioningFixtures.path("VAST/inline-linear.xml")),
                .init(urlPrefix: "http://", localPrefix: path("unmapped/http/")),
                .init(urlPrefix: "https://", localPrefix: path("unmapped/https/")),
            ])
        }

        static func load(_ relative: String, duration: Int64? = nil) async throws -> AdsLoadResult {
            var settings = AdsLoaderSettings()
            settings.urlMap = urlMap
            return try await AdsLoader(settings: settings).load(AdsRequest(adTag: path(relative),
                                                                           contentDuration: duration.map { MediaDuration(seconds: $0) }))
        }

        @Test func parsesEveryFileWithoutACrashWellWithinASecond() throws {
            let files = Self.allXMLFiles
            #expect(files.count >= 160)
            for file in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: Self.path(file)))
                // This thread's CPU time, not wall time: the parse is synchronous, and a busy machine must not fail
                // it. Half a second rules out a document whose parse blows up (entities, deep nesting).
                let start = ThreadCPU.seconds()
                let outcome = Result { try AdResponse.parse(data, source: file) }
                let cpu = ThreadCPU.seconds() - start
                #expect(cpu < 0.5 * Double(SanitizerSlack.factor), "\(file) took \(cpu) s of CPU")
                switch outcome {
                case .success:
                    #expect(Self.refused[file] == nil, "\(file) should be refused")
                case .failure(let error):
                    let code = (error as? DecisioningError)?.code
                    #expect(code == Self.refused[file], "\(file): \(error)")
                }
            }
        }

        // MARK: zentrick/iab-vast-parser expected results

        /// Files where our reading deliberately differs from zentrick's expected JSON, and why.
        static let deliberateDifferences: [String: String] = [:]

        static var zentrickCases: [String] {
            guard DecisioningFixtures.corpus != nil else { return [] }
            let base = "zentrick-iab-vast-parser/test/fixtures/"
            return allXMLFiles.filter { $0.hasPrefix(base) }.map { String($0.dropFirst(base.count)) }
        }

        @Test func hasSixtySevenZentrickFilesWithExpectedResults() {
            let cases = Self.zentrickCases
            #expect(cases.count == 67)
            let missing = cases.filter { !FileManager.default.fileExists(atPath: Self.expectedPath($0)) }
            #expect(missing.isEmpty, "no expected JSON for \(missing)")
        }

        static func expectedPath(_ name: String) -> String {
            path("zentrick-iab-vast-parser/test/integration/expected/" + name.dropLast(4) + ".json")
        }

        @Test(arguments: zentrickCases)
        func readsWhatZentrickExpects(name: String) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.path("zentrick-iab-vast-parser/test/fixtures/" + name)))
            let expectedJSON = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: Self.expectedPath(name)))) as? [String: Any])
            let ours = ConformanceSummary(try VASTParser().parse(data, source: name))
            let theirs = ConformanceSummary(expected: expectedJSON)
            if let why = Self.deliberateDifferences[name] {
                #expect(ours != theirs, "\(name) is listed as differing (\(why)) but now matches: remove it from the list")
            } else {
                #expect(ours == theirs, "\(name)\nours:\n\(ours)\ntheirs:\n\(theirs)")
            }
        }

        // MARK: resolving real responses offline

        static var iabFiles: [String] {
            allXMLFiles.filter { $0.hasPrefix("iab/") && refused[$0] == nil }
        }

        @Test(arguments: iabFiles)
        func resolvesEveryIABSampleOffline(file: String) async throws {
            let result = try await Self.load(file)
            let ads = result.plan.breaks.flatMap(\.ads)
            let name = (file as NSString).lastPathComponent.lowercased()
            // Named "NonLinear", this IAB sample holds a linear ad (with a non-linear verification).
            let linearDespiteItsName = name == "inline_nonlinear_verification_vast2.0.xml"
            if (name.contains("nonlinear") || name.contains("non-linear")) && !linearDespiteItsName {
                #expect(ads.isEmpty, "\(file)")
                #expect(!result.plan.errors.isEmpty, "\(file)")
            } else if name.contains("vpaid") && !name.contains("separation") {
                #expect(ads.map { $0.error?.code } == [.vpaid], "\(file)")
            } else {
                #expect(!ads.isEmpty, "\(file): \(result.plan.errors)")
                for ad in ads {
                    #expect(ad.state == .available, "\(file): \(String(describing: ad.error))")
                    #expect(ad.ad.localMediaPath == Self.clip, "\(file)")
                }
                if (name.contains("wrapper") && !name.hasPrefix("no_wrapper")) || name.contains("viewable_impression") {
                    #expect(ads.allSatisfy { $0.ad.wrappers.count == 1 }, "\(file)")
                }
            }
        }

        /// vast-client-js's samples, each with what a player must make of it.
        @Test(arguments: [
            ("empty-no-ad.xml", [] as [String], [VASTErrorCode.noAdsAfterWrapper]),
            ("empty-no-creative.xml", [], [.schemaValidation]),
            ("inline-linear.xml", ["20001"], []),
            ("sample.xml", ["ad_id_0001"], []),
            ("vpaid.xml", ["VPAID!901"], []),
            ("vpaid2.xml", ["preroll-1!901"], []),
            // wrapper-b.xml allows one ad of sample.xml: its first stand-alone ad, which is VPAID only; the other
            // stand-alone ad of wrapper-a.xml, tried in its place, leads to VPAID only too (901).
            ("wrapper-a.xml", ["ad_id_0002!901"], [.vpaid]),
            ("wrapper-b.xml", ["ad_id_0002!901"], []),
            ("wrapper-legacy.xml", ["20001"], []),
            // Pod ad 1 is VPAID only: the first stand-alone ad (201, through sample.xml) plays after it, in its place.
            ("wrapper-multiple-ads.xml", ["VPAID!901", "ad_id_0001", "20001"], []),
            ("wrapper-empty.xml", [], [.noAdsAfterWrapper]),
            ("wrapper-empty-no-creative.xml", [], [.schemaValidation]),
            ("wrapper-unavailable-url.xml", [], [.wrapperTimeout]),
        ])
        func resolvesVastClientSamples(file: String, ads: [String], errors: [VASTErrorCode]) async throws {
            let result = try await Self.load("vast-client-js/spec/samples/" + file)
            let planned = result.plan.breaks.flatMap(\.ads).map { ($0.ad.id ?? "-") + ($0.error.map { "!\($0.code)" } ?? "") }
            #expect(planned == ads)
            #expect(result.plan.errors.map(\.code) == errors, "\(result.plan.errors)")
        }

        @Test func mergesTheVastClientWrapperChain() async throws {
            let ad = try #require(try await Self.load("vast-client-js/spec/samples/wrapper-a.xml").plan.breaks.first?.ads.first?.ad)
            #expect(ad.beacons.impressions == ["http://example.com/wrapperA-impression", "http://example.com/wrapperB-impression1",
                                       "http://example.com/wrapperB-impression2", "http://example.com/impression1"])
            #expect(ad.wrappers.map(\.tagURI) == ["wrapper-b.xml", "sample.xml"])
            #expect(ad.beacons.errorURLs.prefix(2) == ["http://example.com/wrapperA-error", "http://example.com/wrapperB-error"])
        }

        @Test(arguments: [("vast-client-js/spec/samples/invalid-xmlfile.xml", VASTErrorCode.xmlParsing),
                          ("vast-client-js/spec/samples/outdated-vast.xml", .versionNotSupported),
                          ("vmap/dailymotion-vmap-js/incorrect-vmap.xml", .schemaValidation)])
        func refusesBrokenFilesWithTheirCode(file: String, code: VASTErrorCode) async throws {
            let error = await #expect(throws: DecisioningError.self) { _ = try await Self.load(file) }
            #expect(error?.code == code)
        }

        @Test func plansTheDailymotionVMAPSamples() async throws {
            let result = try await Self.load("vmap/dailymotion-vmap-js/correct-vmap.xml", duration: 3600)
            // Both inline VAST documents are empty: no fill, with the break's error tracking to fire.
            #expect(result.plan.errors.map(\.code) == [.noAdsAfterWrapper, .noAdsAfterWrapper])
            #expect(result.plan.errors[0].errorURLs == ["http://server.com/error?[ERRORCODE]"])
            #expect(result.plan.breaks.map(\.position) == [.postroll])
            #expect(result.plan.breaks[0].id == "mypost")
            #expect(result.plan.breaks[0].ads.map(\.ad.id) == ["inline-1"])
            let extended = try await Self.load("vmap/dailymotion-vmap-js/correct-vmap-with-extension.xml")
            #expect(extended.plan.breaks.isEmpty)
            #expect(extended.plan.errors.map(\.code) == [.noAdsAfterWrapper])
        }

    }
}
