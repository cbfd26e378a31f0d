import Foundation
import MediaCore
import Testing
@testable import AdCore

@Suite struct NativeSessionEventTests {
    /// A native event's line carries its placement, card, ad id, phase and failure, and reads back the same.
    @Test func aNativeEventLineRoundTrips() throws {
        var native = NativeAdEvent(time: MediaTime(seconds: 2), placement: "s", scene: "feed", kind: .onAdFailure, card: 1,
                                   ad: "a1", phase: .failed, failure: .timeout, otherPlacement: "t", message: "slow")
        native.url = "https://x.example/"
        let line = native.sessionEvent(frame: 60, contentTime: 2)
        #expect(line.type == .onAdFailure && line.frame == 60 && line.scene == "feed")
        let json = String(decoding: try JSONEncoder().encode(line), as: UTF8.self)
        for pair in [#""placement":"s""#, #""card":1"#, #""adId":"a1""#, #""phase":"failed""#, #""failure":"timeout""#, #""otherPlacement":"t""#] {
            #expect(json.contains(pair), "\(json)")
        }
        #expect(try JSONDecoder().decode(SessionEvent.self, from: Data(json.utf8)) == line)
    }

    /// A refused native command is a `LOG` with reason `refused`, a tracker a `BEACON`.
    @Test func aRefusalIsALogAndATrackerABeacon() {
        let refused = NativeAdEvent(time: .zero, placement: "s", scene: "feed", kind: .refused, message: "swipe left: no card")
        #expect(refused.sessionEvent(frame: 0, contentTime: 0).type == .log)
        #expect(refused.sessionEvent(frame: 0, contentTime: 0).reason == .refused)
        let beacon = NativeAdEvent(time: .zero, placement: "s", scene: "feed", kind: .beacon, url: "https://t/", beacon: .impression)
        #expect(beacon.sessionEvent(frame: 0, contentTime: 0).type == .beacon)
        #expect(beacon.sessionEvent(frame: 0, contentTime: 0).event == .impression)
    }
}
