import AdPlayback
import Foundation
import MediaCore

/// The banner requests that live screen commands cause (`pipctl play`), fetched in the background so that no frame
/// waits for an ad server, by the same rule and with the same loader as the requests made before the render.
///
/// `ScreenAdRun` knows only the script's commands; a `rotate` or `resize` typed while playing changes a banner's
/// width later. Each such change starts a request (`ScreenAdDriver.bannerRequest`: a new width, and only then);
/// a newer request for the same banner cancels one still running, as loading a new request on a banner view does.
/// The render takes what arrived before each frame and shows it from that frame on: never blocked, never earlier
/// than the answer.
public final class LiveBannerRequests: Sendable {
    /// A finished request: the banner's scene, the request (`nil` when it was refused before it was sent) and its
    /// outcome.
    public struct Arrival: Sendable {
        public let scene: SceneID
        public let request: ScreenAdRequest?
        public let result: Result<DisplayCreative, ScreenAdError>
    }

    private struct State {
        var nextIndex: Int
        var running: [SceneID: Task<Void, Never>] = [:]
        var arrived: [Arrival] = []
        var stamps: BeaconStamps
        var cancelled = false
    }

    public let driver: ScreenAdDriver
    public let loader: ScreenAdLoader
    private let state: LockedState<State>

    /// Live requests for `driver`'s banners, numbered after its own requests, fetched with `loader`.
    public init(driver: ScreenAdDriver, loader: ScreenAdLoader) {
        self.driver = driver
        self.loader = loader
        // Beacons of live loads carry fresh cache busters: the session is not reproducible anyway.
        state = LockedState(State(nextIndex: driver.requests.count,
                                  stamps: BeaconStamps(clockOrigin: driver.clockOrigin, seed: driver.seed,
                                                       cacheBusting: .random)))
    }

    /// Starts the request of each placed banner that `change` gives a new width (`bannerNeedsReload`).
    public func screenChanged(_ change: ScreenTimeline.Change) {
        for case .bannerNeedsReload(let scene, let size) in change.events {
            guard let banner = driver.banners.first(where: { $0.scene == scene }) else { continue }
            let index = state.withLock { state in
                defer { state.nextIndex += 1 }
                return state.nextIndex
            }
            switch driver.bannerRequest(banner, size: size, on: change.state, at: change.time, index: index) {
            case .failure(let refusal):
                state.withLock { state in
                    state.running.removeValue(forKey: scene)?.cancel()
                    state.arrived.append(Arrival(scene: scene, request: nil, result: .failure(refusal)))
                }
            case .success(let request):
                start(request, for: scene)
            }
        }
    }

    private func start(_ request: ScreenAdRequest, for scene: SceneID) {
        let loader = loader
        state.withLock { state in
            guard !state.cancelled else { return }
            state.running.removeValue(forKey: scene)?.cancel()
            state.running[scene] = Task { [self] in
                let result: Result<DisplayCreative, ScreenAdError>
                do throws(ScreenAdError) {
                    result = .success(try await loader.load(request.source, url: request.url))
                } catch {
                    result = .failure(error)
                }
                // A cancelled request was replaced by a newer one (or the session ended): its answer is dropped.
                // Checked under the lock, where a newer request cancels it and takes its place: checked before it, a
                // request replaced in between would add its stale answer and forget the newer request still running.
                self.state.withLock { state in
                    guard !Task.isCancelled else { return }
                    state.arrived.append(Arrival(scene: scene, request: request, result: result))
                    state.running.removeValue(forKey: scene)
                }
            }
        }
    }

    /// The requests that finished since the last call, in the order they finished.
    public func takeArrivals() -> [Arrival] {
        state.withLock { state in
            defer { state.arrived.removeAll() }
            return state.arrived
        }
    }

    /// Whether a request is still running.
    public var isLoading: Bool { state.withLock { !$0.running.isEmpty } }

    /// The events of `arrival` shown at output time `time`, as the batch run logs a banner's load.
    public func events(of arrival: Arrival, at time: MediaTime) -> [ScreenAdEvent] {
        state.withLock { state in
            ScreenAdDriver.bannerEvents(arrival.scene, at: time, request: arrival.request, result: arrival.result,
                                        stamps: &state.stamps)
        }
    }

    /// Cancels every running request; nothing arrives afterwards.
    public func cancel() {
        state.withLock { state in
            state.cancelled = true
            for task in state.running.values { task.cancel() }
            state.running.removeAll()
        }
    }
}
