import AdDecisioning
import AdPlayback
import Foundation
import HTTPServing
import MediaCore
import Rendering
import Serving

/// `pipctl serve`: server-side ad insertion over HTTP (docs/SERVE.md).
enum ServeCommand: Command {
    struct Options: CommandOptions {
        var origin: String
        var ads: String
        var listen: ListenAddress
        var decisionTimeout: MediaDuration
        var maximumSessions: Int
        var threads: Int
        var cache: String?
        var cacheSize: Int
        var stitchWait: MediaDuration
        var urlMap: String?
        var loudness: LoudnessNormalisation
        var trustedProxies: [AddressRange]
        var secretFile: String?

        init(_ arguments: ParsedArguments) {
            origin = arguments[ServeCommand.origin]
            ads = arguments[ServeCommand.ads]
            listen = arguments[ServeCommand.listen]
            decisionTimeout = arguments[ServeCommand.decisionTimeout]
            maximumSessions = arguments[ServeCommand.maximumSessions]
            threads = arguments[ServeCommand.threads]
            cache = arguments[ServeCommand.cache]
            cacheSize = arguments[ServeCommand.cacheSize]
            stitchWait = arguments[ServeCommand.stitchWait]
            urlMap = arguments[ServeCommand.urlMap]
            loudness = arguments[ServeCommand.loudness]
            trustedProxies = arguments[ServeCommand.trustedProxy]
            secretFile = arguments[ServeCommand.secretFile]
        }
    }

    static let origin = Parameter.required("origin", .text("DIR"), help: "The folder of the content: HLS VODs (a multivariant "
        + "playlist with its renditions, or one media playlist; TS or fMP4 segments). Sessions name content by its path "
        + "under DIR; nothing outside DIR is ever served.")
    static let ads = Parameter.required("ads", .text("URL"), help: "The ad server's URL (VAST or VMAP), with MediaTailor's "
        + "variables filled in per session and URL-encoded: [session.id], [session.user_agent], [session.client_ip], "
        + "[player_params.NAME].")
    static let listen = Parameter.option("listen", .listenAddress, default: ListenAddress(host: "127.0.0.1", port: 8080),
        help: "Where to listen: HOST:PORT, an IPv4 or [IPv6] address; port 0 takes any free one (the line on standard "
            + "error says which).")
    static let decisionTimeout = Parameter.option("decision-timeout", .seconds(), default: MediaDuration(seconds: 3),
        help: "The ad server's whole answer (tag, VMAP sources, wrappers) must arrive within this; a viewer whose ads "
            + "are late or fail gets the content without ads.")
    static let maximumSessions = Parameter.option("max-sessions", .integer(in: 1...10_000_000), default: 100_000,
        help: "Sessions held at once; beyond it, new sessions are refused with 503 until idle ones (4 h without a "
            + "request) are forgotten. With --secret-file, sessions held in memory: beyond it, the least recently used "
            + "is forgotten instead, and rebuilt from its URL when asked again.")
    static let cache = Parameter.optional("cache", .text("DIR"), absent: "serve/ beside the media cache ($XDG_CACHE_HOME/pipctl/serve, else ~/.cache/pipctl/serve)",
        help: "Where the ads' media, each ad conditioned per rendition and the pieces cut around each break are kept, "
            + "built once and shared by every viewer (docs/SERVE.md, \"The cache\").")
    static let cacheSize = Parameter.option("cache-size", .integer("BYTES", in: (1 << 20)...Int.max), default: 10 << 30,
        help: "What the cut pieces, conditioned ads and packaged MP4s may hold together; past it, the least recently used "
            + "are removed after each build, except those used in the last hour (the ads' media are bounded apart).")
    static let stitchWait = Parameter.option("stitch-wait", .seconds(), default: MediaDuration(seconds: 5),
        help: "How long a viewer's first media playlist waits for its breaks to be cut and its ads conditioned; a break "
            + "not ready by then is left out for that viewer (the content plays there) and finished for the next.")
    static let urlMap = Parameter.optional("url-map", .text("FILE"), absent: "fetch the ad server's URLs over HTTP(S)",
        help: "Read ad documents and media whose URLs start with a prefix of FILE from local files instead (lines of "
            + "URL-PREFIX and LOCAL-PATH; media/demo.urlmap serves the demo's ad server from media/).")
    static let loudness = Parameter.option("loudness", .loudness, default: .content,
        help: "content brings each ad's sound to the content's integrated loudness (ITU-R BS.1770-4, EBU R128; measured "
            + "once from the first rendition's segments); a number from -60 to 0 (e.g. -23) brings each ad to that "
            + "loudness in LUFS; off leaves it as it is. A static gain per ad with a true-peak limiter, as render's.")
    static let trustedProxy = Parameter.repeating("trusted-proxy", .addressRange, absent: "none: the connection's address is the viewer's",
        help: "A proxy in front of the server (a load balancer, nginx, a CDN's edge) whose X-Forwarded-For names the viewer: "
            + "for [session.client_ip] and the beacons' X-Device-IP, that header is read from its right end past every "
            + "trusted proxy. An IPv4 or IPv6 address, or a network (10.0.0.0/8, fd00::/8); repeat it for several.")
    static let secretFile = Parameter.optional("secret-file", .text("FILE"), absent: "sessions live in this server's memory",
        help: "Share sessions between instances: each session's URLs carry a token signed with this secret (HMAC-SHA256), "
            + "and its ad decision and sent beacons are kept under --cache DIR/sessions/, so every instance started with the "
            + "same FILE and --cache answers every viewer, and one restarted does too (docs/SERVE.md, \"Several instances\"). "
            + "FILE holds 32 to 4096 bytes, readable by its owner (and at most read by its group): head -c 64 /dev/urandom > FILE; chmod 600 FILE.")
    static let threads = Parameter.option("threads", .integer(in: 1...64), default: 2,
        help: "Threads that accept, read and write connections (libmicrohttpd's pool).")
    static let config = Parameter.optional(ConfigFile.option, .text("FILE"), absent: "the command line's options only",
        help: "Read options from FILE, a JSON object of this command's long options (without dashes) and their values: "
            + "a string or number, true or false for a flag, a list for an option that repeats, e.g. {\"origin\": "
            + "\"/srv/hls\", \"ads\": \"https://ads.example/vmap\", \"listen\": \"0.0.0.0:8080\", \"trusted-proxy\": "
            + "[\"10.0.0.0/8\"]}. Options on the command line win over the file's; a repeating one adds to them.")

