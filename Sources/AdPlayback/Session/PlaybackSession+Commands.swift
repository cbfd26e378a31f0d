import MediaCore

/// Applying commands, from the script or typed live, at the frame being decided.
extension PlaybackSession {
    /// Applies the script commands due at this frame, then the submitted ones, each logged as `COMMAND` and
    /// recorded in `commandLog` at this frame's exact time.
    func applyDueCommands() {
        let rate = configuration.frameRate
        while let next = commands.script.first, rate.firstFrame(atOrAfter: next.time) <= position.frame, !position.hasEnded {
            commands.script.removeFirst()
            if commands.countsBytes { commands.scriptBytes -= Commands.bytes(of: next, rate: rate) }
            apply(next.command, scene: next.scene)
        }
        for command in inbox.takeAll() where !position.hasEnded {
            // The log must replay through `render --script`: a live command it has no room for is left out, counted
            // (`ignoredLiveCommands`), and neither applied nor logged, so that the replay sees the same events.
            guard logHasRoom(for: loggedEntry(command, scene: nil)) else {
                commands.ignoredLive += 1
                continue
            }
            forwardsLiveCommand?(command)
            apply(command, scene: nil, live: true)
        }
    }

    /// Whether the command log can take `entry` and still hold the script commands still to come within the
    /// script's limits (`SessionScript.maximumCommands`, and `maximumBytes` of formatted text with its newline).
    func logHasRoom(for entry: TimedCommand) -> Bool {
        guard commands.log.commands.count + commands.script.count + 1 <= SessionScript.maximumCommands else { return false }
        let bytes = commands.logBytes + commands.scriptBytes + Commands.bytes(of: entry, rate: configuration.frameRate) + 1
        return bytes <= SessionScript.maximumBytes
    }

    /// The entry the log takes for `command` applied now (for `scene`'s player, or the default one).
    private func loggedEntry(_ command: SessionCommand, scene: SceneID?) -> TimedCommand {
        let (applies, _, target) = route(command, scene: scene)
        return TimedCommand(time: configuration.frameRate.time(ofFrame: position.frame), command: command, scene: applies ? scene : target)
    }

    /// Appends to the command log in place (through `commandLog`, a computed property, each append would copy the
    /// whole log: the work of a long live session was quadratic), keeping its formatted size.
    private func log(_ entry: TimedCommand) {
        if commands.countsBytes { commands.logBytes += Commands.bytes(of: entry, rate: configuration.frameRate) }
        commands.log.append(entry)
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
        let (applies, logs, _) = route(command, scene: scene)
        let time = configuration.frameRate.time(ofFrame: position.frame)
        // Another player's command: the log names its player, so that it replays to the same frames.
        log(loggedEntry(command, scene: scene))
        guard applies else { return }
        if logs { recorder.emit(.command(command.description + (scene.map { " in \($0)" } ?? ""))) }
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
                for event in try screen.apply(screenCommand, at: time, live: live) { recorder.emit(.screen(event)) }
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
