import Foundation
import MediaCore
import Testing
@testable import pipctl

/// A command whose outcome the test chooses, to check how the runner reports each kind of ending.
private enum ActOutcome: String, CaseIterable, Sendable { case succeed, fail, interrupt, refuse }

private enum ProbeOutcomeCommand: Command {
    struct Options: CommandOptions {
        var outcome: ActOutcome
        init(_ arguments: ParsedArguments) throws(UsageError) {
            outcome = arguments[ProbeOutcomeCommand.outcome]
            if outcome == .refuse { throw arguments.usageError("--outcome refuse needs a partner option") }
        }
    }

    static let outcome = Parameter.option("outcome", .choice(ActOutcome.self), default: .succeed, help: "What happens.")
    static let definition = CommandDefinition(name: "act", abstract: "Act.", discussion: "Act.", parameters: [outcome])

    static func run(_ options: Options, context: CommandContext) async throws {
        switch options.outcome {
        case .succeed: context.output.write("done\n")
        case .fail: throw CommandFailure("cannot open \"x.mp4\":\nNo such file")
        case .interrupt:
            context.interrupt.trigger(SIGINT)
            try context.interrupt.checkpoint()
        case .refuse: break
        }
    }
}

@Suite struct ToolRunnerTests {
    struct RunResult {
        var status: Int32
        var output: String
        var errors: String
    }

    func run(_ arguments: [String], root: CommandNode = Pipctl.tree) async -> RunResult {
        let output = CapturedText(), errors = CapturedText()
        let runner = ToolRunner(root: root, output: output, errorOutput: errors, environment: [:])
        let status = await runner.run(arguments)
        return RunResult(status: status, output: output.contents, errors: errors.contents)
    }

    var testTree: CommandNode {
        .group(CommandDefinition(name: "tool", abstract: "T.", discussion: "T."), version: "9.9",
               subcommands: [.command(ProbeOutcomeCommand.self)])
    }

    @Test func reportsARuntimeFailureInOneLineWithStatusOne() async {
        let result = await run(["act", "--outcome", "fail"], root: testTree)
        #expect(result.status == 1)
        #expect(result.errors == "tool act: cannot open \"x.mp4\": No such file\n")
        #expect(result.output.isEmpty)
    }

    @Test func exitsWith128PlusTheSignalWhenInterrupted() async {
        let result = await run(["act", "--outcome", "interrupt"], root: testTree)
        #expect(result.status == 130)
        #expect(result.errors == "tool act: interrupted (SIGINT)\n")
    }

    /// A command stopped by a signal leaves the process's other files alone: removing every pending temporary file is
    /// the exiting process's step (`Pipctl.main`), not the runner's, or a render running beside it in the same
    /// process (a library user's, or another test's) would lose its output mid-write.
    @Test func anInterruptedCommandLeavesOtherWorksTemporaryFilesAlone() async throws {
        let dir = try ScratchDirectory()
        let other = try AtomicFile(destination: dir.path("other.mp4"))
        try other.append(Data("half a render".utf8))
        let result = await run(["act", "--outcome", "interrupt"], root: testTree)
        #expect(result.status == 130)
        #expect(FileManager.default.fileExists(atPath: other.temporaryPath))
        try other.commit()
        #expect(try String(contentsOfFile: dir.path("other.mp4"), encoding: .utf8) == "half a render")
    }

    @Test func reportsUsageErrorsFoundWhenReadingOptions() async {
        let result = await run(["act", "--outcome=refuse"], root: testTree)
        #expect(result.status == 2)
        #expect(result.errors == "tool act: --outcome refuse needs a partner option\nSee 'tool act --help'.\n")
    }

    @Test func succeedsWithStatusZero() async {
        let result = await run(["act"], root: testTree)
        #expect(result.status == 0 && result.output == "done\n" && result.errors.isEmpty)
    }

    @Test func warningsNameTheCommand() {
        let errors = CapturedText()
        let context = CommandContext(command: "pipctl render", output: CapturedText(), errorOutput: errors,
                                     environment: [:], interrupt: InterruptFlag())
        context.warn("ad 2 of break 1 has no playable media file")
        #expect(errors.contents == "pipctl render: warning: ad 2 of break 1 has no playable media file\n")
    }

