@testable import AdDecisioning
import Foundation
import LoopbackServer
import Testing

@Suite struct URLMapTests {
    @Test func mapsPrefixesRelativeToTheMapFileLongestFirst() throws {
        let dir = try TemporaryDirectory()
        try dir.write("media/intro.mp4", "placeholder")
        try dir.write("tags/deep/ad.xml", "<VAST/>")
        let map = try dir.write("maps/urls.tsv", """
        # comments and blank lines are fine

        https://iabtechlab.com/\t../media/intro.mp4
        https://ads.example/\t../tags/
        https://ads.example/deep/special\t/srv/special
        """)
        let urlMap = try URLMap.load(contentsOfFile: map)
        // A file on the local side takes every URL under the prefix.
        #expect(urlMap.localPath(for: "https://iabtechlab.com/wp-content/uploads/2016/07/VAST-4.0-Short-Intro.mp4") == dir.path + "/media/intro.mp4")
        // A directory gets the rest of the URL, without query, percent-decoded.
        #expect(urlMap.localPath(for: "https://ads.example/deep/ad.xml?cb=123#x") == dir.path + "/tags/deep/ad.xml")
        #expect(urlMap.localPath(for: "https://ads.example/a%20b.xml") == dir.path + "/tags/a b.xml")
        // The longest prefix wins.
        #expect(urlMap.localPath(for: "https://ads.example/deep/special.xml") == "/srv/special.xml")
        #expect(urlMap.localPath(for: "http://ads.example/deep/ad.xml") == nil)
    }

    @Test(arguments: [
        ("https://a.example/ /tmp/x", 1, "expected URL-prefix<TAB>local-path-prefix, found no TAB"),
        ("# ok\nhttps://a.example/\t", 2, "empty URL prefix or local path"),
        ("\n\nads.example/\t/tmp", 3, "URL prefix 'ads.example/' has no scheme (http://…)"),
    ])
    func refusesAMalformedLineNamingFileAndLine(text: String, line: Int, reason: String) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("bad.map", text)
        let error = #expect(throws: DecisioningError.self) { _ = try URLMap.load(contentsOfFile: path) }
        #expect(error == .invalidURLMap(file: path, line: line, reason: reason))
        #expect(error?.isUserError == true)
        #expect(error?.description == "URL map \(path), line \(line): \(reason)")
    }

    @Test func refusesAMissingMapFile() {
        #expect(throws: DecisioningError.invalidURLMap(file: "/nonexistent/map.tsv", line: nil, reason: "cannot read the file")) {
            _ = try URLMap.load(contentsOfFile: "/nonexistent/map.tsv")
        }
    }

    @Test func resolvesReferencesAgainstTheIncludingDocument() {
        let remote = ResourceLocation.remote(URL(string: "http://ads.example/a/top.xml?x=1")!)
        #expect(remote.resolving("next.xml") == .remote(URL(string: "http://ads.example/a/next.xml")!))
        #expect(remote.resolving("/root.xml") == .remote(URL(string: "http://ads.example/root.xml")!))
        #expect(remote.resolving(" https://other.example/v.xml\n ") == .remote(URL(string: "https://other.example/v.xml")!))
        #expect(remote.resolving("my ad.xml") == .remote(URL(string: "http://ads.example/a/my%20ad.xml")!))
        let local = ResourceLocation.file("/srv/ads/top.xml")
        #expect(local.resolving("next.xml") == .file("/srv/ads/next.xml"))
        #expect(local.resolving("../x/next.xml") == .file("/srv/x/next.xml"))
        #expect(local.resolving("VAST 4.0 Samples/a.xml") == .file("/srv/ads/VAST 4.0 Samples/a.xml"))
        #expect(local.resolving("file:///tmp/a.xml") == .file("/tmp/a.xml"))
        #expect(local.resolving("http://ads.example/v.xml") == .remote(URL(string: "http://ads.example/v.xml")!))
        #expect(local.resolving("ftp://ads.example/v.xml") == nil)
        #expect(local.resolving("   ") == nil)
    }
}

