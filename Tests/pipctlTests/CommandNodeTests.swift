import Testing
@testable import pipctl

/// A command whose options refuse or accept everything, to see which check a node runs.
private enum RefusingCommand: Command {
    struct Options: CommandOptions {
        init(_ arguments: ParsedArguments) throws(UsageError) {
            throw UsageError(command: "pipctl parent", message: "refused")
        }
    }
    static let definition = CommandDefinition(name: "parent", abstract: "Refuse.", discussion: "Refuse.", parameters: [])
    static func run(_ options: Options, context: CommandContext) async throws {}
}

private enum AcceptingCommand: Command {
    struct Options: CommandOptions {
        init(_ arguments: ParsedArguments) throws(UsageError) {}
    }
    static let definition = CommandDefinition(name: "child", abstract: "Accept.", discussion: "Accept.", parameters: [])
    static func run(_ options: Options, context: CommandContext) async throws {}
}

/// The tree's options checks, which the `args` fuzz target runs on every command line it resolves.
@Suite struct CommandNodeTests {
    @Test func everyCommandOfPipctlThatRunsCanCheckItsOptionsAndNoGroupClaimsTo() {
        for (command, node) in Pipctl.tree.allCommands(named: "pipctl") {
            #expect((node.checkOptions != nil) == (node.action != nil), "\(command)")
        }
    }

    @Test func aNodeChecksWithItsOwnCommandsOptions() throws {
        let tree = CommandNode.group(CommandDefinition(name: "pipctl", abstract: "T.", discussion: "T."), subcommands: [
            .command(RefusingCommand.self, subcommands: [.command(AcceptingCommand.self)]),
        ])
        guard case .run(let parent, let parentArguments, _) = try tree.resolve(["parent"], command: "pipctl"),
              case .run(let child, let childArguments, let command) = try tree.resolve(["parent", "child"], command: "pipctl")
        else {
            Issue.record("the test tree did not resolve to its commands")
            return
        }
        #expect(command == "pipctl parent child")
        #expect(throws: UsageError.self) { try parent.checkOptions?(parentArguments) }
        #expect(throws: Never.self) { try child.checkOptions?(childArguments) }
    }
}
