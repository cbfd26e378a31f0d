@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// A session file over one of its documented limits (`SessionFileLimits`) is refused with one line naming the
/// file, the JSON path and the limit, before anything is sized by it (issue 22).
@Suite struct SessionFileLimitsTests {
    static func error(_ json: String) -> String? {
        do { _ = try ScreenSession(sessionFile: Data(json.utf8), file: "big.json"); return nil } catch { return error.description }
    }

    static func scenes(_ count: Int, player: Bool = false, native: Bool = false) -> String {
        (0..<count).map { i in
            let player = player ? #", "player": {"content": "c\#(i).mp4"}"# : ""
            let native = native ? #", "native": [{"id": "n\#(i)", "source": "r.json"}]"# : ""
            return #"{"id": "s\#(i)"\#(player)\#(native)}"#
        }.joined(separator: ", ")
    }

    @Test func moreScenesThanTheLimitAreRefused() {
        let limit = SessionFileLimits.maximumScenes
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [\#(Self.scenes(limit))]}"#) == nil)
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [\#(Self.scenes(limit + 1))]}"#)
                == "big.json: scenes: \(limit + 1) scenes, more than the limit of \(limit)")
    }

    /// A player needs a scene of its own, so with both limits at 16 the 17th player is refused with its scene.
    @Test func morePlayersThanTheLimitAreRefused() {
        let limit = SessionFileLimits.maximumPlayers
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [\#(Self.scenes(limit, player: true))]}"#) == nil)
        let json = #"{"device": "ipad-11", "scenes": [\#(Self.scenes(limit, player: true)), {"id": "x", "player": {"content": "c.mp4"}}]}"#
        #expect(SessionFileLimits.maximumScenes == limit)
        #expect(Self.error(json) == "big.json: scenes: \(limit + 1) scenes, more than the limit of \(SessionFileLimits.maximumScenes)")
    }

    @Test func moreNativePlacementsThanTheLimitAreRefused() {
        let limit = SessionFileLimits.maximumNativePlacements
        let many = (0...limit).map { #"{"id": "n\#($0)", "source": "r.json"}"# }.joined(separator: ", ")
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [{"id": "a", "native": [\#(many)]}]}"#)
                == "big.json: scenes[0].native: more than the limit of \(limit) native placements in a session")
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [\#(Self.scenes(limit, native: true))]}"#) == nil)
    }

    @Test func moreCommandsThanTheLimitAreRefused() {
        let limit = SessionFileLimits.maximumCommands
        let script = { (count: Int) in (0..<count).map { "pip@\($0)" }.joined(separator: "; ") }
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [{"id": "a"}], "script": "\#(script(limit))"}"#) == nil)
        #expect(Self.error(#"{"device": "ipad-11", "scenes": [{"id": "a"}], "script": "\#(script(limit + 1))"}"#)
                == "big.json: script: more than the limit of \(limit) commands")
    }

    @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsReadWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let limit = SessionFileLimits.maximumFileBytes
        let valid = #"{"device": "ipad-11", "scenes": [{"id": "a"}]}"#
        let path = directory.appendingPathComponent("big.json").path
        // Valid JSON: spaces after the object make it larger than the limit without making it unreadable.
        try Data((valid + String(repeating: " ", count: limit)).utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SessionFileError.self) { try ScreenSession(contentsOfSessionFile: path) }
        #expect(error?.description == "\(path): larger than the limit of \(limit) bytes")
        try Data(valid.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: Never.self) { try ScreenSession(contentsOfSessionFile: path) }
        #expect(Self.error(valid + String(repeating: " ", count: limit)) == "big.json: \(limit + valid.utf8.count) bytes, more than the limit of \(limit) bytes")
    }

    @Test(arguments: [
        ("100000x100000", "big.json: device: 100000 points is more than the limit of 10000 points a side"),
        ("390x10001@2", "big.json: device: 10001 points is more than the limit of 10000 points a side"),
        ("390x844@1000000", "big.json: device: scale 1000000 is outside the limit of 1/16 to 16 (at most three decimals)"),
        ("390x844@1/1000000", "big.json: device: scale 1/1000000 is outside the limit of 1/16 to 16 (at most three decimals)"),
        ("390x844@1.00001", "big.json: device: scale 100001/100000 is outside the limit of 1/16 to 16 (at most three decimals)"),
        ("4x4", "big.json: device: the screen is 4x4 pixels (both orientations), outside the limit of 16x16 to 8192x8192"),
    ])
    func aDeviceOutsideItsLimitsNamesTheDevice(device: String, expected: String) {
        #expect(Self.error(#"{"device": "\#(device)", "scenes": [{"id": "a"}]}"#) == expected)
    }

    @Test(arguments: [
        ("1000000", "big.json: pointScale: scale 1000000 is outside the limit of 1/16 to 16 (at most three decimals)"),
        ("\"1/1000000000\"", "big.json: pointScale: scale 1/1000000000 is outside the limit of 1/16 to 16 (at most three decimals)"),
        ("\"1.0001\"", "big.json: pointScale: scale 10001/10000 is outside the limit of 1/16 to 16 (at most three decimals)"),
        ("16", "big.json: pointScale: the screen is 19104x19104 pixels (both orientations), outside the limit of 16x16 to 8192x8192"),
    ])
    func aPointScaleOutsideItsLimitsNamesThePointScale(scale: String, expected: String) {
        #expect(Self.error(#"{"device": "ipad-11", "pointScale": \#(scale), "scenes": [{"id": "a"}]}"#) == expected)
    }

    @Test func theLargestAcceptedScreenIsWithinTheOutputsSize() throws {
        let session = try ScreenSession(sessionFile: Data(#"{"device": "8192x8192", "pointScale": 1, "scenes": [{"id": "a"}]}"#.utf8), file: "big.json")
        #expect(ScreenCanvas(initial: session.screen, rotates: true).size == PixelSize(width: 8192, height: 8192))
    }
}
