import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import LiveWindow
import MediaCore
import Rendering
import VideoPipeline

/// `pipctl play --show`: the session's output frames in a window, with their sound, and the window's keys and mouse
/// turned into the same commands as typed ones (`PlayWindow.command(for:…)`), submitted to the session's inbox, so
/// that each is a `COMMAND` event and a line of the command log.
///
/// Real time: the play loop says before each frame whether it is on time (`presentsNextFrame`); a frame decided
/// more than a frame late is stepped and its sound queued but not drawn, and counted in `droppedFrames`.
final class PlayWindow {
    let window: LiveWindow
    private let stitcher: Stitcher
    private let rate: FrameRate
    /// Whether the next frame the stitcher writes is drawn (false when the loop is behind).
    var presentsNextFrame = true
    private(set) var droppedFrames: Int64 = 0
    private(set) var presentedFrames: Int64 = 0
    /// The title says where the session is (`i` toggles it off and on).
    private var detailedTitle = true
    /// The card the wheel last scrolled to.
    private var card = 0
    private var lastTitle = ""
    private var failure: LiveWindowError?
    /// The session's clock, and when the window opened on it, for the final line's time.
    private let clock: any WallClock
    private let opened: ContinuousClock.Instant

    /// Seeks by the arrow keys move this far.
    static let seekStep = MediaDuration(seconds: 10)
    /// A drag that moves at least this far across (output pixels), more across than down, is a swipe.
    static let swipeDistance = 24
    static let titlePrefix = "pipctl play"

    /// A window for `stitcher`'s frames, with their sound when `playsSound`.
    init(stitcher: Stitcher, playsSound: Bool, clock: any WallClock = SystemClock()) throws(LiveWindowError) {
        self.stitcher = stitcher
        self.clock = clock
        opened = clock.now
        rate = stitcher.format.frameRate
        window = try LiveWindow(title: Self.titlePrefix, size: stitcher.format.size,
                                sound: playsSound ? (stitcher.format.sampleRate, stitcher.format.channels) : nil)
        stitcher.observeFrames { [unowned self] frame in show(frame) }
    }

    /// Why the window plays without sound, if it does.
    var soundRefusal: String? { window.soundRefusal }

    /// At most this many frames in a row are dropped: a machine too slow for real time still shows a few frames a
    /// second (and catches up all the same, by dropping the rest).
    static let maxDropsInARow = 5
    private var dropsInARow = 0

    private func show(_ frame: OutputFrameView) {
        window.queueSound(frame.samples)
        guard failure == nil else { return }
        if !presentsNextFrame && dropsInARow < Self.maxDropsInARow {
            droppedFrames += 1
            dropsInARow += 1
            return
        }
        dropsInARow = 0
        guard let planes = frame.planes else { return }
        func plane(_ p: OutputFrameView.Plane) -> LiveWindow.Plane { LiveWindow.Plane(bytes: p.bytes.baseAddress!, stride: p.stride) }
        do {
            try window.present(y: plane(planes.y), u: plane(planes.u), v: plane(planes.v))
            presentedFrames += 1
        } catch {
            failure = error
        }
    }

    /// Throws the first SDL failure while drawing, if there was one.
    func checkFailure() throws(LiveWindowError) {
        if let failure { throw failure }
    }

    /// Submits the commands of what the person did since the last call; returns the notices for the user (a key
    /// that has nothing to do here).
    func takeInputs(into inbox: CommandInbox) -> [String] {
        var notices: [String] = []
        for input in window.takeInputs() {
            if input == .key(.i) {
                detailedTitle.toggle()
                continue
            }
            switch PlayWindow.command(for: input, status: stitcher.status, screen: screenContext, card: card) {
            case .command(let command):
                if case .native(.scroll(let index, _)) = command { card = index }
                inbox.submit(command)
            case .notice(let text): notices.append(text)
            case .none: break
            }
        }
        return notices
    }

    private var screenContext: ScreenContext? {
        guard let screen = stitcher.screenNow else { return nil }
        return ScreenContext(orientation: screen.state.orientation, layers: stitcher.shownLayers, origin: screen.origin,
                             pointScale: screen.state.pointScale)
    }

    /// Updates the title with where the session is.
    func updateTitle() {
        let title = detailedTitle ? Self.title(stitcher.status, plan: stitcher.adPlan, rate: rate,
                                               scene: stitcher.screenNow?.state.activeScene.description, dropped: droppedFrames)
            : Self.titlePrefix
        guard title != lastTitle else { return }
        lastTitle = title
        window.setTitle(title)
    }

    // MARK: - Inputs as commands (pure)

    /// What the mouse can reach on a device's screen: its orientation, the last frame's layers, and where the
    /// device's own canvas lies on the output's (`origin`, in output pixels) at how many pixels a point.
    struct ScreenContext {
        var orientation: Orientation
        var layers: [Timeline.Layer]
        var origin: (x: Int, y: Int) = (0, 0)
        var pointScale = PointScale(Rational(1))

        /// The device's point under output pixel `pixel`, as `tap X,Y` takes it.
        func point(_ pixel: PixelPoint) -> (x: Int, y: Int) {
            (pointScale.point(nearest: pixel.x - origin.x), pointScale.point(nearest: pixel.y - origin.y))
        }
    }

    enum Outcome: Equatable {
        case command(SessionCommand)
        case notice(String)
    }

