@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

@Suite struct NativeSessionEventTests {
    /// A native event's line carries its placement, card and ad id, and what its kind carries (a failure its
    /// failure kind and message, a phase its phase, a duplicate the other placement) and nothing else; it reads back
    /// the same.
    @Test func aNativeEventLineCarriesWhatItsKindCarriesAndRoundTrips() throws {
        var native = NativeAdEvent(time: MediaTime(seconds: 2), placement: "s", scene: "feed",
                                   kind: .moment(.failed(.timeout, message: "slow")), card: 1, ad: "a1")
        let line = native.sessionEvent(frame: 60, contentTime: 2)
        #expect(line.kind == .native(.failed(.timeout, message: "slow"), SessionEvent.NativeSubject(placement: "s", card: 1, adID: "a1")))
        #expect(line.jsonLine == #"{"type":"onAdFailure","time":2,"frame":60,"contentTime":2,"message":"slow","scene":"feed","placement":"s","card":1,"adId":"a1","failure":"timeout"}"#)
        #expect(try JSONDecoder().decode(SessionEvent.self, from: Data(line.jsonLine.utf8)) == line)
        native.kind = .moment(.loadPhase(.failed))
        #expect(native.sessionEvent(frame: 60, contentTime: 2).jsonLine.hasSuffix(#""placement":"s","card":1,"adId":"a1","phase":"failed"}"#))
        native.kind = .moment(.duplicate(otherPlacement: "t", message: "left out"))
        #expect(native.sessionEvent(frame: 60, contentTime: 2).jsonLine.hasSuffix(#""adId":"a1","otherPlacement":"t"}"#))
    }

    /// A refused native command is a `LOG` with reason `refused`, a failed card video one with `mediaUnavailable`,
    /// a tracker a `BEACON`.
    @Test func aRefusalIsALogAndATrackerABeacon() {
        let refused = NativeAdEvent(time: .zero, placement: "s", scene: "feed", kind: .refused("swipe left: no card"))
        #expect(refused.sessionKind == .log(.native(SessionEvent.NativeSubject(placement: "s")), reason: .refused,
                                          message: "swipe left: no card"))
        let video = NativeAdEvent(time: .zero, placement: "s", scene: "feed", kind: .videoFailed("no media"), card: 2, ad: "v")
        #expect(video.columns.type == .log && video.columns.reason == .mediaUnavailable && video.columns.native.card == 2)
        let beacon = NativeAdEvent(time: .zero, placement: "s", scene: "feed", kind: .beacon(.impression, url: "https://t/"))
        #expect(beacon.columns.type == .beacon && beacon.columns.event == .impression && beacon.columns.url == "https://t/")
    }
}
