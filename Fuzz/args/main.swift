import FuzzSupport

/// Fuzz target `args`: any command line (arguments separated by NUL bytes) through pipctl's command tree and
/// argument parser, then through the chosen command's typed options, must give options, help or a
/// `UsageError`, never a crash. Nothing runs: the options are built and dropped.
///
/// Each command in the tree carries its own options check, so a new command is fuzzed as soon as it is in the tree.
///
/// This file is compiled together with pipctl's own sources (the `pipctl` symlink beside it, `main.swift`
/// excluded), so it sees the real command definitions.
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
        _ = try? node.checkOptions?(parsed)
    }
    return 0
}

FuzzDriver.run { fuzzArguments($0, $1) }
