import AdPlayback
import AdScreen
import MediaCore

extension Stitcher {
    /// Before `decision`'s frame is drawn: the screen ads' events due by this frame (the script's, the live
    /// commands', the live requests' answers) are scheduled at their times; in `play`, the live banner requests that
    /// have arrived show from this frame on, their events logged at its time, and the live screen commands applied at
    /// this frame start theirs.
    ///
    /// Nothing here waits: a request still running leaves the ad as it was, and its answer is taken before a
    /// later frame.
    func updateLiveBanners(_ decision: FrameDecision) {
        let changes = director.screen?.takeLiveScreenChanges() ?? []
        let time = format.frameRate.time(ofFrame: decision.frame)
        if let playback = director.screenAds, let screenAdPictures = library.screenAds {
            for arrival in playback.takeArrivals() {
                playback.take(arrival, video: screenAdPictures.openLive(arrival), at: time)
            }
            playback.advance(through: time)
            director.schedule(playback.takeEvents())
        }
        guard let liveBanners = liveBanners, let screenAdPictures = library.screenAds else { return }
        var events: [ScreenAdEvent] = []
        for arrival in liveBanners.takeArrivals() {
            do throws(ScreenAdError) {
                try screenAdPictures.showLive(try? arrival.result.get(), in: arrival.scene, from: time)
                director.report(.bannerShown(try? arrival.result.get(), scene: arrival.scene))
                events += liveBanners.events(of: arrival, at: time)
            } catch {
                director.report(.bannerShown(nil, scene: arrival.scene))
                events.append(ScreenAdEvent(time: time, scene: arrival.scene, .bannerViewDidFailToReceiveAd,
                                            reason: error.reason, message: error.description, url: arrival.request?.url))
            }
        }
        for change in changes { liveBanners.screenChanged(change) }
        director.schedule(events)
    }
}
