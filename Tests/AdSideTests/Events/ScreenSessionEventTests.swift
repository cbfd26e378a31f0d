@testable import AdDecisioning
@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// The screen's events are typed (`SessionEvent.Kind.screen`): the device screen answers each screen command with
/// `ScreenEventKind`s, the log writes each as the `LOG` line it always was, and reads that line back as the case.
@Suite struct ScreenSessionEventTests {
    static func screen(_ device: Device, _ orientation: Orientation = .portrait, scenes: [ScreenState.Scene],
                       arrangement: SceneArrangement? = nil) -> DeviceScreen {
        DeviceScreen(initial: ScreenState(device: device, orientation: orientation, scenes: scenes, arrangement: arrangement),
                     script: SessionScript(), live: true)
    }

    static func apply(_ screen: DeviceScreen, _ command: ScreenCommand) throws -> [SessionEvent.ScreenEventKind] {
        try screen.apply(command, at: .zero, live: false)
    }

    @Test func rotateAndFoldReportTheNewSizeFrameAndBannerRequest() throws {
        let phone = Self.screen(.iPhone15, scenes: [.init(id: "main", hasBanner: true)])
        #expect(try Self.apply(phone, .rotate(.landscape)) == [
            .willTransition(scene: "main", to: PointSize(width: 852, height: 393)),
            .didUpdateCoordinateSpace(scene: "main", frame: PointRect(x: 0, y: 0, width: 852, height: 393),
                                      safeArea: EdgeInsets(top: 0, left: 59, bottom: 21, right: 59)),
            .bannerNeedsReload(scene: "main", size: PointSize(width: 734, height: 58)),
        ])
        let foldable = Self.screen(.foldable, scenes: [.init(id: "main", hasBanner: true)])
        #expect(try Self.apply(foldable, .fold) == [
            .willTransition(scene: "main", to: PointSize(width: 411, height: 796)),
            .didUpdateCoordinateSpace(scene: "main", frame: PointRect(x: 0, y: 0, width: 411, height: 796),
                                      safeArea: EdgeInsets(top: 24, bottom: 24)),
            .bannerNeedsReload(scene: "main", size: PointSize(width: 411, height: 90)),
        ])
        #expect(try Self.apply(foldable, .unfold).first == .willTransition(scene: "main", to: PointSize(width: 700, height: 841)))
    }

    @Test func splitResizeAndActivateReportSizesFramesAndActivations() throws {
        let pad = Self.screen(.iPad11, .landscape, scenes: [.init(id: "main"), .init(id: "side")], arrangement: .fullScreen("main"))
        let split = try Self.apply(pad, .split(.twoThirds))
        #expect(split.contains(.willTransition(scene: "main", to: PointSize(width: 809, height: 834))))
        #expect(split.contains(.activationChanged(scene: "side", to: .foregroundInactive)))
        #expect(try Self.apply(pad, .resize("side", PointSize(width: 500, height: 600))) == [
            .willTransition(scene: "side", to: PointSize(width: 500, height: 600)),
            .didUpdateCoordinateSpace(scene: "side", frame: PointRect(x: 694, y: 0, width: 500, height: 600),
                                      safeArea: EdgeInsets(top: 24)),
        ])
        let portrait = Self.screen(.iPad11, scenes: [.init(id: "main"), .init(id: "side")], arrangement: .fullScreen("main"))
        #expect(try Self.apply(portrait, .activate("side")) == [
            .didUpdateCoordinateSpace(scene: "side", frame: PointRect(x: 0, y: 0, width: 834, height: 1194),
                                      safeArea: EdgeInsets(top: 24, bottom: 20)),
            .activationChanged(scene: "main", to: .background),
            .activationChanged(scene: "side", to: .foregroundActive),
        ])
    }

    /// iPad landscape at scale 1, Split View 1/2: "main" 0…592 pt with its banner at 724…814 pt, the divider at
    /// 592…602, "side" from 602.
    @Test func tapsPresentAndDismissReportWhatTheyLandedOnAndWhatCoversTheScene() throws {
        let pad = Self.screen(.iPad11, .landscape, scenes: [.init(id: "main", hasBanner: true), .init(id: "side")])
        #expect(try Self.apply(pad, .tap(x: 100, y: 750)) == [.tapped(x: 100, y: 750, on: .layer(.banner, scene: "main")),
                                                            .presented(scene: "main", .bannerLanding)])
        #expect(try Self.apply(pad, .tap(x: 100, y: 750)) == [.tapped(x: 100, y: 750, on: .layer(.overlay, scene: "main"))])
        #expect(try Self.apply(pad, .dismiss("main")) == [.dismissed(scene: "main", .bannerLanding)])
        #expect(try Self.apply(pad, .tap(x: 596, y: 400)) == [.tapped(x: 596, y: 400, on: .nothing)])
        #expect(try Self.apply(pad, .presentInterstitial("side")) == [.presented(scene: "side", .interstitial)])
        #expect(try Self.apply(pad, .dismiss("side")) == [.dismissed(scene: "side", .interstitial)])
        #expect(throws: ScreenRefusal("screen command \"dismiss side\": scene \"side\" presents nothing")) {
            try Self.apply(pad, .dismiss("side"))
        }
    }

    /// The session logs what the screen reports as typed events at the command's frame, after its `COMMAND`.
    @Test func theSessionLogsTheScreensEventsAsTypedKinds() throws {
        var configuration = try testConfiguration(script: "rotate landscape@1")
        let state = ScreenState(device: .iPhone15, scenes: [.init(id: "main", hasBanner: true)])
        configuration.canvas = ScreenCanvas(initial: state, script: configuration.script, live: false).size
        let session = try PlaybackSession(plan: AdPlan(breaks: []), configuration: configuration,
                                          media: FakeAdMedia(rate: tenFPS, seconds: [:]), appDelegate: nil,
                                          screen: DeviceScreen(initial: state, script: configuration.script, live: false))
        let atTen = runToEnd(session).events.filter { $0.frame == 10 }.map(\.kind)
        let expected: [SessionEvent.Kind] = [
            .command("rotate landscape"),
            .screen(.willTransition(scene: "main", to: PointSize(width: 852, height: 393))),
            .screen(.didUpdateCoordinateSpace(scene: "main", frame: PointRect(x: 0, y: 0, width: 852, height: 393),
                                              safeArea: EdgeInsets(top: 0, left: 59, bottom: 21, right: 59))),
            .screen(.bannerNeedsReload(scene: "main", size: PointSize(width: 734, height: 58))),
        ]
        #expect(atTen == expected)
    }

    /// One of each case, with scene names, ad ids and placements that hold the words around them.
    static let everyScreenEvent: [SessionEvent.ScreenEventKind] = [
        .willTransition(scene: "main", to: PointSize(width: 834, height: 1194)),
        .didUpdateCoordinateSpace(scene: "side", frame: PointRect(x: 694, y: 0, width: 500, height: 600),
                                  safeArea: EdgeInsets(top: 24, left: 0, bottom: 20, right: 3)),
        .activationChanged(scene: "main", to: .foregroundInactive),
        .bannerNeedsReload(scene: "main", size: PointSize(width: 734, height: 58)),
        .bannerReanchored(scene: "main", frame: PointRect(x: 0, y: 240, width: 300, height: 60)),
        .presented(scene: "side", .interstitial), .presented(scene: "main", .bannerLanding),
        .dismissed(scene: "side", .interstitial), .dismissed(scene: "main", .bannerLanding),
        .tapped(x: 5, y: 5, on: .nothing), .tapped(x: 100, y: 750, on: .layer(.banner, scene: "main")),
        .tapped(x: 133, y: 467, on: .nativeCard(card: 3, adID: "shoe-4", placement: "feed-slider")),
        .willTransition(scene: "a scene is background will transition to 1x1", to: PointSize(width: 2, height: 3)),
        .activationChanged(scene: "b presents interstitial", to: .background),
        .tapped(x: 0, y: 0, on: .layer(.content, scene: "left of scene right")),
        .tapped(x: 1, y: 2, on: .nativeCard(card: 0, adID: "a (\"b\")", placement: "top \"feed\"")),
    ]

    @Test func eachScreenEventIsWrittenAsTheLineItAlwaysWasAndReadBackAsItself() throws {
        let tap = SessionEvent(.screen(.tapped(x: 133, y: 467, on: .nativeCard(card: 3, adID: "shoe-4", placement: "feed-slider"))),
                               time: 8, frame: 240, contentTime: 7.5, scene: "feed")
        #expect(tap.jsonLine == #"{"type":"LOG","time":8,"frame":240,"contentTime":7.5,"message":"tap at 133,467 on card 3 (\"shoe-4\") of placement \"feed-slider\"","scene":"feed"}"#)
        let frame = SessionEvent(.screen(Self.everyScreenEvent[1]), time: 1, frame: 30, contentTime: 1)
        #expect(frame.jsonLine == #"{"type":"LOG","time":1,"frame":30,"contentTime":1,"message":"scene side frame 500x600+694+0 safe area top 24 left 0 bottom 20 right 3"}"#)

        let events = Self.everyScreenEvent.enumerated().map { i, kind in
            SessionEvent(.screen(kind), time: Double(i), frame: Int64(i * 30), contentTime: 0, scene: "main")
        }
        let text = events.map(\.jsonLine).joined(separator: "\n")
        #expect(try EventLogReader.decode(Data(text.utf8), path: "screen.jsonl") == events)
        for kind in Self.everyScreenEvent {
            #expect(try SessionEvent.ScreenEventKind(message: kind.message) == kind, "\(kind.message)")
            #expect(SessionEvent(.screen(kind), time: 0, contentTime: 0).columns.message == kind.message)
        }
    }

    @Test func otherLogLinesStayLogs() throws {
        let kinds: [SessionEvent.Kind] = [
            .log(.session, reason: nil, message: "adFailed ignored: the last frame did not show an ad (x)"),
            .log(.session, reason: .refused, message: "tap at 5,5 on nothing"),
            .log(.native(SessionEvent.NativeSubject(placement: "feed")), reason: nil, message: "scene main is background"),
            .log(.adBreak(0), reason: nil, message: "scene main is background"),
        ]
        let events = kinds.map { SessionEvent($0, time: 0, contentTime: 0) }
        #expect(try EventLogReader.decode(Data(events.map(\.jsonLine).joined(separator: "\n").utf8), path: "l.jsonl") == events)
        #expect(try SessionEvent.ScreenEventKind(message: "the scene main is background") == nil)
    }

    @Test func aScreenLineThatIsNoneOfTheScreensMessagesIsRefusedNamingTheLineAndTheMessage() {
        let messages = [
            "tap at 5 on nothing", "tap at 5,5 on the bezel", "tap at +5,5 on nothing", "tap at 5,5 on sky of scene main",
            #"tap at 1,2 on card ? ("a") of placement "p""#, #"tap at 1,2 on card 3 ("a")"#, "tap at 1,2 on card  (\"",
            "scene main is asleep", "scene main will transition to 3x", "scene  is background", "scene main",
            "scene main frame 1x1+0+0 safe area top 0 left 0 bottom 0", "scene main banner re-anchored at 1x1+0",
            "scene main presents a banner",
        ]
        for message in messages {
            let line = #"{"type":"STARTED","time":0,"contentTime":0,"break":0,"ad":0}"# + "\n"
                + #"{"type":"LOG","time":0,"contentTime":0,"message":"# + Self.json(message) + "}"
            #expect(throws: EventLogError.malformedLine(path: "bad.jsonl", line: 2, reason: "field \"message\": \""
                + message + "\" is not a screen event (\"scene S will transition to WxH\", \"scene S is STATE\", "
                + "\"tap at X,Y on nothing\", …)")) {
                try EventLogReader.decode(Data(line.utf8), path: "bad.jsonl")
            }
        }
    }

    static func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
