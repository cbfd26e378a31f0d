import Foundation
import MediaCore
import Serving
import Testing
@testable import pipctl

/// `pipctl serve --config FILE`: the options of a JSON file, checked as the command line's are, with the command line
/// winning; a wrong file is one line naming it and the member.
@Suite struct ConfigFileTests {
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory() }

    func file(_ text: String, name: String = "serve.json") throws -> String {
        let path = scratch.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func serve(_ arguments: [String]) throws -> ServeCommand.Options {
        guard case .run(_, let parsed, _) = try Pipctl.tree.resolve(["serve"] + arguments, command: "pipctl") else {
            throw UsageError(command: "test", message: "not a run")
        }
        return ServeCommand.Options(parsed)
    }

    func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try Pipctl.tree.resolve(["serve"] + arguments, command: "pipctl")
            return nil
        } catch {
            return error.description
        }
    }

    static let config = #"""
        {"origin": "/srv/hls", "ads": "https://ads.example/vmap?s=[session.id]", "listen": "0.0.0.0:8081",
         "max-sessions": 5000, "stitch-wait": 2.5, "trusted-proxy": ["10.0.0.0/8", "fd00::/8"], "loudness": "off"}
        """#

    @Test func aFileGivesEveryOptionItNames() throws {
        let options = try serve(["--config", try file(Self.config)])
        #expect(options.origin == "/srv/hls" && options.ads == "https://ads.example/vmap?s=[session.id]")
        #expect(options.listen == ListenAddress(host: "0.0.0.0", port: 8081))
        #expect(options.maximumSessions == 5000 && options.stitchWait.seconds == Rational(5, 2))
        #expect(options.trustedProxies.map(\.description) == ["10.0.0.0/8", "fd00::/8"])
        #expect(options.loudness == .off)
        // What the file leaves out keeps its default.
        #expect(options.threads == 2)
    }

    @Test func theCommandLineWinsAndARepeatingOptionAddsToTheFiles() throws {
        let options = try serve(["--listen", "127.0.0.1:9000", "--config=\(try file(Self.config))", "--trusted-proxy", "192.168.0.1"])
        #expect(options.listen == ListenAddress(host: "127.0.0.1", port: 9000))
        #expect(options.trustedProxies.map(\.description) == ["10.0.0.0/8", "fd00::/8", "192.168.0.1"])
    }

    @Test func aRequiredOptionMayComeFromEither() throws {
        let options = try serve(["--config", try file(#"{"origin": "/srv/hls"}"#), "--ads", "http://ads.example/v"])
        #expect(options.origin == "/srv/hls" && options.ads == "http://ads.example/v")
        #expect(refusal(["--config", try file(#"{"origin": "/srv/hls"}"#)]) == "pipctl serve: missing required option --ads URL")
    }

    @Test(arguments: [
        (#"{"origin": "/srv", "ads": "http://a/v", "threads": 100}"#, #"threads: "100" is not between 1 and 64"#),
        (#"{"origin": "/srv", "ads": "http://a/v", "lisen": "0.0.0.0:80"}"#, "lisen: not an option of pipctl serve (did you mean listen?)"),
        (#"{"origin": "/srv", "ads": "http://a/v", "listen": ["0.0.0.0:80", "0.0.0.0:81"]}"#, "listen: takes one value, not a list"),
        (#"{"origin": "/srv", "ads": "http://a/v", "trusted-proxy": [true]}"#, "trusted-proxy[0]: expected a string or a number, not a boolean"),
        (#"{"origin": "/srv", "ads": "http://a/v", "threads": {"n": 2}}"#, "threads: expected a string, a number, a boolean or a list of those, not an array or object"),
        (#"{"origin": "/srv", "config": "other.json"}"#, "config: not an option of pipctl serve"),
        (#"["--origin", "/srv"]"#, "expected an object of options, not a list"),
        (#"{"origin": "/srv""#, "not a JSON object"),
    ])
    func aWrongFileIsOneLineNamingItAndTheMember(text: String, message: String) throws {
        let path = try file(text)
        let refused = try #require(refusal(["--config", path]))
        #expect(refused.hasPrefix("pipctl serve: --config \"\(path)\": \(message)"), "\(refused)")
        #expect(!refused.contains("\n"))
    }

    @Test func aMissingOrOversizedFileIsOneLine() throws {
        let missing = scratch.path("none.json")
        #expect(refusal(["--config", missing])?.hasPrefix("pipctl serve: --config \"\(missing)\": cannot be read (No such file") == true)
        let large = try file("{\"origin\": \"" + String(repeating: "a", count: ConfigFile.maximumBytes) + "\"}", name: "large.json")
        #expect(refusal(["--config", large]) == "pipctl serve: --config \"\(large)\": larger than the limit of 65536 bytes")
    }

    @Test func helpIsHelpWhateverTheFile() throws {
        guard case .help = try Pipctl.tree.resolve(["serve", "--config", scratch.path("none.json"), "--help"], command: "pipctl") else {
            Issue.record("no help")
            return
        }
    }
}
