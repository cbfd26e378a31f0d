import AdPlayback
import Foundation
import LiveWindow
import MediaCore
import Rendering

/// `pipctl play`: runs a session in real time, printing events and taking commands from standard input.
enum PlayCommand: Command {
    struct Options: CommandOptions {
        var session: SessionOptions
        var format: FormatOptions
        var encoding: EncodingOptions
        var events: String?
        /// A multiple of real time.
        var speed: Rational
        var record: String?
        var commandLog: String?
        /// `--show`: a window with the frames, their sound, keys and mouse (`PlayWindow`).
        var show: Bool
        /// `--step`: the session's clock moves only when standard input says `advance T` (`PlayStep`).
        var step: Bool

        init(_ arguments: ParsedArguments) {
            session = SessionOptions(arguments)
            format = FormatOptions(fromContent: arguments)
            encoding = EncodingOptions(arguments)
            events = arguments[PlayCommand.events]
            speed = arguments[PlayCommand.speed]
            record = arguments[PlayCommand.record]
            commandLog = arguments[PlayCommand.commandLog]
            show = arguments[PlayCommand.show]
            step = arguments[PlayCommand.step]
        }
    }

    static let events = Parameter.optional(
        "events", .text("FILE"), absent: "none",
        help: "Also write the event log to FILE, one JSON object per line, as 'pipctl render' does.")
    static let speed = Parameter.option(
        "speed", .number("N", above: .zero, examples: "1, 2, 0.5"), default: Rational(1),
        help: "Playback speed as a multiple of real time.")
    static let record = Parameter.optional(
        "record", .text("OUT"), absent: "none",
        help: "Also record what the player shows to an MP4 file, encoded with --profile, --crf and --preset.")
    static let commandLog = Parameter.optional(
        "command-log", .text("FILE"), absent: "none",
        help: "Write every command applied during playback with the output time of the frame it applied at, in "
            + "--script syntax, so that 'pipctl render --script @FILE' with the same inputs (the same --session: "
            + "the log holds the file's script commands too, and replaces its script) replays the session to the same "
            + "events and frames. It holds at most 10000 commands, as a --script does; commands typed after that are "
            + "ignored, with one line saying so. Defaults to OUT.commands.txt beside --record OUT.")

    static let show = Parameter.flag(
        "show",
        help: "Also show the session in a window, in real time, with its sound: the frames --record writes, scaled to fit "
            + "(resizable). Keys: space pause/resume, p pip, Left/Right seek -/+10 s, s skip, c click, r rotate, i title "
            + "details, q or Esc quit; a click is 'tap X,Y' there, a drag across a slider 'swipe', the wheel 'scroll N'. "
            + "Each is a COMMAND event and in the command log. Late frames are dropped, counted in the title. Needs a "
            + "display (DISPLAY or WAYLAND_DISPLAY). See docs/PLAY.md.")

    static let step = Parameter.flag(
        "step",
        help: "Play on a clock that moves only when standard input says so: a line 'advance T' (seconds, or a clock "
            + "time) moves it on by T and plays every frame due by then; once they are played, 'stepped to H:MM:SS.mmm' "
            + "is printed on standard output and the next line is read, so a command applies at the first frame due after "
            + "the time reached before it. When the input ends the clock runs on in real time. For scripts and tests "
            + "that must not race the wall clock. See docs/PLAY.md.")

