@testable import AdScreen
import Foundation
import MediaCore
import Testing

@Suite struct NativeSessionFileTests {
    static func session(_ native: String) throws -> ScreenSession {
        try ScreenSession(sessionFile: Data("""
        {"device": "iphone-15", "scenes": [{"id": "feed", "native": \(native)}]}
        """.utf8), file: "s.json")
    }

    @Test func aSceneDeclaresItsNativePlacementsWithTheirSettings() throws {
        let session = try Self.session("""
        [{"id": "top", "source": "a.json", "style": "single", "top": 40, "maxRetries": 1, "loadImages": false,
          "template": {"slots": ["title", "media"], "width": 280}},
         {"id": "row", "source": "https://ads.example/b.json"}]
        """)
        let placements = session.nativePlacements
        #expect(placements.map(\.id) == ["top", "row"])
        #expect(placements.allSatisfy { $0.scene == "feed" })
        #expect(placements[0].style == .single && placements[0].top == 40 && placements[0].maximumRetries == 1)
        #expect(placements[0].loadImages == false && placements[0].template.width == 280 && placements[0].template.slots == [.title, .media])
        #expect(placements[1].style == .slider && placements[1].maximumRetries == NativeLoadState.defaultMaximumRetries
            && placements[1].loadImages && placements[1].template == .default)
    }

    @Test(arguments: [
        (#"[{"id": "s"}]"#, "scenes[0].native[0].source: is missing"),
        (#"[{"id": "s", "source": "a.json", "top": -1}]"#, "scenes[0].native[0].top: -1 is not in 0…10000"),
        (#"[{"id": "s", "source": "a.json", "maxRetries": "2"}]"#, "scenes[0].native[0].maxRetries: not a whole number"),
        (#"[{"id": "s", "source": "a.json"}, {"id": "s", "source": "b.json"}]"#, #"scenes[0].native[1].id: "s" names an earlier native placement too"#),
        (#"[{"id": "s", "source": "a.json", "template": {"slots": ["logo"]}}]"#, #"scenes[0].native[0].template.slots[0]: "logo" is not one of"#),
        (#"[{"id": "s", "source": "a.json", "size": 3}]"#, "scenes[0].native[0].size: unknown key"),
        (#"{"id": "s"}"#, "scenes[0].native: not an array"),
    ])
    func aBadNativePlacementNamesItsJSONPath(native: String, message: String) throws {
        let error = #expect(throws: SessionFileError.self) { try Self.session(native) }
        #expect(error?.description.hasPrefix("s.json: " + message) == true, "\(error.map { "\($0)" } ?? "")")
    }
}
