import AdDecisioning
import AdPlayback
import MediaCore
import Rendering

/// `pipctl ads inspect`: loads an ad response the way a render would and reports what it found.
enum AdsInspectCommand: Command {
    struct Options: CommandOptions {
        var source: InputLocation
        var contentDuration: MediaDuration?
        var window: PixelSize
        var urlMap: String?
        var timeout: MediaDuration
        var decisioning: DecisioningOptions
        var cuePoints: [MediaTime]
        var json: Bool

        init(_ arguments: ParsedArguments) {
            source = arguments[AdsInspectCommand.source]
            contentDuration = arguments[AdsInspectCommand.contentDuration]
            window = arguments[AdsInspectCommand.window]
            urlMap = arguments[AdsInspectCommand.urlMap]
            timeout = arguments[AdsInspectCommand.timeout]
            decisioning = DecisioningOptions(arguments)
            cuePoints = arguments[AdsInspectCommand.cuePoints] ?? []
            json = arguments[AdsInspectCommand.json]
        }
    }

    static let source = Parameter.positional(
        .location("FILE|URL"), help: "The VMAP or VAST document: a file or an http(s) URL.")
    static let contentDuration = Parameter.optional(
        "content-duration", .seconds(), absent: "percentage offsets stay unresolved",
        help: "Length of the content, to place VMAP breaks given as a percentage and the post-roll on the "
            + "content clock.")
    static let window = Parameter.option(
        "window", .size, default: PixelSize(width: 640, height: 360),
        help: "The size of the player's view, used to choose among each ad's media files.")
    static let urlMap = SessionOptions.urlMap
    static let timeout = Parameter.option(
        "timeout", .seconds(), default: MediaDuration(seconds: 8),
        help: "How long to wait for the first document (IMA allows 8 seconds).")
    static let cuePoints = SessionOptions.cuePoints
    static let json = Parameter.flag("json", help: "Write the report as JSON instead of text.")

    static let definition = CommandDefinition(
        name: "inspect",
        abstract: "Load a VMAP or VAST response and report the ad plan it makes.",
        discussion: "Fetches the document and every wrapper it leads to, as a render would, then prints the ad "
            + "breaks with their positions and tracking, and under each ad: every media file with why it was or "
            + "was not chosen, the wrapper chain, impression, tracking (per event), click and error URLs, its "
            + "companion ads and non-linear creatives; then each break's fallbacks (stand-alone ads of a pod "
            + "response kept for an ad that fails), the VAST errors and the warnings (which stand-alone ad "
            + "replaced which). Nothing is played or sent: tracking URLs are listed, not fired. --json writes the "
            + "same as JSON.",
        parameters: [source, contentDuration, window, urlMap, cuePoints, timeout] + DecisioningOptions.parameters + [json])

    static func run(_ options: Options, context: CommandContext) async throws {
        var settings = AdsLoaderSettings()
        settings.urlMap = try SessionOptions.loadURLMap(options.urlMap, command: context.command)
        settings.firstRequestTimeout = options.timeout.duration
        try options.decisioning.apply(to: &settings, command: context.command)
        settings.mediaSelection.window = options.window
        let request = AdsRequest(adTag: options.source.description, contentDuration: options.contentDuration,
                                 cuePoints: options.cuePoints)
        let report = try await AdsInspector.inspect(request, settings: settings)
        context.output.write(options.json ? report.json() : report.text)
    }
}
