import AdPlayback
import AdScreen
import Foundation
import MediaCore
import Rendering
import VideoPipeline
/// `pipctl render`: plays content with its ads and picture-in-picture headlessly into one MP4.
enum RenderCommand: Command {
    struct Options: CommandOptions {
        var session: SessionOptions
        /// Nil for `out.mp4`.
        var output: String?
        /// Nil for the default beside the output.
        var timeline: String?
        /// Nil for the default beside the output.
        var events: String?
        var frameHashes: String?
        var format: FormatOptions
        var encoding: EncodingOptions
        var beaconPacing: BeaconPacing
        var hls: HLSOptions
        var passthrough: PassthroughMode
        var passthroughSound: PassthroughSoundMode
        var loudness: LoudnessNormalisation?

        init(_ arguments: ParsedArguments) {
            session = SessionOptions(arguments)
            output = arguments[RenderCommand.output]
            timeline = arguments[RenderCommand.timeline]
            events = arguments[RenderCommand.events]
            frameHashes = arguments[RenderCommand.frameHash]
            format = FormatOptions(fromContent: arguments)
            encoding = EncodingOptions(arguments)
            beaconPacing = arguments[RenderCommand.beaconPacing]
            hls = HLSOptions(arguments)
            passthrough = arguments[RenderCommand.passthrough]
            passthroughSound = arguments[RenderCommand.passthroughSound]
            loudness = arguments[RenderCommand.loudness]
        }
    }

    static let output = Parameter.optional(
        "output", short: "o", .text("OUT"), absent: "out.mp4",
        help: "The MP4 file to write. It appears only when the render succeeds; an existing file is replaced.")
    static let timeline = Parameter.optional(
        "timeline", .text("FILE"), absent: "OUT.timeline.json",
        help: "Where to write the timeline: which source (content or which ad) is on screen for each span of "
            + "output frames, as JSON; 'pipctl verify' checks the output against it.")
    static let events = Parameter.optional(
        "events", .text("FILE"), absent: "OUT.events.jsonl",
        help: "Where to write the event log: one JSON object per line for each ads-manager event (IMA names), "
            + "beacon, picture-in-picture message and command, stamped with output time and frame.")
    static let frameHash = Parameter.optional(
        "framehash", .text("FILE"), absent: "none",
        help: "Also write the MD5 of every output picture to FILE, in the format of ffmpeg's framemd5.")

    static let passthrough = Parameter.option(
        "passthrough", .choice(PassthroughMode.self), default: .off,
        help: "on: copy the content's own H.264 packets wherever it is shown whole and re-encode only the partial "
            + "GOPs at each cut and the ads (the content must be H.264 at the output's size and frame rate, written "
            + "to MP4 or, with --hls, to segments cut at its keyframes; no device, --framehash or --start-at); the "
            + "render fails with the reason when it cannot. auto: copy when it can, else encode every frame and say "
            + "why. The timeline's videoRuns says which frames were copied.")
    static let passthroughSound = Parameter.option(
        "passthrough-sound", .choice(PassthroughSoundMode.self), default: .copy,
        help: "With --passthrough: copy also copies the AAC packets of the content, and of ads whose sound is AAC-LC "
            + "at the output's rate and channels, reading each run up to half a packet (10.7 ms at 48 kHz) from its "
            + "picture's place onto the packet grid; encode encodes all the sound, every sample in its place.")
    static let loudness = Parameter.optional(
        "loudness", .loudness, absent: "content with ads, else off",
        help: "content brings each ad's sound to the content's integrated loudness (ITU-R BS.1770-4, EBU R128); a "
            + "number from -60 to 0 (e.g. -23 for EBU R128, -24 for ATSC A/85) brings the content and the ads to that "
            + "loudness in LUFS; off leaves the sound as it is. The gain is static per source, measured before it "
            + "plays, and a true-peak limiter keeps each gained source under \(RenderCommand.ceiling) dBTP (EBU R128's -1 "
            + "less 1 dB for the AAC encoder's overshoot). The default is content when there are ads, else off.")
    /// The limiter's ceiling as the help says it (`SoundGain.ceiling`, −2 dBTP).
    static let ceiling = String(format: "%g", SoundGain.ceiling)
    static let beaconPacing = Parameter.option(
        "beacon-pacing", .choice(BeaconPacing.self), default: .asap,
        help: "With --send-beacons: asap sends each beacon as fast as the render goes; realtime sends it when a "
            + "real player would have (the render's start plus the output time of its event), so the command "
            + "waits at the end until the last one is sent. [TIMESTAMP] is that moment on the wall clock either way.")