/// `--url-map` targets stay inside the folder their rule maps to, whatever the URL an ad server writes.
@Suite struct URLMapConfinementTests {
    static func map(_ dir: TemporaryDirectory) throws -> URLMap {
        try dir.write("served/ad.mp4", "inside")
        try dir.write("secret.txt", "outside")
        return try URLMap(parsing: "https://cdn.example/media/\tserved/\n", file: "test.map", directory: dir.path)
    }

    @Test(arguments: [
        "https://cdn.example/media/../secret.txt",
        "https://cdn.example/media/x/../../secret.txt",
        "https://cdn.example/media/..%2fsecret.txt",
        "https://cdn.example/media/..%2Fsecret.txt",
        "https://cdn.example/media/%2e%2e/secret.txt",
        "https://cdn.example/media/%2E%2E/secret.txt",
        "https://cdn.example/media/.%2e/secret.txt",
        "https://cdn.example/media/..%5csecret.txt",
    ])
    func refusesAURLThatLeavesItsMappedFolder(url: String) throws {
        let dir = try TemporaryDirectory()
        let urlMap = try Self.map(dir)
        guard case .refused(let refusal) = urlMap.target(for: url) else {
            Issue.record("\(url) mapped to \(urlMap.target(for: url))")
            return
        }
        #expect(refusal.url == url)
        #expect(refusal.description.hasPrefix("--url-map refuses \(url): "))
        #expect(urlMap.localPath(for: url) == nil)
    }

    @Test func stillMapsAURLInsideItsFolder() throws {
        let dir = try TemporaryDirectory()
        let urlMap = try Self.map(dir)
        #expect(urlMap.target(for: "https://cdn.example/media/ad.mp4?x=../y") == .file(dir.path + "/served/ad.mp4"))
        #expect(urlMap.target(for: "https://cdn.example/media/./ad.mp4") == .file(dir.path + "/served/ad.mp4"))
        #expect(urlMap.target(for: "https://other.example/ad.mp4") == .unmapped)
    }

    @Test func aRefusedMediaURLFailsTheAdWith401AndIsNeverFetched() async throws {
        let dir = try TemporaryDirectory()
        var settings = AdsLoaderSettings()
        settings.urlMap = try Self.map(dir)
        let tag = try dir.write("tag.xml", VASTText.document(VASTText.inline(id: "escape", media: "https://cdn.example/media/..%2fsecret.txt")))
        let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: tag))
        let ad = try #require(result.plan.breaks.first?.ads.first)
        #expect(ad.error?.code == .fileNotFound)
        #expect(ad.error?.message == "ad 'escape': media https://cdn.example/media/..%2fsecret.txt: --url-map refuses "
            + "https://cdn.example/media/..%2fsecret.txt: the path after 'https://cdn.example/media/' encodes '%2f' (a slash, backslash or NUL written in %-form)")
    }

    @Test func aRefusedWrapperURLFailsWith301WithoutANetworkRequest() async throws {
        let dir = try TemporaryDirectory()
        var settings = AdsLoaderSettings()
        settings.urlMap = try Self.map(dir)
        // A wrapper fetch that were tried could wait up to 60 s for cdn.example; refused, it costs nothing.
        settings.wrapperTimeout = .seconds(60)
        settings.decisionTimeout = nil
        // An encoded `..`: a literal one is a dot segment, removed when the reference is resolved (RFC 3986 §5.2.4).
        let tag = try dir.write("tag.xml", VASTText.document(VASTText.wrapper(id: "w", tag: "https://cdn.example/media/%2e%2e/secret.txt")))
        // Refused before any request: the error says so, where a fetch would have ended in its own error.
        let result = try await AdsLoader(settings: settings).load(AdsRequest(adTag: tag))
        #expect(result.plan.errors.map(\.code) == [.wrapperTimeout])
        #expect(result.plan.errors.first?.message.contains("--url-map refuses https://cdn.example/media/%2e%2e/secret.txt") == true,
                "\(result.plan.errors)")
    }
}
