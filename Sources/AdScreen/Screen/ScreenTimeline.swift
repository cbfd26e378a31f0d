import AdPlayback
import MediaCore

/// The screen over time: an initial state and the screen commands of a script, giving the state, the layers
/// and the events at any output time as a pure function.
///
/// A command at `T` holds from `T` on (the session applies it at the first frame that starts at or after `T`);
/// commands at the same time apply in the order written. A command the state refuses changes nothing and is
/// reported in `refusals`, as the session logs a refused command.
public struct ScreenTimeline: Sendable {
    /// One applied command and what it changed.
    public struct Change: Sendable {
        public let time: MediaTime
        public let command: ScreenCommand
        public let events: [ScreenEvent]
        /// The state from `time` on.
        public let state: ScreenState
    }

    public let initial: ScreenState
    /// The output canvas the states are drawn on, where taps land (`ScreenState.apply(_:canvas:)`).
    public let canvas: ScreenCanvas
    public private(set) var changes: [Change] = []
    public private(set) var refusals: [(time: MediaTime, error: ScreenError)] = []
    /// The commands given, in the order they apply (by time, ties as written): what a timeline settled by the
    /// screen ads' outcomes applies again (`ScreenAdWalk.run()`).
    let orderedCommands: [(time: MediaTime, command: ScreenCommand)]

    /// Applies `commands` (sorted by time, ties kept in order) to `initial`, whose banners are loaded first.
    /// - Parameter canvas: the render's canvas; `nil` for the one a render of these commands has
    ///   (`ScreenCanvas(initial:rotates:)`, rotating when a command rotates).
    public init(initial: ScreenState, commands: [(time: MediaTime, command: ScreenCommand)], canvas: ScreenCanvas? = nil) {
        var state = initial
        _ = state.loadBanners()
        self.initial = state
        self.canvas = canvas ?? ScreenCanvas(initial: initial, rotates: commands.contains { timed in
            if case .rotate = timed.command { return true }
            return false
        })
        orderedCommands = commands.enumerated()
            .sorted { $0.element.time == $1.element.time ? $0.offset < $1.offset : $0.element.time < $1.element.time }
            .map { ($0.element.time, $0.element.command) }
        for (time, command) in orderedCommands { _ = apply(command, at: time) }
    }

    /// A timeline from `initial` (its banners already loaded) on `canvas` with no change yet, built command by
    /// command (`apply(_:at:)`), each present settled as the screen ads decide it (`presentFailed(in:)`).
    init(settling initial: ScreenState, canvas: ScreenCanvas) {
        self.initial = initial
        self.canvas = canvas
        orderedCommands = []
    }

    /// Applies `command` at `time` to the state after the last change: the change it made, or `nil` when the state
    /// refused it (then in `refusals`).
    mutating func apply(_ command: ScreenCommand, at time: MediaTime) -> Change? {
        var state = changes.last?.state ?? initial
        do {
            let events = try state.apply(command, canvas: canvas)
            let change = Change(time: time, command: command, events: events, state: state)
            changes.append(change)
            return change
        } catch {
            refusals.append((time, error))
            return nil
        }
    }

    /// The last change presented an interstitial in `scene` whose ad failed to present, or the video it presented
    /// has since failed part-way: nothing covers the scene from then on, so the next `present` is accepted and a
    /// `dismiss` refused, as in an app whose present failed.
    mutating func presentFailed(in scene: SceneID) {
        guard let last = changes.popLast() else { return }
        var state = last.state
        state.presentFailed(in: scene)
        changes.append(Change(time: last.time, command: last.command, events: last.events, state: state))
    }

    /// Records a change applied as the render plays (`play`), after every change recorded so far: its state holds
    /// from its time on.
    public mutating func append(_ change: Change) {
        changes.append(change)
    }

    /// The state at output time `time`.
    public func state(at time: MediaTime) -> ScreenState {
        changes.last { $0.time <= time }?.state ?? initial
    }

    /// The layers drawn at output time `time`, bottom first.
    public func layers(at time: MediaTime) -> [ScreenLayer] { state(at: time).layers() }
}