    /// The command an input gives, typed as a person would type it: space `pause`/`resume`, `p` `pip`, ← and →
    /// `seek` ten seconds back or on (from 0), `s` `skip`, `c` `click`, `r` `rotate` to the other orientation,
    /// `q`, Esc and the close button `quit`; a click on a device's screen `tap X,Y` there (the device's points, as the
    /// script's), without a device `click` while an ad plays; a drag across (more across than down, at least
    /// `swipeDistance`) that starts on a slider `swipe left|right` of its placement; the wheel `scroll N` from the
    /// card last scrolled to, one card a step (down is on).
    static func command(for input: WindowInput, status: SessionStatus, screen: ScreenContext?, card: Int) -> Outcome? {
        switch input {
        case .close, .key(.q), .key(.escape): return .command(.quit)
        case .key(.space): return .command(status.isPaused ? .resume : .pause)
        case .key(.p): return .command(.togglePictureInPicture)
        case .key(.left):
            let back = status.contentPosition - seekStep
            return .command(.seek(back.seconds < .zero ? MediaTime(seconds: 0) : back))
        case .key(.right): return .command(.seek(status.contentPosition + seekStep))
        case .key(.s): return .command(.skip)
        case .key(.c): return .command(.click)
        case .key(.r):
            guard let screen else { return .notice("r rotates a device's screen: play with --device or --session") }
            return .command(.screen(.rotate(screen.orientation == .portrait ? .landscape : .portrait)))
        case .key(.i): return nil
        case .click(let point):
            guard let screen else {
                if case .ad = status.showing { return .command(.click) }
                return nil
            }
            let tap = screen.point(point)
            return .command(.screen(.tap(x: tap.x, y: tap.y)))
        case .drag(let from, let to):
            let across = to.x - from.x, down = to.y - from.y
            guard let screen, abs(across) >= swipeDistance, abs(across) > abs(down) else { return nil }
            let slider = screen.layers.lazy.compactMap { layer -> (Timeline.Rect, String?)? in
                if case .slider(let area, let slider) = layer { (area.rect, slider.placement) } else { nil }
            }.last { rect, _ in (rect.x..<rect.x + rect.width).contains(from.x) && (rect.y..<rect.y + rect.height).contains(from.y) }
            guard let slider else { return nil }
            // A finger moving left brings the next card in: `swipe left`.
            return .command(.native(.swipe(across < 0 ? .left : .right, placement: slider.1)))
        case .wheel(let steps):
            guard screen != nil else { return nil }
            return .command(.native(.scroll(to: max(0, card - steps), placement: nil)))
        }
    }

    /// `pipctl play - 0:00:12.400 content 0:00:10.000 | ad 2/3 of break 1, 0:04.5 left | PiP active | scene feed |
    /// dropped 3`
    static func title(_ status: SessionStatus, plan: AdPlan, rate: FrameRate, scene: String?, dropped: Int64) -> String {
        var parts = ["\(status.outputTime)"]
        switch status.showing {
        case .nothing: parts[0] += " starting"
        case .content: parts[0] += " content \(status.contentPosition)"
        case .ad(let b, let a, let tick, let count):
            let pod = plan.breaks.indices.contains(b) ? plan.breaks[b].ads.count : a + 1
            let left = rate.time(ofFrame: max(0, count - tick - 1)).seconds
            parts.append("ad \(a + 1)/\(pod) of break \(b), \(MediaTime(seconds: left)) left")
        case .ended: parts[0] += " ended"
        }
        if status.isPaused { parts.append("paused") }
        parts.append("PiP \(status.pictureInPicture.rawValue)")
        if let scene { parts.append("scene \(scene)") }
        parts.append("dropped \(dropped)")
        return "\(titlePrefix) - " + parts.joined(separator: " | ")
    }
}

// How `play`'s loop uses the window.
extension PlayWindow {
    /// Opens the window for `stitcher`'s frames; says so on standard error ("pipctl play: window shown"), with why
    /// there is no sound when there is none. The sound plays at `--speed 1` only: faster or slower it would not
    /// be the recording's; nor with `--step` (`stepped`), whose clock is not real time.
    static func open(stitcher: Stitcher, speed: Rational, stepped: Bool, clock: any WallClock, display: LiveDisplay,
                     command: String) throws -> PlayWindow {
        let window: PlayWindow
        let playsSound = speed == Rational(1) && !stepped
        do { window = try PlayWindow(stitcher: stitcher, playsSound: playsSound, clock: clock) } catch { throw CommandFailure("--show: \(error)") }
        display.printNotice("\(command): window shown \(stitcher.format.size)")
        if stepped {
            display.printNotice("\(command): --show plays no sound with --step")
        } else if speed != Rational(1) {
            display.printNotice("\(command): --show plays no sound at --speed \(speed)")
        }
        if let refusal = window.soundRefusal { display.printNotice("\(command): warning: --show plays no sound: \(refusal)") }
        return window
    }

    /// After each frame: the inputs become commands, the title follows the session.
    func afterFrame(inbox: CommandInbox, display: LiveDisplay, command: String) throws {
        do { try checkFailure() } catch { throw CommandFailure("--show: \(error)") }
        takeInputs(into: inbox).forEach { display.printNotice("\(command): \($0)") }
        updateTitle()
    }

    /// The final count of frames shown and dropped, and the time they took on the session's clock.
    func finish(display: LiveDisplay, command: String) {
        let elapsed = PlayCommand.seconds(clock.now - opened)
        display.printNotice("\(command): window: \(presentedFrames) frames shown, \(droppedFrames) dropped in "
            + String(format: "%.2f", elapsed) + " s of wall time")
    }
}
