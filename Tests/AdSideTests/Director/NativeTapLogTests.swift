@testable import AdPlayback
@testable import AdScreen
import Foundation
import Testing

/// A tap that clicked a card is logged as the card's: the screen model's "on nothing" is replaced by the card the
/// native run's `onAdClick` at the same frame names; a tap on nothing at another frame stays as it is.
@Suite struct NativeTapLogTests {
    static func tap(_ x: Int, _ y: Int, frame: Int64) -> SessionEvent {
        SessionEvent(.log(.session, reason: nil, message: "tap at \(x),\(y) on nothing"), time: Double(frame) / 30, frame: frame,
                     contentTime: 0, scene: "feed")
    }

    @Test func aTapOnACardNamesTheCardAndATapOnNothingStaysNothing() {
        let click = SessionEvent(.native(.click(link: "https://grip.example/"),
                                         SessionEvent.NativeSubject(placement: "feed-slider", card: 3, adID: "shoe-4")),
                                 time: 8, frame: 240, contentTime: 0, scene: "feed")
        let events = Director.namingTappedCards([Self.tap(5, 5, frame: 100), Self.tap(133, 467, frame: 240), click])
        #expect(events.map { $0.columns.message } == [
            "tap at 5,5 on nothing", #"tap at 133,467 on card 3 ("shoe-4") of placement "feed-slider""#, nil,
        ])
    }
}
