import AdPlayback
import AdScreen
import Foundation
import FuzzSupport
import MediaCore
import Rendering

/// The load path of a device session after its file is read, shared by the `session` and `nativeload` fuzz
/// targets: the script parsed and checked against the scenes, the canvas sized, the screen timeline built, and the
/// native placements run over a short render at a low rate with the real text measurer (FreeType), each
/// `load slider` answered by `block` (no network), their layers drawn at every frame.
public enum NativeLoadPath {
    /// Ten frames a second for two seconds: enough frames for loads, swipes and taps to apply, few enough that one
    /// input costs well under a millisecond when nothing is slow.
    public static let frameRate = FrameRate(10)
    public static let end = MediaTime(seconds: 2)

    /// Runs `session` (with its own script) to its layers; every native load gets `block`. A session the tool
    /// refuses (a bad script, an unknown scene or placement, a font FreeType cannot open) ends the run early.
    public static func run(_ session: ScreenSession, block: NativeBlock) {
        guard let script = try? SessionScript(parsing: session.script ?? "") else { return }
        guard (try? script.checkScenes(players: session.players.map(\.scene), scenes: session.screen.scenes.map(\.id))) != nil else { return }
        let canvas = ScreenCanvas(initial: session.screen, script: script, live: false).size
        precondition(SessionFileLimits.canvasSides.contains(canvas.width) && SessionFileLimits.canvasSides.contains(canvas.height),
                     "a session file was accepted with a canvas of \(canvas)")
        let timeline = ScreenTimeline(initial: session.screen, script: script)
        for frame in 0..<frameRate.firstFrame(atOrAfter: end) { _ = timeline.layers(at: frameRate.time(ofFrame: frame)) }
        guard !session.nativePlacements.isEmpty, let measurer = try? FreeTypeTextMeasurer(font: nil, scale: session.screen.pointScale),
              let run = try? NativeScreenRun(screen: timeline, placements: session.nativePlacements, script: script,
                                             frameRate: frameRate, end: end, measurer: measurer) else { return }
        let outcome = FuzzInput.wait { await run.run { _ in block } }
        for frame in 0..<frameRate.firstFrame(atOrAfter: end) {
            for layer in outcome.layers(at: frameRate.time(ofFrame: frame)) { _ = layer }
        }
    }
}
