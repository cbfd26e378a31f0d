import AdPlayback
import Foundation
import MediaCore

/// The banners' and full-screen ads' events and presentations of a render as it plays, frame by frame: the
/// script's screen changes and, in `pipctl play`, the ones typed live, walked by `ScreenAdDriver`'s rules.
///
/// The requests the script causes were fetched before the render (`ScreenAdRun`); a live command walks the same
/// rules (`ScreenAdWalk`), so a typed `present`, `dismiss` or `tap` gives the events and the cover the same command
/// gives in a script at that time. A request no script change made (a full-screen ad that no longer fits after a
/// live resize) is fetched in the background; its answer is taken before a later frame and logged then, never
/// blocking one. Events are placed at the frame a command applied at (a script's time snapped to the frame, as
/// the session's `COMMAND`), so a live session and its command log replayed by `render` log the same times. A
/// presented video that fails part-way is dismissed here (`videoFailed`), and the covered content
/// resumes. The `Director` alone drives it (advancing it frame by frame, taking what arrived); asking it what covers a
/// scene changes nothing.
public final class ScreenAdPlayback: Sendable {
    /// A finished background request and its outcome.
    public struct Arrival: Sendable {
        public let request: ScreenAdRequest
        public let result: Result<DisplayCreative, ScreenAdError>
    }

    private struct State {
        var walk: ScreenAdWalk
        /// The script's commands not walked yet, in the order they apply.
        var script: ArraySlice<(time: MediaTime, command: ScreenCommand)>
        /// The screen as the script's commands walked so far left it, each present settled by the walk (a present
        /// that failed, or a video that failed part-way, leaves its scene uncovered): what the next command
        /// applies to, as in `ScreenAdWalk.run()`.
        var screen: ScreenTimeline
        /// How many of the walk's events were taken, and of its requests looked at for fetching.
        var takenEvents = 0
        var seenRequests = 0
        var running: [ScreenAdRequest.Placement: Task<Void, Never>] = [:]
        var arrived: [Arrival] = []
        var cancelled = false
    }

    private let loader: ScreenAdLoader?
    private let state: LockedState<State>

    /// The playback of `run`: its driver's timeline with its fetched outcomes and opened videos.
    public init(run: ScreenAdRun) {
        loader = run.loader
        var walk = ScreenAdWalk(driver: run.driver, outcomes: run.outcomes, videos: run.videos, missingIsFailure: false)
        walk.numbering.known = run.requests
        walk.numbering.nextIndex = run.requests.count
        walk.begin()
        let timeline = run.driver.timeline
        state = LockedState(State(walk: walk, script: timeline.orderedCommands[...],
                                  screen: ScreenTimeline(settling: timeline.initial, canvas: timeline.canvas),
                                  seenRequests: walk.requests.count))
    }

    /// Walks the script's changes and the presented videos' events due by output time `time`.
    func advance(through time: MediaTime) {
        state.withLock { state in
            advance(&state, through: time)
            fetchNew(&state)
        }
    }

    /// Walks a screen change typed live (its banners' reloads are `LiveBannerRequests`'), after the script's
    /// changes due by then; a full-screen ad it makes too large is requested again in the background.
    func screenChanged(_ change: ScreenTimeline.Change) {
        state.withLock { state in
            advance(&state, through: change.time)
            state.walk.requestsBanners = false
            state.walk.apply(change)
            state.walk.requestsBanners = true
            fetchNew(&state)
        }
    }

    /// The presentation covering `scene` at output time `time`, if any, as walked so far: a pure query. The
    /// `Director` advances the walk through a frame's time (`advance(through:)`) before that frame is decided.
    public func presentation(of scene: SceneID, at time: MediaTime) -> FullScreenPresentation? {
        state.withLock { state in state.walk.presentations.last { $0.covers(scene, at: time) } }
    }

