import AdPlayback
import Foundation
import MediaCore

/// `play`'s native placements: the render's rules (`NativeScreenRun.Evaluation`) evaluated frame by frame with the
/// commands the session applies (the script's and the typed ones), each load and then its block's images fetched
/// in the background so that no frame waits for an ad server.
///
/// A load lands at the first frame, at or after its `load slider` plus the placement's `latency`, that begins
/// after its answer arrived; a render of the session's command log lands it at that time exactly, so the two
/// agree whenever the fetch is quicker than the latency. Images show their placeholders until they arrive. With
/// `waitsForFetches` (`play --step`) each frame first waits for the fetches begun before it, so the two always agree.
///
/// Media-free: the `Director` steps it at every frame and hands the images that arrived to the renderer's catalog.
final class LiveNativeRun {
    private var evaluation: NativeScreenRun.Evaluation
    private let loader: NativeAdLoader
    /// What the background fetches delivered, taken by the render's thread at the next frame.
    private let arrivals = LockedState(Arrivals())
    /// The image URLs already asked for.
    private var imagesAsked: Set<String> = []
    /// The last output frame evaluated: a frame decided again (after an ad's media failed) is not evaluated twice.
    private var lastFrame: Int64 = -1
    private let waitsForFetches: Bool
    /// Signalled each time a background fetch ends.
    private let fetchEnded = DispatchSemaphore(value: 0)

    private struct Arrivals {
        var loads: [(request: NativeLoadRequest, result: Result<NativeBlock, NativeError>)] = []
        var images: [String: Data] = [:]
        /// What the origin policy dropped and the images that could not be fetched, one line each.
        var warnings: [String] = []
        var running: [Int: Task<Void, Never>] = [:]
        var nextTask = 0
        var cancelled = false
    }

    /// The placements of `native` on `screen` (its state at frame 0), measured with `measurer`.
    init(_ native: LiveNativePlacements, screen: ScreenState, frameRate: FrameRate, measurer: any TextMeasurer) throws(NativeError) {
        let run = try NativeScreenRun(screen: ScreenTimeline(initial: screen, commands: []), placements: native.placements,
                                      script: SessionScript(), frameRate: frameRate, end: .zero, measurer: measurer,
                                      canvas: ScreenCanvas(initial: screen, script: SessionScript(), live: true))
        evaluation = NativeScreenRun.Evaluation(run: run, keepsHistory: false)
        loader = native.loader
        waitsForFetches = native.waitsForFetches
    }

    deinit { cancel() }

    /// The layers and blocks of the last frame evaluated.
    var outcome: NativeScreenRun.Outcome { evaluation.outcome }

    /// Where the image at `url` was read from, as a render's timeline names it.
    func origin(of url: String) -> String? { loader.origin(of: url) }

    /// Evaluates output frame `frame`: `applied` (the commands the session applied at this frame, with their screen
    /// changes) and the answers that arrived; starts the loads they begin and the image fetches of the blocks that
    /// landed. A frame evaluated already only queues `applied` for the next one.
    ///
    /// - Returns: the frame's events.
    func step(frame: Int64, applied: [DeviceScreen.AppliedCommand]) -> [NativeAdEvent] {
        for command in applied {
            if let change = command.change { evaluation.screenChanged(change) }
            evaluation.add(command.command, at: command.time)
        }
        guard frame > lastFrame else { return [] }
        lastFrame = frame
        if waitsForFetches {
            while arrivals.withLock({ !$0.running.isEmpty }) { fetchEnded.wait() }
        }
        let answers = arrivals.withLock { arrivals in
            defer { arrivals.loads.removeAll() }
            return arrivals.loads
        }
        for answer in answers { evaluation.answer(answer.request, answer.result) }
        for request in evaluation.begin(frame: frame) { fetch(request) }
        evaluation.finish(frame: frame)
        let events = evaluation.takeEvents()
        let outcome = evaluation.outcome
        for event in events where event.kind == .moment(.loaded) {
            guard let p = outcome.placements.firstIndex(where: { $0.id == event.placement }),
                  let block = outcome.block(ofPlacement: p, at: event.time) else { continue }
            fetchImages(of: block)
        }
        return events
    }

    /// The images that arrived since the last call, by URL.
    func takeImages() -> [String: Data] {
        arrivals.withLock { arrivals in
            defer { arrivals.images.removeAll() }
            return arrivals.images
        }
    }

    /// The warnings of the fetches finished since the last call.
    func takeWarnings() -> [String] {
        arrivals.withLock { arrivals in
            defer { arrivals.warnings.removeAll() }
            return arrivals.warnings
        }
    }

    /// Cancels every fetch still running; nothing arrives afterwards.
    func cancel() {
        arrivals.withLock { arrivals in
            arrivals.cancelled = true
            for task in arrivals.running.values { task.cancel() }
            arrivals.running.removeAll()
        }
    }

    private func fetch(_ request: NativeLoadRequest) {
        let loader = loader
        background { arrivals in
            do throws(NativeError) {
                let loaded = try await loader.load(request.placement.source)
                arrivals.withLock {
                    $0.loads.append((request, .success(loaded.block)))
                    $0.warnings += loaded.warnings
                }
            } catch {
                arrivals.withLock { $0.loads.append((request, .failure(error))) }
            }
        }
    }

    /// Fetches the images of `block` not asked for before.
    private func fetchImages(of block: NativeBlock) {
        let urls = Set(([block.assets] + block.ads.map(\.assets)).flatMap { $0 }.compactMap { asset -> String? in
            guard asset.refusal == nil, case .image(_, let url, _) = asset.content else { return nil }
            return url
        }).subtracting(imagesAsked)
        guard !urls.isEmpty else { return }
        imagesAsked.formUnion(urls)
        let loader = loader
        background { arrivals in
            let (images, failures) = await loader.images(of: [block])
            arrivals.withLock {
                $0.images.merge(images.filter { urls.contains($0.key) }) { new, _ in new }
                $0.warnings += failures
            }
        }
    }

    /// Runs `work` in a task of its own, cancelled with the others by `cancel()`.
    private func background(_ work: @escaping @Sendable (LockedState<Arrivals>) async -> Void) {
        let arrivals = arrivals, fetchEnded = fetchEnded
        arrivals.withLock { state in
            guard !state.cancelled else { return }
            let id = state.nextTask
            state.nextTask += 1
            state.running[id] = Task {
                await work(arrivals)
                arrivals.withLock { _ = $0.running.removeValue(forKey: id) }
                fetchEnded.signal()
            }
        }
    }
}
