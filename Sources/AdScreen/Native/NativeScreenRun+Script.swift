import AdPlayback
import MediaCore

/// The native placements as a script drives them: the run takes native commands and taps, the script knows which
/// of its commands those are.
extension NativeScreenRun {
    /// - Parameter canvas: the render's canvas; `nil` for a render's own (`ScreenCanvas(initial:script:live:)` of
    ///   the screen's initial state and `script`, not live).
    /// - Throws: `NativeError.unknownPlacement` naming a command whose placement is unknown, or that names none
    ///   on a screen with several placements.
    public init(screen: ScreenTimeline, placements: [NativePlacement], script: SessionScript, frameRate: FrameRate,
                end: MediaTime, measurer: any TextMeasurer, canvas: ScreenCanvas? = nil) throws(NativeError) {
        try self.init(screen: screen, placements: placements,
                      inputs: script.commands.compactMap { timed in timed.command.nativeInput(written: timed.description).map { (timed.time, $0) } },
                      frameRate: frameRate, end: end, measurer: measurer,
                      canvas: canvas ?? ScreenCanvas(initial: screen.initial, script: script, live: false))
    }
}

extension NativeScreenRun.Evaluation {
    /// Queues `command` when it is a native command or a tap (anything else is ignored), applied at output time
    /// `time` by the next `begin(frame:)`. A command naming no placement is refused at once with the reason.
    public mutating func add(_ command: SessionCommand, at time: MediaTime) {
        guard let input = command.nativeInput(written: command.description) else { return }
        add(input, at: time)
    }
}

extension SessionCommand {
    /// What a native run takes of this command: a native command or a tap; `nil` for any other.
    func nativeInput(written: String) -> NativeScreenRun.Input? {
        switch self {
        case .native(let native): .native(native, written: written)
        case .screen(.tap(let x, let y)): .tap(x: x, y: y)
        default: nil
        }
    }
}
