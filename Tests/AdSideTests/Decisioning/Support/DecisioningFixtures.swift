@testable import AdDecisioning
import Foundation

/// Paths of the decisioning fixtures (`Tests/AdSideTests/Fixtures`) and of the shared conformance corpus
/// (`<repo root>/../shared/corpus`), both found from this file's own path.
enum DecisioningFixtures {
    /// `Tests/AdSideTests/Fixtures`.
    static let directory: String = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").path
    }()

    /// The repository root (`Tests/AdSideTests/Decisioning/Support/` is four folders below it).
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The shared corpus, or `nil` when this checkout has none (the corpus tests then skip).
    static let corpus: String? = {
        let path = ((repositoryRoot as NSString).appendingPathComponent("../shared/corpus") as NSString).standardizingPath
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    static func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// Parses a fixture as VAST.
    static func vast(_ name: String) throws -> VASTDocument {
        try VASTParser().parse(data(name), source: name)
    }
}

/// Small VAST documents written in tests.
enum VASTText {
    /// An inline linear ad with one progressive MP4.
    static func inline(id: String, sequence: Int? = nil, media: String = "https://cdn.example/ad.mp4",
                       impression: String? = nil, extra: String = "") -> String {
        let seq = sequence.map { " sequence=\"\($0)\"" } ?? ""
        let imp = impression.map { "<Impression>\($0)</Impression>" } ?? ""
        return """
        <Ad id="\(id)"\(seq)><InLine><AdSystem>tests</AdSystem><AdTitle>\(id)</AdTitle>\(imp)
          <Creatives><Creative><Linear><Duration>00:00:10</Duration>
            <TrackingEvents><Tracking event="start">https://track.example/\(id)-start</Tracking></TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">\(media)</MediaFile></MediaFiles>
          </Linear></Creative></Creatives>\(extra)
        </InLine></Ad>
        """
    }

    /// A wrapper ad pointing at `tag`.
    static func wrapper(id: String, tag: String, attributes: String = "", sequence: Int? = nil) -> String {
        let seq = sequence.map { " sequence=\"\($0)\"" } ?? ""
        return """
        <Ad id="\(id)"\(seq)><Wrapper\(attributes.isEmpty ? "" : " " + attributes)><AdSystem>\(id)-system</AdSystem>
          <VASTAdTagURI><![CDATA[\(tag)]]></VASTAdTagURI>
          <Error>https://track.example/\(id)-error?c=[ERRORCODE]</Error>
          <Impression>https://track.example/\(id)-impression</Impression>
          <Creatives><Creative><Linear><TrackingEvents><Tracking event="complete">https://track.example/\(id)-complete</Tracking></TrackingEvents>
            <VideoClicks><ClickTracking>https://track.example/\(id)-click</ClickTracking></VideoClicks></Linear></Creative></Creatives>
        </Wrapper></Ad>
        """
    }

    static func document(_ ads: String..., version: String = "4.2") -> String {
        "<VAST version=\"\(version)\">\(ads.joined())</VAST>"
    }
}
