import Foundation
import Testing
@testable import pipctl

/// Runs the built `pipctl` binary and checks what a user or a script sees: output streams and exit status.
@Suite struct CommandLineEndToEndTests {
    static let commands = Pipctl.tree.allCommands(named: "pipctl")
        .map { (words: Array($0.command.split(separator: " ").dropFirst().map(String.init)), node: $0.node) }

    @Test(arguments: commands.indices)
    func helpOfEveryCommandExitsZeroAndNamesEveryOption(index: Int) async throws {
        let (words, node) = Self.commands[index]
        let result = try await PipctlProcess.run(words + ["--help"])
        #expect(result.exitStatus == 0)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.hasPrefix("OVERVIEW: "))
        for spec in node.definition.parameters {
            let label = spec.long.map { "--" + $0 } ?? spec.placeholder!
            #expect(result.standardOutput.contains(label), "pipctl \(words) --help lacks \(label)")
        }
        for sub in node.subcommands { #expect(result.standardOutput.contains(sub.definition.name)) }
    }

    @Test func shortHelpWorksOnANestedCommand() async throws {
        let result = try await PipctlProcess.run(["ads", "inspect", "-h"])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("USAGE: pipctl ads inspect FILE|URL"))
    }

    @Test func aUsageErrorPrintsOneLineAndAHintOnStandardErrorAndExitsTwo() async throws {
        let result = try await PipctlProcess.run(["render", "--fps", "abc"])
        #expect(result.exitStatus == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines == [
            "pipctl render: --fps: \"abc\" is not a frame rate (e.g. 30, 25, 30000/1001)",
            "See 'pipctl render --help'.",
        ])
    }

    @Test func anUnknownOptionSuggestsTheClosestOne() async throws {
        let result = try await PipctlProcess.run(["transcode", "in.mp4", "-o", "out.mp4", "--fsp", "25"])
        #expect(result.exitStatus == 2)
        #expect(result.errorLines == ["pipctl transcode: unknown option --fsp (did you mean --fps?)",
                                      "See 'pipctl transcode --help'."])
    }

    @Test func printsTheVersion() async throws {
        let result = try await PipctlProcess.run(["--version"])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput == "pipctl \(Pipctl.version)\n")
        #expect(result.standardError.isEmpty)
    }

    @Test func aRuntimeFailurePrintsOneLineNamingTheCommandAndExitsOne() async throws {
        let result = try await PipctlProcess.run(["probe", "/nonexistent/missing.mp4"])
        #expect(result.exitStatus == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("pipctl probe: ") == true)
    }
}
