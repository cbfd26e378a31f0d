import AdCore
import MediaCore

extension Stitcher {
    /// Before `decision`'s frame is drawn (`play`): the live banner requests that have arrived show from this frame
    /// on, their events logged at its time; then the live screen commands applied at this frame start theirs.
    ///
    /// Nothing here waits: a request still running leaves the banner as it was, and its answer is taken before a
    /// later frame.
    func updateLiveBanners(_ decision: FrameDecision) {
        let changes = session.takeLiveScreenChanges()
        guard let liveBanners, let screenAds else { return }
        let time = format.frameRate.time(ofFrame: decision.frame)
        var events: [ScreenAdEvent] = []
        for arrival in liveBanners.takeArrivals() {
            do throws(RenderError) {
                try screenAds.showLive(try? arrival.result.get(), in: arrival.scene, from: time)
                events += liveBanners.events(of: arrival, at: time)
            } catch {
                events.append(ScreenAdEvent(time: time, scene: arrival.scene, type: .bannerViewDidFailToReceiveAd,
                                            message: error.description, url: arrival.request?.url))
            }
        }
        for change in changes { liveBanners.screenChanged(change) }
        // Logged with this frame's other events, after the run's events already due by now.
        let at = pendingScreenEvents.firstIndex { $0.time > time } ?? pendingScreenEvents.endIndex
        pendingScreenEvents.insert(contentsOf: events, at: at)
    }
}