    @Test func printsTheVersion() async {
        let result = await run(["--version"], root: testTree)
        #expect(result.status == 0 && result.output == "tool 9.9\n")
    }

    @Test(arguments: [
        (["rendr"], "pipctl: unknown command \"rendr\" (did you mean render?)", "See 'pipctl --help'."),
        (["ads", "inspekt"], "pipctl ads: unknown command \"inspekt\" (did you mean inspect?)",
         "See 'pipctl ads --help'."),
        (["--verison"], "pipctl: unknown option --verison (did you mean --version?)", "See 'pipctl --help'."),
        (["--fps", "30", "render"],
         "pipctl: unknown option --fps (options go after the command: 'pipctl <command> --fps')", "See 'pipctl --help'."),
        (["render", "--fps", "abc"], "pipctl render: --fps: \"abc\" is not a frame rate (e.g. 30, 25, 30000/1001)",
         "See 'pipctl render --help'."),
        (["testsrc", "-o", "a.mp4"], "pipctl testsrc: missing required option --duration SEC",
         "See 'pipctl testsrc --help'."),
        (["ads", "inspect", "vast.xml", "--max-wrapper", "3"],
         "pipctl ads inspect: unknown option --max-wrapper (did you mean --max-wrappers?)",
         "See 'pipctl ads inspect --help'."),
        (["render", "--size", "641x360"], "pipctl render: --size: \"641x360\" is not an even size (e.g. 640x360)",
         "See 'pipctl render --help'."),
        (["render", "--ads", "vmap.xml", "--break", "pre=a.mp4"],
         "pipctl render: --ads and --break cannot be used together", "See 'pipctl render --help'."),
    ])
    func reportsUsageErrorsAsOneLineAndAHint(arguments: [String], line: String, hint: String) async {
        let result = await run(arguments)
        #expect(result.status == 2)
        #expect(result.errors == line + "\n" + hint + "\n")
        #expect(result.output.isEmpty)
    }

    @Test(arguments: [[], ["ads"], ["--help"], ["ads", "-h"]])
    func showsAGroupsHelpWhenNoCommandIsGiven(arguments: [String]) async {
        let result = await run(arguments)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("OVERVIEW: "))
        #expect(result.output.contains("COMMANDS:"))
    }

    @Test func rendersTheDemoWhenGivenNoInputs() throws {
        guard case .arguments(let parsed) = try ArgumentParser(command: "pipctl render",
                                                               definition: RenderCommand.definition).parse([])
        else { throw UsageError(command: "test", message: "no arguments") }
        let options = RenderCommand.Options(parsed)
        #expect(options.session.usesDemo)
        #expect(options.output == nil)
        #expect(options.format.size == nil, "the output takes the content's size")
    }

    @Test func readsTheSessionOfPlay() throws {
        let arguments = ["--content", "c.mp4", "--break", "pre=a.mp4", "--break", "10=b.mp4", "--no-midroll",
                         "--no-background-playback", "--pip-corner", "top-left", "--speed", "2", "--send-beacons"]
        guard case .arguments(let parsed) = try ArgumentParser(command: "pipctl play",
                                                               definition: PlayCommand.definition).parse(arguments)
        else { throw UsageError(command: "test", message: "no arguments") }
        let options = PlayCommand.Options(parsed)
        #expect(!options.session.usesDemo)
        guard case .breaks(let breaks) = options.session.ads else { throw UsageError(command: "test", message: "ads") }
        #expect(breaks.map(\.quick.files) == [["a.mp4"], ["b.mp4"]])
        let breakKinds = options.session.adBreaks
        #expect(breakKinds.playsPreroll && !breakKinds.playsMidrolls && breakKinds.playsPostroll)
        #expect(!options.session.pictureInPicture.backgroundPlaybackEnabled && options.session.sendsBeacons)
        #expect(options.session.pictureInPicture.corner == .topLeft)
        #expect(options.speed.description == "2")
    }
}