    /// Dismisses `scene`'s presented video at output time `time` because its media failed part-way (`error`): the
    /// dismiss events carry the error's reason and message, and the content it covered resumes. Nothing covers the
    /// scene any more, so the script's next `present` there is heard and a `dismiss` refused, as the session's
    /// screen has it (`DeviceScreen.videoFailed(in:)`).
    func videoFailed(in scene: SceneID, at time: MediaTime, error: ScreenAdError) {
        state.withLock { state in
            state.walk.dismiss(scene, at: time, error: error)
            state.screen.presentFailed(in: scene)
        }
    }

    /// Records a banner creative loaded live by `LiveBannerRequests`, so that a tap on it is a click.
    func bannerShown(_ creative: DisplayCreative?, in scene: SceneID) {
        state.withLock { $0.walk.bannerShown(creative, in: scene) }
    }

    /// The background requests that finished since the last call, in the order they finished.
    func takeArrivals() -> [Arrival] {
        state.withLock { state in
            defer { state.arrived.removeAll() }
            return state.arrived
        }
    }

    /// Shows `arrival` from output time `time`: a full-screen ad is loaded (or failed to load) then, if it is still
    /// its scene's latest request; `video` is what the render found when it opened a video creative.
    func take(_ arrival: Arrival, video: FullScreenVideoOutcome?, at time: MediaTime) {
        state.withLock { state in
            let index = arrival.request.index
            state.walk.answers.outcomes[index] = arrival.result
            if let video { state.walk.answers.videos[index] = video }
            guard case .fullScreen(let scene) = arrival.request.placement,
                  state.walk.fullScreen.loaded[scene]?.request == index,
                  let ad = state.walk.driver.fullScreenAds.first(where: { $0.scene == scene }) else { return }
            state.walk.fullScreenLoaded(ad, request: arrival.request, result: arrival.result, at: time)
        }
    }

    /// The events walked since the last call, in the order they happened.
    func takeEvents() -> [ScreenAdEvent] {
        state.withLock { state in
            defer { state.takenEvents = state.walk.events.count }
            return Array(state.walk.events[state.takenEvents...])
        }
    }

    /// Whether a background request is still running.
    public var isLoading: Bool { state.withLock { !$0.running.isEmpty } }

    /// Cancels every running request; nothing arrives afterwards.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            for task in state.running.values { task.cancel() }
            state.running.removeAll()
        }
    }

    private func advance(_ state: inout State, through time: MediaTime) {
        while let next = state.script.first, next.time <= time {
            state.script.removeFirst()
            // A script command applies at the first frame at or after its time (`time`, as this is called at every
            // frame): what it causes happens at that frame, as the same command typed live at that frame.
            guard let change = state.screen.apply(next.command, at: time) else { continue }
            state.walk.apply(change)
            if case .presentInterstitial(let scene) = next.command, state.walk.fullScreen.presented[scene] == nil {
                state.screen.presentFailed(in: scene)
            }
        }
        state.walk.flushPending(through: time)
    }

    /// Starts the full-screen requests the walk made whose outcome is not known; a newer one for the same
    /// placement cancels one still running, as loading an ad again does.
    private func fetchNew(_ state: inout State) {
        let made = state.walk.requests[state.seenRequests...]
        state.seenRequests = state.walk.requests.count
        guard let loader, !state.cancelled else { return }
        for request in made where state.walk.answers.outcomes[request.index] == nil {
            guard case .fullScreen = request.placement else { continue }
            state.running.removeValue(forKey: request.placement)?.cancel()
            state.running[request.placement] = Task { [self] in
                let result: Result<DisplayCreative, ScreenAdError>
                do throws(ScreenAdError) {
                    result = .success(try await loader.load(request.source, url: request.url, wantsVideo: true))
                } catch {
                    result = .failure(error)
                }
                guard !Task.isCancelled else { return }
                self.state.withLock { state in
                    state.arrived.append(Arrival(request: request, result: result))
                    state.running.removeValue(forKey: request.placement)
                }
            }
        }
    }
}
