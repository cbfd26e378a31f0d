import AdDecisioning
import AdPlayback
import MediaCore
import Testing
@testable import LiveWindow
@testable import pipctl

/// `play --show`'s inputs as the commands a person would type, its title, and the window's size and pointer rules.
@Suite struct PlayWindowTests {
    static func status(at seconds: Int64 = 42, paused: Bool = false, showing: SessionStatus.Showing? = nil) -> SessionStatus {
        SessionStatus(frame: seconds * 30, outputTime: MediaTime(seconds: seconds), contentPosition: MediaTime(seconds: seconds),
                      showing: showing ?? .content(tick: seconds * 30), isPaused: paused, pictureInPicture: .inactive,
                      nextBreak: nil, heldBreaks: [])
    }

    static let slider = Timeline.Layer.slider(.init(scene: SceneID("feed"), rect: PixelRect(x: 344, y: 200, width: 590, height: 300)),
                                              .init(placement: "s", placeholder: false))
    /// An iPhone 15 in `play`'s 1278x1278 canvas: its own 590x1278 canvas at x = 344, 3/2 pixels a point.
    static let device = PlayWindow.ScreenContext(orientation: .portrait, layers: [slider], origin: (344, 0),
                                                 pointScale: PointScale(Rational(3, 2)))

    func command(_ input: WindowInput, _ status: SessionStatus = status(), screen: PlayWindow.ScreenContext? = device,
                 card: Int = 0) -> PlayWindow.Outcome? {
        PlayWindow.command(for: input, status: status, screen: screen, card: card)
    }

    @Test func keysGiveTheTypedCommands() {
        #expect(command(.key(.space)) == .command(.pause))
        #expect(command(.key(.space), Self.status(paused: true)) == .command(.resume))
        #expect(command(.key(.p)) == .command(.togglePictureInPicture))
        #expect(command(.key(.right)) == .command(.seek(MediaTime(seconds: 52))))
        #expect(command(.key(.left)) == .command(.seek(MediaTime(seconds: 32))))
        #expect(command(.key(.left), Self.status(at: 4)) == .command(.seek(MediaTime(seconds: 0))))
        #expect(command(.key(.s)) == .command(.skip))
        #expect(command(.key(.c)) == .command(.click))
        #expect(command(.key(.r)) == .command(.screen(.rotate(.landscape))))
        #expect(command(.key(.r), screen: .init(orientation: .landscape, layers: [])) == .command(.screen(.rotate(.portrait))))
        #expect(command(.key(.q)) == .command(.quit))
        #expect(command(.key(.escape)) == .command(.quit))
        #expect(command(.close) == .command(.quit))
        #expect(command(.key(.i)) == nil)
        // Without a device there is nothing to rotate: a notice, no command.
        guard case .notice(let text) = command(.key(.r), screen: nil) else { Issue.record("r without a device"); return }
        #expect(text.contains("--device"))
    }

