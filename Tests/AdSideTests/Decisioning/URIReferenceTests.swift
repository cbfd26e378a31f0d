@testable import AdDecisioning
import Foundation
import Testing

/// References resolved by RFC 3986 §5, checked against the RFC's own examples (§5.4, base `http://a/b/c/d;p?q`),
/// and what the same rules make of references in local documents.
@Suite struct URIReferenceTests {
    static let base = "http://a/b/c/d;p?q"

    /// RFC 3986 §5.4.1, "Normal Examples".
    static let normal: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ]

    /// RFC 3986 §5.4.2, "Abnormal Examples" (the strict parser's answer for `http:g`).
    static let abnormal: [(String, String)] = [
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ]

    @Test(arguments: normal + abnormal)
    func resolvesTheRFCsExamples(reference: String, expected: String) {
        let resolved = URIReference(parsing: reference).resolved(against: URIReference(parsing: Self.base))
        #expect(resolved.text == expected)
    }

    /// The same table through `ResourceLocation`, which fetches what it resolves: every http result is that URL. An
    /// empty reference names nothing, and a one-letter "scheme" is a Windows drive in pipctl, so `g:h` is the
    /// relative path `./g:h` (RFC 3986 §4.2's spelling of it).
    @Test(arguments: normal + abnormal)
    func aRemoteDocumentsReferencesAreTheRFCsURLs(reference: String, expected: String) throws {
        let document = ResourceLocation.remote(try #require(URL(string: Self.base)))
        let resolved = document.resolving(reference)
        if reference.isEmpty {
            #expect(resolved == nil)
        } else if reference == "g:h" {
            #expect(resolved?.description == "http://a/b/c/g:h")
        } else {
            #expect(resolved?.description == expected)
            #expect(resolved?.isRemote == true)
        }
    }

    @Test func aLocalDocumentsQueryAndFragmentAreNotPartOfTheFileName() {
        let local = ResourceLocation.file("/srv/ads/top.xml")
        #expect(local.resolving("next.xml?a=b") == .file("/srv/ads/next.xml"))
        #expect(local.resolving("media/ad.mp4#t=5") == .file("/srv/ads/media/ad.mp4"))
        #expect(local.resolving("?a=b") == .file("/srv/ads/top.xml"))
        #expect(local.resolving("./x/../y/./z.xml") == .file("/srv/ads/y/z.xml"))
        #expect(local.resolving("../../../../etc/ad.xml") == .file("/etc/ad.xml"))
        #expect(local.resolving("/abs/ad.mp4?cb=1") == .file("/abs/ad.mp4"))
        #expect(local.resolving("my%20ad.mp4") == .file("/srv/ads/my ad.mp4"))
        #expect(local.resolving("file:///tmp/a.xml?x=1") == .file("/tmp/a.xml"))
        // A one-letter "scheme" is a Windows drive, so a path, as before.
        #expect(local.resolving("C:ad.xml") == .file("/srv/ads/C:ad.xml"))
    }

    @Test func aLocalDocumentsOwnNameMayHoldDelimiters() {
        let local = ResourceLocation.file("/srv/what?#100%/top.xml")
        #expect(local.resolving("next.xml?a=b") == .file("/srv/what?#100%/next.xml"))
        #expect(local.resolving("../other.xml") == .file("/srv/other.xml"))
    }

    @Test func aProtocolRelativeReferenceInALocalDocumentIsHTTPSNeverALocalPath() {
        let local = ResourceLocation.file("/srv/ads/top.xml")
        #expect(local.resolving("//cdn.example/x.mp4") == .remote(URL(string: "https://cdn.example/x.mp4")!))
        #expect(local.resolving("//cdn.example/a/../x.mp4?cb=1#t") == .remote(URL(string: "https://cdn.example/x.mp4?cb=1#t")!))
        // From a served document it takes that document's scheme.
        let served = ResourceLocation.remote(URL(string: "http://ads.example/top.xml")!)
        #expect(served.resolving("//cdn.example/x.mp4") == .remote(URL(string: "http://cdn.example/x.mp4")!))
    }

    @Test func whatAUserTypesIsAPathUnlessItHasAScheme() {
        #expect(ResourceLocation(userInput: "ads/tag?.xml", relativeTo: "/home/u") == .file("/home/u/ads/tag?.xml"))
        #expect(ResourceLocation(userInput: "//host/x.xml", relativeTo: "/home/u") == .file("/host/x.xml"))
        #expect(ResourceLocation(userInput: "https://ads.example/a/../tag.xml?x=1", relativeTo: "/home/u")
                == .remote(URL(string: "https://ads.example/tag.xml?x=1")!))
        #expect(ResourceLocation(userInput: "file:///tmp/tag.xml", relativeTo: "/home/u") == .file("/tmp/tag.xml"))
        #expect(ResourceLocation(userInput: "ftp://ads.example/tag.xml", relativeTo: "/home/u") == nil)
    }

    @Test func removesTheDotSegmentsOfALongPath() {
        let path = String(repeating: "/a/b/..", count: 50_000)
        #expect(URIReference.removingDotSegments(path) == String(repeating: "/a", count: 50_000) + "/")
    }
}