    static let definition = CommandDefinition(
        name: "render",
        abstract: "Render content with its ad breaks and picture-in-picture into one MP4.",
        discussion: "Plays the content as a device with the IMA SDK would, without a screen: ad breaks from a "
            + "VMAP or VAST document (or quick --break ads) pause the content and play their ads, tracking events "
            + "fire at their times, and a --script can move the player into picture-in-picture, seek or pause. "
            + "The result is one MP4 at a constant frame rate with its timeline and event log beside it. With no "
            + "--content, --ads or --break it renders the bundled demo (content, ad schedule and script), so "
            + "'pipctl render' alone shows what the tool does.",
        parameters: SessionOptions.inputParameters + [output, timeline, events, frameHash] + HLSOptions.parameters
            + FormatOptions.FromContent.parameters
            + EncodingOptions.parameters + SessionOptions.adRequestParameters + SessionOptions.mediaParameters
            + SessionOptions.behaviourParameters + SessionOptions.screenParameters + [passthrough, passthroughSound, loudness, beaconPacing],
        // An HLS directory holds its own timeline and event log.
        exclusive: SessionOptions.exclusive + [output, timeline, events, frameHash].map { [HLSOptions.directory, $0] })

    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        // A screen option without --device is a usage mistake, reported before any file is looked at. The session
        // file is read here, once.
        let screen = try options.session.screenSession(context: context)
        let hlsSettings = try options.hls.settings(encoding: options.encoding, command: context.command)
        var files = try options.session.inputFiles(screen: screen)
        if hlsSettings == nil {
            let out = options.session.outputPath(options.output)
            files.write("-o", out)
            files.write("--framehash", options.frameHashes)
            files.write(options.timeline == nil ? "the timeline" : "--timeline", options.timeline ?? out + ".timeline.json")
            files.write(options.events == nil ? "the event log" : "--events", options.events ?? out + ".events.jsonl")
        }
        try files.check(command: context.command)
        // The directory is checked (and its staging directory made) before anything is loaded or written.
        let hls: HLSRender?
        do { hls = try hlsSettings.map { s throws(RenderError) in try HLSRender(settings: s) } } catch {
            throw UsageError(command: context.command, message: "--hls: \(error)")
        }
        // Every failure from here on removes the staging directory at once, before the process exits.
        do { try await render(options, screen: screen, hls: hls, files: files, context: context) } catch {
            hls?.discard()
            throw error
        }
    }

    private static func render(_ options: Options, screen: ScreenSession?, hls: HLSRender?, files: CommandFiles,
                               context: CommandContext) async throws {
        var prepared = try await context.interruptible { try await options.session.renderRequest(
            screen: screen,
            // An HLS render's MP4 goes into its staging directory (and the demo makes no out/ for it).
            output: hls?.renderPath ?? options.output,
            format: options.format, encoding: options.encoding, timeline: options.timeline,
            events: options.events, frameHashes: options.frameHashes, context: context) }
        // What the ads and creatives name is known now: none of it may be an output either.
        var resolved = files
        resolved.read(prepared.readFiles)
        try resolved.check(command: context.command)
        // [TIMESTAMP] and realtime pacing share one start: the moment the render starts.
        let start = ContinuousClock.now
        if options.session.sendsBeacons { prepared.clockOrigin = Date() }
        prepared.passthrough.mode = options.passthrough
        prepared.passthrough.sound = options.passthroughSound
        prepared.loudness = options.loudness
        let request = hls?.prepare(prepared) ?? prepared
        let beacons = options.session.sendsBeacons
            ? BeaconSender(pacing: options.beaconPacing == .realtime ? .realtime(start: start) : .asap) : nil
        do {
            let result = try await runBlocking { () throws -> (RenderResult, HLSRenderOutput?) in
                let stitcher = try Stitcher(request: request, isCancelled: { context.interrupt.isSet })
                if let beacons { stitcher.observe(beacons) }
                context.watchMediaDownloads(stitcher.downloads)
                let rate = stitcher.format.frameRate
                let progress = context.progress("render", total: rate.time(ofFrame: stitcher.estimatedFrames) - .zero)
                defer { progress.finish() }
                while try stitcher.step() {
                    progress.update(position: rate.time(ofFrame: stitcher.frameCount) - .zero)
                    if context.interrupt.isSet { throw RenderError.interrupted }
                }
                let result = try stitcher.finish()
                return (result, try hls?.finish(result, request: request))
            }
            context.output.write(RenderSummary(request: hls?.placed(request) ?? request, result: result.0, hls: result.1).text)
        } catch {
            try context.rethrowing(error, interrupted: (error as? RenderError) == .interrupted)
        }
        await context.finish(beacons)
    }
}