    @Test func theMouseTapsSwipesTheSliderAndScrolls() {
        // A click is a tap in the device's points: output pixel 644,300 is its pixel 300,300, its point 200,200.
        #expect(command(.click(PixelPoint(x: 644, y: 300))) == .command(.screen(.tap(x: 200, y: 200))))
        #expect(command(.click(PixelPoint(x: 800, y: 400))) == .command(.screen(.tap(x: 304, y: 267))))
        // Leftwards across the slider: the next card comes in.
        #expect(command(.drag(from: PixelPoint(x: 744, y: 300), to: PixelPoint(x: 544, y: 310)))
                == .command(.native(.swipe(.left, placement: "s"))))
        #expect(command(.drag(from: PixelPoint(x: 544, y: 300), to: PixelPoint(x: 744, y: 300)))
                == .command(.native(.swipe(.right, placement: "s"))))
        // Not on the slider, too short, or more down than across: nothing.
        #expect(command(.drag(from: PixelPoint(x: 744, y: 100), to: PixelPoint(x: 544, y: 100))) == nil)
        #expect(command(.drag(from: PixelPoint(x: 744, y: 300), to: PixelPoint(x: 734, y: 300))) == nil)
        #expect(command(.drag(from: PixelPoint(x: 744, y: 210), to: PixelPoint(x: 704, y: 480))) == nil)
        // The wheel: down is on to the next card, from the one last scrolled to; never before card 0.
        #expect(command(.wheel(-1), card: 2) == .command(.native(.scroll(to: 3, placement: nil))))
        #expect(command(.wheel(3), card: 2) == .command(.native(.scroll(to: 0, placement: nil))))
        // Without a device a click clicks the ad on screen, and nothing else.
        #expect(command(.click(PixelPoint(x: 5, y: 5)), screen: nil) == nil)
        let ad = Self.status(showing: .ad(breakIndex: 1, adIndex: 0, tick: 10, frameCount: 300))
        #expect(command(.click(PixelPoint(x: 5, y: 5)), ad, screen: nil) == .command(.click))
    }

    /// Each command an input gives is one a person could type: it reads back the same.
    @Test func everyCommandReadsBackAsTyped() throws {
        let inputs: [WindowInput] = [.key(.space), .key(.p), .key(.left), .key(.right), .key(.s), .key(.c), .key(.r), .key(.q),
                                     .click(PixelPoint(x: 644, y: 300)),
                                     .drag(from: PixelPoint(x: 744, y: 300), to: PixelPoint(x: 544, y: 300)), .wheel(-2)]
        for input in inputs {
            guard case .command(let command) = command(input) else { Issue.record("\(input)"); continue }
            #expect(try SessionCommand(parsing: command.description) == command, "\(command)")
        }
    }

    @Test func theTitleSaysWhereTheSessionIs() {
        let plan = AdPlan(breaks: [])
        let rate = FrameRate(30)
        #expect(PlayWindow.title(Self.status(at: 12), plan: plan, rate: rate, scene: "feed", dropped: 3)
                == "pipctl play - 0:00:12.000 content 0:00:12.000 | PiP inactive | scene feed | dropped 3")
        let ad = Self.status(paused: true, showing: .ad(breakIndex: 1, adIndex: 0, tick: 14, frameCount: 300))
        #expect(PlayWindow.title(ad, plan: plan, rate: rate, scene: nil, dropped: 0)
                == "pipctl play - 0:00:42.000 | ad 1/1 of break 1, 0:00:09.500 left | paused | PiP inactive | dropped 0")
    }

    @Test func theWindowFitsTheDisplayAndTellsClicksFromDrags() {
        let canvas = PixelSize(width: 1278, height: 1278)
        #expect(LiveWindow.fitted(canvas, in: PixelSize(width: 2000, height: 2000)) == canvas)
        #expect(LiveWindow.fitted(canvas, in: PixelSize(width: 1920, height: 1080)) == PixelSize(width: 972, height: 972))
        #expect(LiveWindow.fitted(PixelSize(width: 1920, height: 1080), in: PixelSize(width: 1280, height: 1024))
                == PixelSize(width: 1152, height: 648))
        #expect(LiveWindow.fitted(canvas, in: nil) == canvas)
        let size = PixelSize(width: 640, height: 360)
        #expect(WindowInput.pointer(from: PixelPoint(x: 10, y: 10), to: PixelPoint(x: 14, y: 6), in: size) == .click(PixelPoint(x: 10, y: 10)))
        #expect(WindowInput.pointer(from: PixelPoint(x: 10, y: 10), to: PixelPoint(x: 900, y: 10), in: size)
                == .drag(from: PixelPoint(x: 10, y: 10), to: PixelPoint(x: 639, y: 10)))
        // Pressed on a letterbox bar (outside the frame): nothing.
        #expect(WindowInput.pointer(from: PixelPoint(x: -3, y: 10), to: PixelPoint(x: -3, y: 10), in: size) == nil)
    }
}
