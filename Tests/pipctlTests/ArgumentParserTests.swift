import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import Rendering
import Testing
@testable import pipctl

/// A command that declares one parameter of every kind and value type.
private enum Fixture {
    enum Mode: String, CaseIterable, Sendable { case fast, slow }

    static let input = Parameter.positional(.text("IN"), help: "Input.")
    static let size = Parameter.option("size", .size, default: PixelSize(width: 640, height: 360), help: "Size.")
    static let fps = Parameter.option("fps", .frameRate, default: FrameRate(30), help: "Rate.")
    static let start = Parameter.optional("start", .time, absent: "0", help: "Start.")
    static let duration = Parameter.optional("duration", .seconds(), absent: "all", help: "Length.")
    static let crf = Parameter.option("crf", .integer(in: 0...51), default: 23, help: "Quality.")
    static let mode = Parameter.option("mode", .choice(Mode.self), default: .fast, help: "Mode.")
    static let fraction = Parameter.option(
        "fraction", .number("F", above: .zero, atMost: .one, examples: "0.5"), default: Rational(1, 2), help: "Part.")
    static let output = Parameter.optional("output", short: "o", .text("FILE"), absent: "out", help: "Output.")
    static let ads = Parameter.optional("ads", .location("DOC"), absent: "none", help: "Ads.")
    static let breaks = Parameter.repeating("break", .adBreak, absent: "none", help: "Breaks.")
    static let script = Parameter.optional("script", .script, absent: "none", help: "Script.")
    static let json = Parameter.flag("json", help: "JSON.")

    static let definition = CommandDefinition(
        name: "fixture", abstract: "Test.", discussion: "Test.",
        parameters: [input, size, fps, start, duration, crf, mode, fraction, output, ads, breaks, script, json],
        exclusive: [[ads, breaks]])

    static let parser = ArgumentParser(command: "pipctl fixture", definition: definition)

    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        switch try parser.parse(arguments) {
        case .arguments(let parsed): return parsed
        case .help: throw UsageError(command: "test", message: "unexpected help")
        }
    }

    /// The message of the usage error `arguments` cause, or nil.
    static func error(_ arguments: [String]) -> String? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }
}

@Suite struct ArgumentParserTests {
    @Test func readsDefaultsForWhatIsNotGiven() throws {
        let parsed = try Fixture.parse(["in.mp4"])
        #expect(parsed[Fixture.input] == "in.mp4")
        #expect(parsed[Fixture.size] == PixelSize(width: 640, height: 360))
        #expect(parsed[Fixture.fps] == FrameRate(30))
        #expect(parsed[Fixture.start] == nil)
        #expect(parsed[Fixture.crf] == 23)
        #expect(parsed[Fixture.mode] == .fast)
        #expect(parsed[Fixture.breaks].isEmpty)
        #expect(parsed[Fixture.json] == false)
        #expect(!parsed.isGiven(Fixture.size))
    }

    /// Both GNU spellings of a value: `--name value` and `--name=value`.
    static func spellings(_ name: String, _ value: String) -> [[String]] {
        [["in", "--\(name)", value], ["in", "--\(name)=\(value)"]]
    }

