import AdInsertion
import AdPlayback
import Foundation
import LiveWindow
import MediaCore

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

        init(_ arguments: ParsedArguments) {
            session = SessionOptions(arguments)
            format = FormatOptions(fromContent: arguments)
            encoding = EncodingOptions(arguments)
            events = arguments[PlayCommand.events]
            speed = arguments[PlayCommand.speed]
            record = arguments[PlayCommand.record]
            commandLog = arguments[PlayCommand.commandLog]
            show = arguments[PlayCommand.show]
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
            + "--script syntax, so that 'pipctl render --script @FILE' replays the session to the same frames. "
            + "Defaults to OUT.commands.txt beside --record OUT.")

    static let show = Parameter.flag(
        "show",
        help: "Also show the session in a window, in real time, with its sound: the frames --record writes, scaled to fit "
            + "(resizable). Keys: space pause/resume, p pip, Left/Right seek -/+10 s, s skip, c click, r rotate, i title "
            + "details, q or Esc quit; a click is 'tap X,Y' there, a drag across a slider 'swipe', the wheel 'scroll N'. "
            + "Each is a COMMAND event and in the command log. Late frames are dropped, counted in the title. Needs a "
            + "display (DISPLAY or WAYLAND_DISPLAY). See docs/PLAY.md.")

    static let definition = CommandDefinition(
        name: "play",
        abstract: "Play a session in real time, taking commands from standard input.",
        discussion: "Runs the same session as 'pipctl render' (same inputs and options) on the wall clock instead "
            + "of as fast as possible, printing each event as it happens (text on a terminal, JSON lines "
            + "otherwise) and, on a terminal, a status line (position, what is playing, picture-in-picture, next "
            + "break, held breaks). Commands are read from standard input, one per line: pip, pip on, pip off, "
            + "seek T, pause, resume, skip, click, status, quit, and with --device or --session the screen commands "
            + "(rotate, resize, split, fold, unfold, activate, present interstitial SCENE, tap X,Y, dismiss SCENE), "
            + "whose ad events and drawing are those of the same command in a script, and with native placements in "
            + "the session file the native commands (load slider, load images, swipe left|right, scroll N, and tap X,Y "
            + "on a card), loaded in the background and evaluated by the render's rules; each applies at the next frame. When the input ends the "
            + "session plays on to its end. With no --content, --ads or --break it plays the bundled demo.",
        parameters: SessionOptions.inputParameters + [events, speed, record, commandLog, show] + FormatOptions.FromContent.parameters
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
        let screen = try options.session.screenSession(command: context.command)
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
        let commandLogPath = options.commandLog ?? options.record.map { $0 + ".commands.txt" }
        // The log is written when the session ends; a destination it cannot have must stop the session before it
        // plays and records, not after.
        if let commandLogPath { _ = try AtomicFile(destination: commandLogPath) }
        let speed = options.speed.doubleValue
        let start = ContinuousClock.now
        if options.session.sendsBeacons { live.clockOrigin = Date() }
        let request = live
        // A player sends each beacon when it shows the frame: never ahead of the wall clock, even when a frame
        // was decided early.
        let beacons = options.session.sendsBeacons ? BeaconSender(pacing: .realtime(start: start, speed: speed)) : nil
        do {
            _ = try await runBlocking { () throws -> RenderResult in
                let stitcher = try Stitcher(request: request, mode: .live)
                context.watchMediaDownloads(stitcher.downloads)
                let display = LiveDisplay(output: context.output, errorOutput: context.errorOutput)
                stitcher.observe(display)
                if let beacons { stitcher.observe(beacons) }
                let reader = CommandReader(inbox: stitcher.session.inbox)
                // --show (PlayWindow): created on this thread, which alone uses it.
                let window = try options.show ? PlayWindow.open(stitcher: stitcher, speed: options.speed, display: display,
                                                                                command: context.command) : nil
                reader.start()
                defer {
                    reader.takeNotices().forEach(display.printNotice)
                    display.finish()
                    window?.finish(display: display, command: context.command)
                }
                let rate = stitcher.format.frameRate.perSecond.doubleValue
                while try stitcher.step() {
                    reader.takeNotices().forEach(display.printNotice)
                    stitcher.takeNativeWarnings().forEach { display.printNotice("\(context.command): warning: \($0)") }
                    if reader.takeStatusRequest() { display.printStatus(stitcher.session.status) }
                    display.update(stitcher.session.status)
                    try window?.afterFrame(inbox: stitcher.session.inbox, display: display, command: context.command)
                    if context.interrupt.isSet { throw RenderError.interrupted }
                    // Frame n is due n / (rate × speed) seconds after the start; ahead of time, wait.
                    let due = start + .seconds(Double(stitcher.frameCount) / (rate * speed))
                    let now = ContinuousClock.now
                    if due > now { Thread.sleep(forTimeInterval: Self.seconds(due - now)) }
                    // --show: a frame due more than a frame ago is stepped but not drawn (dropped).
                    window?.presentsNextFrame = now - due <= .seconds(1 / (rate * speed))
                }
                // The command log appears with the recording and the event log, or none of them does.
                var alongside: [AtomicFile] = []
                if let commandLogPath {
                    let log = try AtomicFile(destination: commandLogPath)
                    try log.write(Data((stitcher.session.commandLog.formatted(frameRate: stitcher.format.frameRate) + "\n").utf8))
                    alongside.append(log)
                }
                return try stitcher.finish(alongside: alongside)
            }
        } catch {
            try context.rethrowing(error, interrupted: (error as? RenderError) == .interrupted)
        }
        await context.finish(beacons)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
