import Foundation
import HTTPServing
import LoopbackServer
import MediaCore
import Serving

/// The origin the serve tests share (`HLSOriginFixture`), and a VMAP for its sessions.
enum ServeFixture {
    static let frames = HLSOriginFixture.frames

    static func origin() throws -> String { try HLSOriginFixture.origin() }

    /// A VMAP with a pre-roll and a mid-roll at 4 s, each one inline VAST ad with its beacons.
    static func vmap(adServer: URL) -> String {
        func vast(_ id: String) -> String {
            """
            <VAST version="4.0"><Ad id="\(id)"><InLine><AdSystem>test</AdSystem><AdTitle>\(id) title</AdTitle>
            <Impression><![CDATA[\(adServer)/beacon/\(id)/impression]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05.000</Duration>
            <TrackingEvents>
            <Tracking event="start"><![CDATA[\(adServer)/beacon/\(id)/start]]></Tracking>
            <Tracking event="complete"><![CDATA[\(adServer)/beacon/\(id)/complete]]></Tracking>
            </TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[\(adServer)/media/\(id).mp4]]></MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        }
        return """
        <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
        <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre"><vmap:AdSource id="pre"><vmap:VASTAdData>\(vast("ad-pre"))</vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
        <vmap:AdBreak timeOffset="00:00:04.000" breakType="linear" breakId="mid"><vmap:AdSource id="mid"><vmap:VASTAdData>\(vast("ad-mid"))</vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
        </vmap:VMAP>
        """
    }
}

/// A `ServeResponder` behind a real `HTTPServer` on loopback, with an ad server the test controls.
struct ServeHarness {
    let server: HTTPServer
    let responder: ServeResponder
    let adServer: LoopbackHTTPServer
    let origin: String
    /// The server's access log, one JSON line per request, in the order requests ended.
    let accessLog: LockedState<[String]>

    /// - Parameters:
    ///   - stitchCache: the cache directory of a server that stitches its breaks (none when `nil`);
    ///   - stitchWait: how long a first playlist waits for them (a safety net in the tests that wait for a build);
    ///   - secret: `--secret-file`'s: sessions shared through `stitchCache` with every server started with both.
    init(adsPath: String = "/vmap", decisionTimeout: Duration = .seconds(30), maximumSessions: Int = 100_000,
         limits: HTTPServerLimits = .init(), stitchCache: String? = nil, stitchWait: Duration = .seconds(600),
         adServer: LoopbackHTTPServer? = nil, origin: String? = nil, clock: (any WallClock)? = nil,
         sessionIdleTimeout: Duration = .seconds(4 * 3600), timelineScanBytes: Int64? = nil, secret: ServeSecret? = nil) throws {
        self.origin = try origin ?? ServeFixture.origin()
        self.adServer = try adServer ?? LoopbackHTTPServer()
        let template = try AdRequestTemplate("\(self.adServer.baseURL)\(adsPath)?sid=[session.id]&ua=[session.user_agent]&ip=[session.client_ip]&genre=[player_params.genre]")
        let originDirectory = try OriginDirectory(path: self.origin)
        let stitcher = try stitchCache.map { BreakStitcher(cache: try StitchCache(directory: $0), origin: originDirectory, wait: stitchWait) }
        var settings = ServeSettings(origin: originDirectory, ads: template, decisionTimeout: decisionTimeout,
                                     maximumSessions: maximumSessions, sessionIdleTimeout: sessionIdleTimeout, stitcher: stitcher)
        if let clock { settings.clock = clock }
        if let timelineScanBytes { settings.timelineScanBytes = timelineScanBytes }
        if let secret, let stitchCache { settings.sharing = try SessionSharing(secret: secret, cacheDirectory: stitchCache) }
        responder = ServeResponder(settings: settings)
        let lines = LockedState([String]())
        accessLog = lines
        server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits, responder: responder, log: { line in
            lines.withLock { $0.append(line) }
        })
    }

    var port: Int { server.port }

    /// The paths of the requests answered (a status under 400), from the access log.
    func answeredPaths() -> [String] {
        accessLog.withLock { $0 }.compactMap { line in
            guard let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let status = entry["status"] as? Int, status < 400 else { return nil }
            return entry["path"] as? String
        }
    }

    func request(_ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil) async throws -> RawResponse {
        try await RawHTTPConnection.request(port: port, method, target, headers: headers, body: body)
    }

    func json(_ response: RawResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
    }

    /// Starts a session for `show/master.m3u8` and returns its id.
    func session(params: [String: String] = ["genre": "news & sport"], userAgent: String = "TestPlayer/2.0",
                 content: String = "show/master.m3u8") async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: ["content": content, "params": params])
        let response = try await request("POST", "/v1/sessions", headers: ["User-Agent": userAgent, "Content-Type": "application/json"],
                                   body: String(decoding: body, as: UTF8.self))
        guard response.status == 201, let id = json(response)["sessionId"] as? String else {
            throw ServeTestFailure("POST /v1/sessions answered \(response.status): \(response.text)")
        }
        return id
    }
}

struct ServeTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Debian's python3 (where `scripts/setup --for-tests` installs the independent readers: `m3u8`, `threefive`,
/// `js.videojs`), else the first on the PATH.
enum PythonScript {
    static let executable = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "/usr/bin/env"

    /// Runs `script` with `arguments` and returns its standard output; throws with its standard error when it fails.
    static func run(_ script: String, arguments: [String] = []) throws -> String {
        let scratch = try TemporaryDirectory()
        let errors = scratch.file("stderr")
        guard FileManager.default.createFile(atPath: errors, contents: nil) else {
            throw ServeTestFailure("\(errors): cannot be made")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = (executable == "/usr/bin/env" ? ["python3"] : []) + ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw ServeTestFailure("python3 exited \(process.terminationStatus): \(message)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
