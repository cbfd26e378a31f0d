import FuzzSupport

/// Fuzz target `args`: any command line (arguments separated by NUL bytes) through pipctl's command tree and
/// argument parser, then through the chosen command's typed options, must give options, help or a
/// `UsageError`, never a crash. Nothing runs: the options are built and dropped.
///
/// This file is compiled together with pipctl's own sources (the `pipctl` symlink beside it, `main.swift`
/// excluded), so it sees the real command definitions.
private let optionReaders: [String: @Sendable (ParsedArguments) throws -> Void] = [
    TestsrcCommand.definition.name: { _ = try TestsrcCommand.Options($0) },
    ProbeCommand.definition.name: { _ = try ProbeCommand.Options($0) },
    TranscodeCommand.definition.name: { _ = try TranscodeCommand.Options($0) },
    StampsCommand.definition.name: { _ = try StampsCommand.Options($0) },
    AdsInspectCommand.definition.name: { _ = try AdsInspectCommand.Options($0) },
    RenderCommand.definition.name: { _ = try RenderCommand.Options($0) },
    VerifyCommand.definition.name: { _ = try VerifyCommand.Options($0) },
    PlayCommand.definition.name: { _ = try PlayCommand.Options($0) },
]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let tokens = FuzzInput.pieces(UnsafeRawBufferPointer(start: data, count: size), limit: 64)
        .map { String(decoding: $0, as: UTF8.self) }
    let request: CommandNode.Request
    do { request = try Pipctl.tree.resolve(tokens, command: "pipctl") } catch { return 0 }
    switch request {
    case .help(let node, let command):
        _ = HelpFormatter().help(command: command, definition: node.definition,
                                 subcommands: node.subcommands.map(\.definition), hasVersion: node.version != nil)
    case .version:
        break
    case .run(let node, let parsed, _):
        guard let read = optionReaders[node.definition.name] else {
            fatalError("no options reader for \(node.definition.name): add it to the args fuzz target")
        }
        _ = try? read(parsed)
    }
    return 0
}

FuzzDriver.run { fuzzArguments($0, $1) }
