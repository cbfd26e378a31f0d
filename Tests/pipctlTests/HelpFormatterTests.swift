import Testing
@testable import pipctl

@Suite struct HelpFormatterTests {
    static let commands = Pipctl.tree.allCommands(named: "pipctl").map(\.command)

    func help(_ command: String) throws -> (node: CommandNode, text: String) {
        let words = command.split(separator: " ").dropFirst()
        var node = Pipctl.tree
        for word in words {
            guard let next = node.subcommands.first(where: { $0.definition.name == word }) else {
                throw UsageError(command: command, message: "no such command")
            }
            node = next
        }
        let text = HelpFormatter().help(command: command, definition: node.definition,
                                        subcommands: node.subcommands.map(\.definition), hasVersion: node.version != nil)
        return (node, text)
    }

    @Test(arguments: commands)
    func describesEveryParameterWithItsDefault(command: String) throws {
        let (node, text) = try help(command)
        #expect(text.hasPrefix("OVERVIEW: \(node.definition.abstract)"))
        #expect(text.contains("USAGE: \(command) "))
        for spec in node.definition.parameters {
            let label = spec.kind == .positional ? spec.placeholder! : "--" + spec.long!
            #expect(text.contains(label), "\(command) help lacks \(label)")
            if let short = spec.short { #expect(text.contains("-\(short), --\(spec.long!)")) }
            if let value = spec.defaultDescription {
                // Wrapping may break the default over lines; compare without line breaks and indentation.
                let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(flat.contains("(default: \(value))"), "\(command) help lacks the default of \(spec.name)")
            }
            for word in spec.choices { #expect(text.contains(word)) }
        }
        #expect(text.contains("-h, --help"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(command) help is wider than 80 columns")
    }

    @Test func showsRequiredParametersBareAndOptionalOnesInBrackets() throws {
        let text = try help("pipctl testsrc").text
        #expect(text.contains("USAGE: pipctl testsrc -o FILE --duration SEC [--size WxH]"))
        let inspect = try help("pipctl ads inspect").text
        #expect(inspect.contains("USAGE: pipctl ads inspect FILE|URL [--content-duration SEC]"))
        #expect(inspect.contains("ARGUMENTS:\n  FILE|URL"))
    }

    @Test func showsExclusiveParametersAsOneChoiceAndRepeatingOnesWithAnEllipsis() throws {
        let text = try help("pipctl render").text
        #expect(text.contains("[--ads VMAP|VAST|URL | --break TIME=FILE[,FILE...] ...]"))
        #expect(text.contains("May be repeated."))
        #expect(text.contains("renders the bundled demo"))
    }

    @Test func listsLongChoicesInTheTextAndShortOnesInThePlaceholder() throws {
        let text = try help("pipctl render").text
        #expect(text.contains("--profile delivery|lossless"))
        #expect(text.contains("--preset NAME"))
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("One of: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow."))
    }

    @Test func renderHelpSaysPassthroughWritesHLS() throws {
        let flat = try help("pipctl render").text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!flat.contains("no device, HLS or"))
        #expect(flat.contains("with --hls, to segments cut at its keyframes"))
    }

    @Test(arguments: ["pipctl render", "pipctl play"])
    func pictureInPictureOptionsDescribeThePlayersWindowOnADevice(command: String) throws {
        let flat = try help(command).text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("a fraction of the player's width: the output's, or with --device or a session file the player's window in its scene"))
        #expect(flat.contains("sits: the output's, or on a device the player's window's, inside its safe area and above its banner"))
        #expect(!flat.contains("fraction of the output width"))
    }

    @Test func loudnessHelpStatesTheCeilingTheLimiterUses() throws {
        // The limiter keeps gained sound under SoundGain.ceiling, -2 dBTP, as docs/LOUDNESS.md says; the help said -1.
        let flat = try help("pipctl render").text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(RenderCommand.ceiling == "-2")
        #expect(flat.contains("limiter keeps each gained source under -2 dBTP"))
        #expect(!flat.contains("under -1 dBTP"))
    }

    @Test func wrapsUnitsWithoutSplittingThem() {
        let lines = TextWrapper(width: 20).wrap(units: ["[--size WxH]", "[--fps RATE]", "[--json]"],
                                                firstIndent: "USAGE: x ", indent: "         ")
        #expect(lines == ["USAGE: x [--size WxH]", "         [--fps RATE]", "         [--json]"])
    }
}
