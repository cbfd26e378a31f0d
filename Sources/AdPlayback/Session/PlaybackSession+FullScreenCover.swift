extension PlaybackSession {
    /// Notes whether a full-screen ad covers the player at the frame being decided: a linear ad playing under it
    /// pauses when the cover comes and resumes when it goes (`PAUSE`, `RESUME` and their beacons), as `pause` and
    /// `resume` pause it.
    ///
    /// An app pauses its player when a full-screen ad presents over it; the IMA SDK reports that pause on the
    /// linear ad, so the ad's pause and resume trackers fire. A player already paused by the user is not paused
    /// again, and the user's `resume` resumes it only once the cover has gone.
    func coverChanged(_ covered: Bool) {
        guard covered != device.isCovered else { return }
        device.isCovered = covered
        if !position.isPaused { adsManager.playbackPaused(covered) }
    }
}