    static let definition = CommandDefinition(
        name: "play",
        abstract: "Play a session in real time, taking commands from standard input.",
        discussion: "Runs the same session as 'pipctl render' (same inputs and options) on the wall clock instead "
            + "of as fast as possible, printing each event as it happens (text on a terminal, JSON lines "
            + "otherwise) and, on a terminal, a status line (position, what is playing, picture-in-picture, next "
            + "break, held breaks; how far play is behind real time when the machine cannot keep up, said again at "
            + "the end with the speed achieved; then what is being typed). Commands are read from standard input, "
            + "one per line: pip, pip on, pip off, "
            + "seek T, pause, resume, skip, click, status, quit, and with --device or --session the screen commands "
            + "(rotate, resize, split, fold, unfold, activate, present interstitial SCENE, tap X,Y in the device's points as in a script, dismiss SCENE), "
            + "whose ad events and drawing are those of the same command in a script, and with native placements in "
            + "the session file the native commands (load slider, load images, swipe left|right, scroll N, and tap X,Y "
            + "on a card), loaded in the background and evaluated by the render's rules; each applies at the next frame. When the input ends the "
            + "session plays on to its end. With no --content, --ads or --break it plays the bundled demo.",
        parameters: SessionOptions.inputParameters + [events, speed, record, commandLog, show, step] + FormatOptions.FromContent.parameters
            + EncodingOptions.parameters + SessionOptions.adRequestParameters + SessionOptions.mediaParameters
            + SessionOptions.behaviourParameters + SessionOptions.screenParameters,
        exclusive: SessionOptions.exclusive)

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        // --show: a display is looked for before anything is read or rendered.
        if options.show {
            do { try LiveWindow.checkDisplay(environment: context.environment) } catch {
                throw CommandFailure("--show: \(error)", exitStatus: 2)
            }
        }
        // A screen option without --device is a usage mistake, reported before any file is looked at. The session
        // file is read here, once.
        let screen = try options.session.screenSession(context: context)
        var files = try options.session.inputFiles(screen: screen)
        files.write("--record", options.record)
        if let record = options.record {
            files.write("the timeline", record + ".timeline.json")
            files.write(options.events == nil ? "the event log" : "--events", options.events ?? record + ".events.jsonl")
        } else {
            files.write("--events", options.events)
        }
        files.write(options.commandLog == nil ? "the command log" : "--command-log",
                    options.commandLog ?? options.record.map { $0 + ".commands.txt" })
        try files.check(command: context.command)
        var live = try await context.interruptible { try await options.session.renderRequest(
            screen: screen, output: options.record, format: options.format, encoding: options.encoding, timeline: nil,
            events: options.events, frameHashes: nil, live: true, context: context) }
        live.output.writesMedia = options.record != nil
        // What the ads and creatives name is known now: none of it may be an output either.
        files.read(live.readFiles)
        try files.check(command: context.command)
        // What a native response loaded as the session plays names is known only then: no image is read from an
        // output (NativeAdLoader.forbiddenFiles).
        live.device.liveNative?.loader.forbiddenFiles = files.outputs
        // --step: where a native load lands must not depend on how fast its server answered.
        live.device.liveNative?.waitsForFetches = options.step
        let commandLogPath = options.commandLog ?? options.record.map { $0 + ".commands.txt" }
        // The log is written when the session ends; a destination it cannot have must stop the session before it
        // plays and records, not after.
        if let commandLogPath { _ = try AtomicFile(destination: commandLogPath) }
        let speed = options.speed.doubleValue
        // The session's clock: the wall clock, or with --step one that standard input moves.
        let step = options.step ? PlayStep() : nil
        let clock: any WallClock = step?.clock ?? SystemClock()
        let start = clock.now
        if options.session.sendsBeacons { live.clockOrigin = Date() }
        let request = live
        // A player sends each beacon when it shows the frame: never ahead of the session's clock, even when a frame
        // was decided early.
        let beacons = options.session.sendsBeacons
            ? BeaconSender(pacing: .realtime(start: start, speed: speed), clock: clock) : nil
        do {
            _ = try await runBlocking { () throws -> RenderResult in
                let stitcher = try Stitcher(request: request, mode: .live)
                context.watchMediaDownloads(stitcher.downloads)
                let display = LiveDisplay(output: context.output, errorOutput: context.errorOutput, clock: clock)
                stitcher.observe(display)
                if let beacons { stitcher.observe(beacons) }
                // A person typing at the terminal that shows the status line: the display draws what is typed.
                let terminal = context.errorOutput.isTerminal ? TerminalInput.begin() : nil
                if let terminal { context.interrupt.onInterrupt { _ in terminal.restore() } }
                let reader = CommandReader(inbox: stitcher.commands, editing: terminal != nil, step: step)
                // --show (PlayWindow): created on this thread, which alone uses it.
                let window = try options.show ? PlayWindow.open(stitcher: stitcher, speed: options.speed, stepped: step != nil,
                                                                clock: clock, display: display, command: context.command) : nil
                reader.start()
                let rate = stitcher.format.frameRate.perSecond
                var pace = PlayPace(start: start, speed: options.speed, rate: rate)
                defer {
                    step?.end()
                    terminal?.restore()
                    reader.takeNotices().forEach(display.printNotice)
                    // For the person watching the status line (piped, the events' times tell the same).
                    if context.errorOutput.isTerminal, step == nil, let summary = pace.summary(frames: stitcher.frameCount, now: clock.now) {
                        display.printNotice("\(context.command): \(summary)")
                    }
                    display.finish()
                    window?.finish(display: display, command: context.command)
                }
                var ignoredShown = false
                while try stitcher.step() {
                    reader.takeNotices().forEach(display.printNotice)
                    stitcher.takeNativeWarnings().forEach { display.printNotice("\(context.command): warning: \($0)") }
                    if !ignoredShown, stitcher.ignoredLiveCommands > 0 {
                        ignoredShown = true
                        display.printNotice("\(context.command): the command log holds as many commands as 'render --script' "
                            + "replays (\(SessionScript.maximumCommands)); commands typed from now on are ignored")
                    }
                    if reader.takeStatusRequest() { display.printStatus(stitcher.status) }
                    let now = clock.now
                    // With --step the loop is never behind: it plays what the clock was moved over, then waits.
                    display.update(stitcher.status, pace: step == nil ? pace.behind(frames: stitcher.frameCount, now: now) : nil,
                                   typed: terminal == nil ? nil : reader.typed)
                    try window?.afterFrame(inbox: stitcher.commands, display: display, command: context.command)
                    if context.interrupt.isSet { throw RenderError.interrupted }
                    // Frame n is due n / (rate × speed) seconds after the start; ahead of time, wait.
                    let due = pace.due(frames: stitcher.frameCount)
                    if due > now {
                        if let reached = step?.parking(now: now) { display.printStep(reached) }
                        clock.wait(until: due)
                    }
                    // --show: a frame due more than a frame ago is stepped but not drawn (dropped); with --step, none is.
                    window?.presentsNextFrame = step != nil || now - due <= pace.frameDuration
                }
                // The command log appears with the recording and the event log, or none of them does.
                var alongside: [AtomicFile] = []
                if let commandLogPath {
                    let log = try AtomicFile(destination: commandLogPath)
                    try log.write(Data((stitcher.commandLog.formatted(frameRate: stitcher.format.frameRate) + "\n").utf8))
                    alongside.append(log)
                }
                return try stitcher.finish(alongside: alongside)
            }
        } catch {
            try context.rethrowing(error, interrupted: (error as? RenderError) == .interrupted)
        }
        await context.finish(beacons)
    }

    /// How `play` keeps up with the wall clock: frame n is due n / (rate × speed) seconds after the start. Play is
    /// behind when a frame is done more than `threshold` after it was due (a loaded machine, a slow recording);
    /// the status line then says so, with the speed achieved, and so does the end (on a terminal).
    struct PlayPace {
        static let threshold: Duration = .milliseconds(500)
        let start: ContinuousClock.Instant
        /// The speed asked for (a multiple of real time) and the output's frames per second.
        let speed: Rational
        let rate: Rational
        /// Whether play was ever behind by more than the threshold.
        private(set) var fellBehind = false

        /// Exact (to the nanosecond, not accumulated): with `--step`, `advance 0.1` reaches frame 3 of 30 fps.
        func due(frames: Int64) -> ContinuousClock.Instant {
            start + MediaDuration(seconds: Rational(frames) / (rate * speed)).duration
        }

        /// How long a frame lasts on the session's clock.
        var frameDuration: Duration { MediaDuration(seconds: Rational(1) / (rate * speed)).duration }

        /// The multiple of real time achieved since the start, `frames` played by `now`.
        func achieved(frames: Int64, now: ContinuousClock.Instant) -> Double {
            let elapsed = PlayCommand.seconds(now - start)
            return elapsed > 0 ? Double(frames) / rate.doubleValue / elapsed : speed.doubleValue
        }

        /// The status line's note when the frames done by `now` are behind: `behind 1.2 s: 0.45x real time`.
        mutating func behind(frames: Int64, now: ContinuousClock.Instant) -> String? {
            let late = now - due(frames: frames)
            guard late > Self.threshold else { return nil }
            fellBehind = true
            return "behind \(Self.format(PlayCommand.seconds(late), digits: 1)) s: \(Self.format(achieved(frames: frames, now: now), digits: 2))x real time"
        }

        /// The line for the end when play fell behind: `played at 0.45x real time, slower than the 1x asked`.
        func summary(frames: Int64, now: ContinuousClock.Instant) -> String? {
            guard fellBehind else { return nil }
            return "played at \(Self.format(achieved(frames: frames, now: now), digits: 2))x real time, slower than the "
                + "\(Self.format(speed.doubleValue, digits: 2))x asked (this machine could not decode, compose and show the frames in time)"
        }

        /// `value` with at most `digits` decimals, without trailing zeros: 0.45, 1, 2.5.
        static func format(_ value: Double, digits: Int) -> String {
            var text = String(format: "%.\(digits)f", value)
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            return text
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
