@testable import AdPlayback
@testable import AdScreen
import Foundation
import Testing

/// A tap that clicked a card is logged as the card's: the screen model's `.nothing` becomes the card the native
/// run's `onAdClick` at the same frame names; a tap on nothing at another frame, or on a layer, stays as it is.
@Suite struct NativeTapLogTests {
    static func tap(_ x: Int, _ y: Int, frame: Int64) -> SessionEvent {
        tap(x, y, on: .nothing, frame: frame)
    }

    static func tap(_ x: Int, _ y: Int, on target: SessionEvent.TapTarget, frame: Int64) -> SessionEvent {
        SessionEvent(.screen(.tapped(x: x, y: y, on: target)), time: Double(frame) / 30, frame: frame, contentTime: 0, scene: "feed")
    }

    @Test func aTapOnACardNamesTheCardAndATapOnNothingStaysNothing() {
        let click = SessionEvent(.native(.click(link: "https://grip.example/"),
                                         SessionEvent.NativeSubject(placement: "feed-slider", card: 3, adID: "shoe-4")),
                                 time: 8, frame: 240, contentTime: 0, scene: "feed")
        let banner = Self.tap(10, 700, on: .layer(.banner, scene: "feed"), frame: 240)
        let events = Director.namingTappedCards([Self.tap(5, 5, frame: 100), banner, Self.tap(133, 467, frame: 240), click])
        #expect(events.map(\.kind) == [
            Self.tap(5, 5, frame: 100).kind, banner.kind,
            .screen(.tapped(x: 133, y: 467, on: .nativeCard(card: 3, adID: "shoe-4", placement: "feed-slider"))), click.kind,
        ])
        // The log writes the card's name.
        #expect(events[2].columns.message == #"tap at 133,467 on card 3 ("shoe-4") of placement "feed-slider""#)
    }
}