    @Test(arguments: [("1280x720", PixelSize(width: 1280, height: 720)), ("2X2", PixelSize(width: 2, height: 2))])
    func parsesSizes(text: String, expected: PixelSize) throws {
        for arguments in Self.spellings("size", text) { #expect(try Fixture.parse(arguments)[Fixture.size] == expected) }
    }

    @Test(arguments: [("30000/1001", FrameRate(30000, 1001)), ("29.97", FrameRate(2997, 100)), ("25", FrameRate(25))])
    func parsesFrameRatesExactly(text: String, expected: FrameRate) throws {
        for arguments in Self.spellings("fps", text) { #expect(try Fixture.parse(arguments)[Fixture.fps] == expected) }
    }

    @Test(arguments: [("90", Rational(90)), ("1:30", Rational(90)), ("0:00:01.25", Rational(5, 4)), ("0", .zero)])
    func parsesTimes(text: String, seconds: Rational) throws {
        for arguments in Self.spellings("start", text) {
            #expect(try Fixture.parse(arguments)[Fixture.start] == MediaTime(seconds: seconds))
        }
    }

    @Test(arguments: [("2.5", Rational(5, 2)), ("1:00", Rational(60))])
    func parsesDurations(text: String, seconds: Rational) throws {
        for arguments in Self.spellings("duration", text) {
            #expect(try Fixture.parse(arguments)[Fixture.duration] == MediaDuration(seconds: seconds))
        }
    }

    @Test(arguments: [("0", 0), ("51", 51), ("18", 18)])
    func parsesIntegersWithinTheirRange(text: String, expected: Int) throws {
        for arguments in Self.spellings("crf", text) { #expect(try Fixture.parse(arguments)[Fixture.crf] == expected) }
    }

    @Test func parsesEnumerationsAndFractions() throws {
        for arguments in Self.spellings("mode", "slow") { #expect(try Fixture.parse(arguments)[Fixture.mode] == .slow) }
        for arguments in Self.spellings("fraction", "1/3") {
            #expect(try Fixture.parse(arguments)[Fixture.fraction] == Rational(1, 3))
        }
    }

    @Test(arguments: [
        ("https://ads.example/vmap.xml?x=1", InputLocation.url(URL(string: "https://ads.example/vmap.xml?x=1")!)),
        ("vmap.xml", .file(path: "vmap.xml")), ("file:///tmp/a%20b.xml", .file(path: "/tmp/a b.xml")),
    ])
    func tellsFilesFromURLs(text: String, expected: InputLocation) throws {
        for arguments in Self.spellings("ads", text) { #expect(try Fixture.parse(arguments)[Fixture.ads] == expected) }
    }

    @Test(arguments: [
        ("pre=a.mp4", BreakOffset.start, ["a.mp4"]),
        ("1:30.5=a.mp4,b.mp4", .time(MediaTime(seconds: Rational(181, 2))), ["a.mp4", "b.mp4"]),
        ("50%=b.mp4", .fraction(Rational(1, 2)), ["b.mp4"]),
        ("post=c.mp4", .end, ["c.mp4"]),
    ])
    func parsesQuickBreaks(text: String, offset: BreakOffset, files: [String]) throws {
        for arguments in Self.spellings("break", text) {
            let parsed = try Fixture.parse(arguments)[Fixture.breaks]
            #expect(parsed.map(\.quick.offset) == [offset] && parsed.map(\.quick.files) == [files])
        }
    }

    @Test func readsScriptsInlineOrFromAFile() throws {
        #expect(try Fixture.parse(["in", "--script", "@cues.txt"])[Fixture.script] == .file(path: "cues.txt"))
        #expect(try Fixture.parse(["in", "--script=5 pip start"])[Fixture.script] == .text("5 pip start"))
    }

    @Test func keepsEveryOccurrenceOfARepeatingOptionInOrderAndTheLastOfOthers() throws {
        let parsed = try Fixture.parse(["in", "--break", "pre=a.mp4", "--crf", "10", "--break=post=b.mp4", "--crf=12"])
        #expect(parsed[Fixture.breaks].map(\.quick.files) == [["a.mp4"], ["b.mp4"]])
        #expect(parsed[Fixture.crf] == 12)
    }

    @Test func takesShortOptionValuesSeparateOrAttached() throws {
        #expect(try Fixture.parse(["in", "-o", "x.mp4"])[Fixture.output] == "x.mp4")
        #expect(try Fixture.parse(["-ox.mp4", "in"])[Fixture.output] == "x.mp4")
    }

    @Test func treatsEverythingAfterDoubleDashAsPositional() throws {
        let parsed = try Fixture.parse(["--json", "--", "--fps"])
        #expect(parsed[Fixture.input] == "--fps")
        #expect(parsed[Fixture.json] == true)
        #expect(try Fixture.parse(["--", "-"])[Fixture.input] == "-")
    }

    @Test func acceptsValuesThatStartWithADash() throws {
        #expect(try Fixture.parse(["in", "--script", "-5 pip"])[Fixture.script] == .text("-5 pip"))
        #expect(try Fixture.parse(["in", "--script=--odd"])[Fixture.script] == .text("--odd"))
    }

    @Test(arguments: [["--help"], ["-h"], ["in", "--fps", "abc", "--help"], ["--zzz", "-h"]])
    func asksForHelpEvenWhenOtherArgumentsAreWrong(arguments: [String]) throws {
        guard case .help = try Fixture.parser.parse(arguments) else {
            Issue.record("\(arguments) did not ask for help")
            return
        }
    }

    @Test func helpAfterDoubleDashIsAnArgument() throws {
        #expect(try Fixture.parse(["--", "--help"])[Fixture.input] == "--help")
    }

    @Test(arguments: [
        (["in", "--fsp", "30"], "unknown option --fsp (did you mean --fps?)"),
        (["in", "--siz=2x2"], "unknown option --siz (did you mean --size?)"),
        (["in", "--dur", "3"], "unknown option --dur (did you mean --duration?)"),
        (["in", "-fps", "30"], "unknown option -fps (did you mean --fps?)"),
        (["in", "--frobnicate"], "unknown option --frobnicate"),
        (["in", "-x"], "unknown option -x"),
        (["in", "--fps"], "missing value for --fps RATE"),
        (["in", "--fps", "--json"], "missing value for --fps RATE"),
        (["in", "-o"], "missing value for -o FILE"),
        (["in", "-o", "--json"], "missing value for -o FILE"),
        (["in", "--fps", "abc"], "--fps: \"abc\" is not a frame rate (e.g. 30, 25, 30000/1001)"),
        (["in", "--fps=0"], "--fps: \"0\" is not a frame rate (e.g. 30, 25, 30000/1001)"),
        (["in", "--size", "640"], "--size: \"640\" is not a size (e.g. 640x360)"),
        (["in", "--size="], "--size: \"\" is not a size (e.g. 640x360)"),
        (["in", "--crf", "70"], "--crf: \"70\" is not between 0 and 51"),
        (["in", "--crf", "x"], "--crf: \"x\" is not a whole number"),
        (["in", "--mode", "medium"], "--mode: \"medium\" is not one of: fast, slow"),
        (["in", "--start", "1:75"], "--start: \"1:75\" is not a time (e.g. 90, 12.5, 1:30, 0:01:30.250)"),
        (["in", "--duration", "0"], "--duration: \"0\" is not a positive duration"),
        (["in", "--duration", "soon"], "--duration: \"soon\" is not a duration in seconds (e.g. 30, 2.5, 1:30)"),
        (["in", "--fraction", "1.5"], "--fraction: \"1.5\" is not a number above 0 and at most 1 (e.g. 0.5)"),
        (["in", "--ads", "ftp://x/y"], "--ads: \"ftp://x/y\" is not a file or an http(s) URL"),
        (["in", "--break", "30"],
         "--break: \"30\": expected TIME=FILE[,FILE…]"),
        (["in", "--break", "x=a.mp4"], "--break: \"x=a.mp4\": TIME 'x' is not pre, post, seconds, hh:mm:ss[.mmm] or n% (0-100)"),
        (["in", "--break", "30=a.mp4,"], "--break: \"30=a.mp4,\": empty FILE in the list"),
        (["in", "--script", "@"], "--script: \"@\" is not a script or @FILE: the file name is empty"),
        (["in", "--output", ""], "--output: the value is empty"),
        (["in", "--json=yes"], "--json does not take a value (given \"yes\")"),
        (["in", "--help=yes"], "--help does not take a value (given \"yes\")"),
        ([], "missing required argument IN"),
        (["in", "extra"], "unexpected argument \"extra\""),
        (["in", "--ads", "a.xml", "--break", "pre=a.mp4"], "--ads and --break cannot be used together"),
        (["in", "--fps", "x", "--crf", "99"], "--fps: \"x\" is not a frame rate (e.g. 30, 25, 30000/1001)"),
    ])
    func reportsTheFirstMistakeInOneLine(arguments: [String], message: String) {
        #expect(Fixture.error(arguments) == "pipctl fixture: " + message)
    }

    @Test(arguments: [(Rational(1, 4), "0.25"), (Rational(1, 3), "1/3"), (Rational(-3, 2), "-1.5"), (Rational(8), "8"),
                      (Rational(1001, 1000), "1.001")])
    func showsDefaultsAsTheyWouldBeTyped(value: Rational, text: String) {
        #expect(exactDecimal(value) == text)
    }

    @Test func suggestsTranspositionsAndAbbreviationsButNotFarWords() {
        #expect(Suggestion.closest(to: "fsp", among: ["fps", "size"]) == "fps")
        #expect(Suggestion.closest(to: "pip-cornr", among: ["pip-corner", "pip-size"]) == "pip-corner")
        #expect(Suggestion.closest(to: "time", among: ["timeline", "timeout"]) == "timeout", "the shortest expansion")
        #expect(Suggestion.closest(to: "colour", among: ["fps", "size"]) == nil)
    }
}
