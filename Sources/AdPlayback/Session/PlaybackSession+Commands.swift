import MediaCore

/// Applying commands, from the script or typed live, at the frame being decided.
extension PlaybackSession {
    /// Applies the script commands due at this frame, then the submitted ones, each logged as `COMMAND` and
    /// recorded in `commandLog` at this frame's exact time.
    func applyDueCommands() {
        let rate = configuration.frameRate
        while let next = commands.script.first, rate.firstFrame(atOrAfter: next.time) <= position.frame, !position.hasEnded {
            commands.script.removeFirst()
            apply(next.command, scene: next.scene)
        }
        for command in inbox.takeAll() where !position.hasEnded {
            forwardsLiveCommand?(command)
            apply(command, scene: nil, live: true)
        }
    }

    /// Whether this session applies `command` (for `scene`'s player, or the default one) and logs it.
    ///
    /// With several players, a player command goes to the player of its scene, else of the `foregroundActive`
    /// scene, else to the first; screen commands and `quit` go to every player and are logged by the primary only.
    func route(_ command: SessionCommand, scene: SceneID?) -> (applies: Bool, logs: Bool, target: SceneID?) {
        guard command.isPlayerCommand else { return (true, configuration.device.logsScreen, nil) }
        let players = configuration.device.playerScenes
        guard let mine = recorder.scene, let first = players.first else { return (true, true, nil) }
        let active = device.screen.map(\.activeScene).flatMap { players.contains($0) ? $0 : nil }
        let target = scene ?? active ?? first
        return (target == mine, target == mine, target)
    }

    private func apply(_ command: SessionCommand, scene: SceneID?, live: Bool = false) {
        let (applies, logs, target) = route(command, scene: scene)
        let time = configuration.frameRate.time(ofFrame: position.frame)
        guard applies else {
            // Another player's command: the log names its player, so that it replays to the same frames.
            commandLog.append(TimedCommand(time: time, command: command, scene: target))
            return
        }
        if logs { recorder.emit(.command(command.description + (scene.map { " in \($0)" } ?? ""))) }
        commandLog.append(TimedCommand(time: time, command: command, scene: scene))
        switch command {
        case .togglePictureInPicture:
            if pictureInPicture.state == .inactive { startPictureInPicture(command) } else { stopPictureInPicture(command) }
        case .startPictureInPicture:
            startPictureInPicture(command)
        case .stopPictureInPicture:
            stopPictureInPicture(command)
        case .seek(let target):
            seek(to: target, command)
        case .pause:
            if position.isPaused { return refuse(command, "already paused") }
            guard position.lastDecision != nil else { return refuse(command, "nothing is playing yet") }
            position.isPaused = true
            // Under a full-screen ad the linear ad is already paused.
            if !device.isCovered { adsManager.playbackPaused(true) }
        case .resume:
            guard position.isPaused else { return refuse(command, "not paused") }
            position.isPaused = false
            if !device.isCovered { adsManager.playbackPaused(false) }
        case .skip:
            if let refusal = adsManager.skip() { refuse(command, refusal) }
        case .click:
            if let refusal = adsManager.click() { refuse(command, refusal) }
        case .quit:
            end(reason: .quit, contentEnded: false)
        case .native(let nativeCommand):
            // Without a native placement a native command would do nothing: say so rather than pretend.
            guard let screen = device.screen else { return refuse(command, ScreenRefusal.noNativePlacement.description) }
            guard logs else { return }
            do { try screen.applied(nativeCommand, at: time) } catch { refuse(command, error.description) }
        case .screen(let screenCommand):
            // Without a device there is no screen to change; say so rather than pretend.
            guard let screen = device.screen else { return refuse(command, "screen commands need --device") }
            // The screen is the device's, shared with the other players: the session that logs it changes it, and
            // the others, deciding the same frame after it, follow the change.
            guard logs else { return screenChanged() }
            do {
                for line in try screen.apply(screenCommand, at: time, live: live) { recorder.log(line) }
                screenChanged()
            } catch {
                refuse(command, error.description)
            }
        }
    }

    /// After a screen change the player's window follows its scene (a rotation, a fold, a resize), and the
    /// picture-in-picture window is laid out again inside it, as an app lays out after `viewWillTransition`.
    private func screenChanged() {
        let window = PlaybackSession.playerWindow(screen: device.screen, size: configuration.canvas, scene: configuration.device.playerScene)
        device.playerWindow = window
        // Laid out again even when the window stays: a rotation may move the safe area inside the same window.
        if window != nil {
            layout = PlaybackSession.pictureInPictureLayout(window: window, screen: device.screen, configuration: configuration)
        }
    }

    /// Asks the controller; it answers through the proxy (will-start, or failed-to-start with the reason).
    /// Refused while another scene's player holds the device's one picture-in-picture window.
    private func startPictureInPicture(_ command: SessionCommand) {
        if let owner = pictureInPictureSlot?.owner, owner != recorder.scene {
            return refuse(command, "the player of scene \"\(owner)\" is in picture-in-picture (one window at a time)")
        }
        if pictureInPicture.state == .inactive { transitionStart = position.frame }
        pictureInPicture.startPictureInPicture()
        finishTransitionIfDue()
        claimPictureInPictureSlot()
    }

    private func stopPictureInPicture(_ command: SessionCommand) {
        guard pictureInPicture.state == .active else {
            return refuse(command, "picture-in-picture is \(pictureInPicture.state.rawValue)")
        }
        transitionStart = position.frame
        pictureInPicture.stopPictureInPicture()
        finishTransitionIfDue()
    }

    private func seek(to target: MediaTime, _ command: SessionCommand) {
        if adsManager.isPlayingBreak { return refuse(command, "an ad break is playing") }
        if contentHasEnded { return refuse(command, "the content has ended") }
        let from = recorder.contentTick
        let to = min(configuration.frameRate.firstFrame(atOrAfter: target), configuration.content.frameCount)
        recorder.contentTick = to
        adsManager.jump(from: from, to: to, why: "by a seek")
    }

    private func refuse(_ command: SessionCommand, _ why: String) {
        recorder.log("\(command) ignored: \(why)", reason: .refused)
    }
}
