import MediaCore

/// Applying commands, from the script or typed live, at the frame being decided.
extension PlaybackSession {
    /// Applies the script commands due at this frame, then the submitted ones, each logged as `COMMAND` and
    /// recorded in `commandLog` at this frame's exact time.
    func applyDueCommands() {
        let rate = configuration.frameRate
        while let next = scriptCommands.first, rate.firstFrame(atOrAfter: next.time) <= frame, !hasEnded {
            scriptCommands.removeFirst()
            apply(next.command)
        }
        for command in inbox.takeAll() where !hasEnded {
            apply(command)
        }
    }

    private func apply(_ command: SessionCommand) {
        recorder.emit(.command, message: command.description)
        commandLog.append(TimedCommand(time: configuration.frameRate.time(ofFrame: frame), command: command))
        switch command {
        case .togglePictureInPicture:
            if pictureInPicture.state == .inactive { startPictureInPicture() } else { stopPictureInPicture(command) }
        case .startPictureInPicture:
            startPictureInPicture()
        case .stopPictureInPicture:
            stopPictureInPicture(command)
        case .seek(let target):
            seek(to: target, command)
        case .pause:
            if isPaused { return refuse(command, "already paused") }
            guard lastDecision != nil else { return refuse(command, "nothing is playing yet") }
            isPaused = true
            adsManager.playbackPaused(true)
        case .resume:
            guard isPaused else { return refuse(command, "not paused") }
            isPaused = false
            adsManager.playbackPaused(false)
        case .skip:
            if let refusal = adsManager.skip() { refuse(command, refusal) }
        case .click:
            if let refusal = adsManager.click() { refuse(command, refusal) }
        case .quit:
            end(reason: .quit, contentEnded: false)
        case .native:
            // Native placements run from the script before the render (`NativeScreenRun`), as the banner
            // loader does; the session only logs the command.
            break
        case .screen(let screenCommand):
            // Without a device there is no screen to change; say so rather than pretend.
            guard var state = screen else { return refuse(command, "screen commands need --device") }
            do {
                let events = try state.apply(screenCommand)
                screen = state
                for event in events { recorder.log(event.logText) }
                screenChanged()
            } catch {
                refuse(command, "\(error)")
            }
        }
    }

    /// After a screen change the player's window follows its scene (a rotation, a fold, a resize), and the
    /// picture-in-picture window is laid out again inside it, as an app lays out after `viewWillTransition`.
    private func screenChanged() {
        let window = PlaybackSession.playerWindow(screen: screen, canvas: screenCanvas, size: configuration.canvas)
        guard window != playerWindow else { return }
        playerWindow = window
        if let window {
            layout = PictureInPictureLayout(canvas: window.size, contentAspect: configuration.contentAspect,
                                            settings: configuration.pictureInPicture)
        }
    }

    /// Asks the controller; it answers through the proxy (will-start, or failed-to-start with the reason).
    private func startPictureInPicture() {
        if pictureInPicture.state == .inactive { transitionStart = frame }
        pictureInPicture.startPictureInPicture()
        finishTransitionIfDue()
    }

    private func stopPictureInPicture(_ command: SessionCommand) {
        guard pictureInPicture.state == .active else {
            return refuse(command, "picture-in-picture is \(pictureInPicture.state.rawValue)")
        }
        transitionStart = frame
        pictureInPicture.stopPictureInPicture()
        finishTransitionIfDue()
    }

    private func seek(to target: MediaTime, _ command: SessionCommand) {
        if adsManager.isPlayingBreak { return refuse(command, "an ad break is playing") }
        if contentHasEnded { return refuse(command, "the content has ended") }
        let from = recorder.contentTick
        let to = min(configuration.frameRate.firstFrame(atOrAfter: target), configuration.contentFrameCount)
        recorder.contentTick = to
        adsManager.jump(from: from, to: to, why: "by a seek")
    }

    private func refuse(_ command: SessionCommand, _ why: String) {
        recorder.log("\(command) ignored: \(why)", reason: .refused)
    }
}