    static let definition = CommandDefinition(
        name: "serve",
        abstract: "Serve HLS with each viewer's ads (server-side ad insertion).",
        discussion: "An HTTP/1.1 origin for players: POST /v1/sessions {\"content\": PATH, \"params\": {…}} or GET "
            + "/v1/master/PATH?NAME=VALUE starts a viewer's session, whose ads are decided by the ad server at once; "
            + "its playlists list the content's segments with the ads cut in at each break's exact frame: only the "
            + "segments around a cut are replaced, by pieces whose partial GOPs are re-encoded, and each ad is "
            + "conditioned to each rendition, both once for every viewer. A session made with \"mode\": \"guided\" (or "
            + "?mode=guided) is played by the player instead: the content's playlists, the same for every viewer, mark "
            + "each break as an HLS interstitial whose asset list gives that viewer's conditioned ads. Writes one JSON "
            + "line per request on standard "
            + "output; SIGTERM or Ctrl-C finishes the requests in flight and exits 0 (docs/SERVE.md).",
        parameters: [origin, ads, listen, decisionTimeout, maximumSessions, cache, cacheSize, stitchWait, loudness, urlMap, secretFile, trustedProxy, threads, config])

    /// SIGTERM and Ctrl-C end the server gracefully.
    static var catchesInterrupts: Bool { true }

    static func run(_ options: Options, context: CommandContext) async throws {
        let settings: ServeSettings
        do {
            // Every option is checked before the cache directory is made.
            let origin = try OriginDirectory(path: options.origin)
            let template = try AdRequestTemplate(options.ads)
            let urlMap = try options.urlMap.map { path throws(DecisioningError) in try URLMap.load(contentsOfFile: path) }
            let secret = try options.secretFile.map { file throws(ServeSetupError) in try ServeSecret(file: file) }
            let cacheDirectory = options.cache ?? (MediaCacheSettings.defaultDirectory() as NSString).deletingLastPathComponent + "/serve"
            let cache = try StitchCache(directory: cacheDirectory, limits: StitchCache.Limits(maximumBytes: Int64(options.cacheSize)))
            let loudness: ServeLoudness = switch options.loudness {
            case .off: .off
            case .content: .content
            case .lufs(let target): .target(target)
            }
            let stitcher = BreakStitcher(cache: cache, origin: origin,
                                         wait: .milliseconds(Int64((options.stitchWait.seconds * Rational(1000)).floor)), loudness: loudness)
            var made = ServeSettings(origin: origin, ads: template,
                                     decisionTimeout: .milliseconds(max(1, Int64((options.decisionTimeout.seconds * Rational(1000)).floor))),
                                     maximumSessions: options.maximumSessions, stitcher: stitcher)
            made.urlMap = urlMap
            made.trustedProxies = options.trustedProxies
            made.sharing = try secret.map { secret throws(ServeSetupError) in try SessionSharing(secret: secret, cacheDirectory: cacheDirectory) }
            settings = made
        } catch {
            throw CommandFailure("\(error)")
        }
        let responder = ServeResponder(settings: settings)
        let output = context.output
        let server: HTTPServer
        do {
            server = try HTTPServer(host: options.listen.host, port: options.listen.port,
                                    limits: HTTPServerLimits(threads: options.threads), responder: responder,
                                    log: { output.write($0 + "\n") })
        } catch {
            throw CommandFailure("\(error)")
        }
        let shown = server.host.contains(":") ? "[\(server.host)]" : server.host
        context.errorOutput.write("\(context.command): serving \(settings.origin.root) on http://\(shown):\(server.port)/\n")
        let signal = await context.interrupt.waitForInterrupt()
        let inFlight = server.requestsInFlight
        await server.stop()
        context.errorOutput.write("\(context.command): \(Interrupted(signal: signal)): stopped after \(inFlight) request(s) in flight finished\n")
    }
}

extension ArgumentValue where Value == AddressRange {
    /// An IPv4 or IPv6 address, or a network in CIDR notation.
    static var addressRange: ArgumentValue {
        ArgumentValue(placeholder: "ADDRESS[/BITS]", parse: { text throws(InvalidValue) in
            guard let range = AddressRange(text) else { throw .not(text, "an IPv4 or IPv6 address or network (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)") }
            return range
        }, describe: { $0.description })
    }
}

/// `--listen`'s HOST:PORT.
struct ListenAddress: Sendable, Equatable {
    var host: String
    var port: Int
}

extension ArgumentValue where Value == ListenAddress {
    static var listenAddress: ArgumentValue {
        ArgumentValue(placeholder: "HOST:PORT", parse: { text throws(InvalidValue) in
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
                throw .not(text, "HOST:PORT (e.g. 127.0.0.1:8080, [::1]:8080)")
            }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw .not(text, "HOST:PORT (e.g. 127.0.0.1:8080, [::1]:8080)") }
            return ListenAddress(host: host, port: port)
        }, describe: { $0.host.contains(":") ? "[\($0.host)]:\($0.port)" : "\($0.host):\($0.port)" })
    }
}
