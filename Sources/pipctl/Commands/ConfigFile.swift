import Batch
import Foundation
import MediaCore

/// `--config FILE`: a command's options as one JSON object, for deployments that keep them in a file (a Kubernetes
/// ConfigMap, a file beside a systemd unit): `{"origin": "/srv/hls", "ads": "https://ads.example/vmap?s=[session.id]",
/// "listen": "0.0.0.0:8080", "trusted-proxy": ["10.0.0.0/8"]}`. Each member is one of the command's long options and
/// its value as a batch job's `options` gives one (`ParameterSpec.arguments`). The file's options go in front of the
/// command line's: an option given in both takes the command line's value, and a repeating one adds the command
/// line's to the file's. A file that is not a JSON object of the command's options, within `maximumBytes`, is one line
/// naming the file and the member, before anything runs.
enum ConfigFile {
    /// The option that names the file; a command has it when its definition lists it.
    static let option = "config"
    static let maximumBytes = 64 << 10

    /// `arguments` with the options of the file that `--config` names in front of them; as they are when there is
    /// none, or when help is asked for.
    static func expand(_ arguments: [String], definition: CommandDefinition, command: String) throws(UsageError) -> [String] {
        guard definition.parameters.contains(where: { $0.long == option }) else { return arguments }
        var file: String?
        var i = 0
        while i < arguments.count, arguments[i] != "--" {
            let token = arguments[i]
            if token == "-h" || token == "--help" { return arguments }
            if token == "--" + option, i + 1 < arguments.count {
                file = arguments[i + 1]
                i += 1
            } else if token.hasPrefix("--\(option)=") {
                file = String(token.dropFirst(option.count + 3))
            }
            i += 1
        }
        guard let file else { return arguments }
        func fail(_ member: String?, _ message: String) -> UsageError {
            UsageError(command: command, message: "--\(option) \(quoted(file)): " + (member.map { "\($0): " } ?? "") + message)
        }
        let data: Data
        do { data = try BoundedRead.contents(ofFile: file, limit: maximumBytes) } catch { throw fail(nil, "\(error)") }
        let options: [BatchJob.Option]
        do { options = try BatchManifest.options(ofJSONObject: data) } catch { throw fail(error.path, error.message) }
        let settable = definition.parameters.filter { $0.long != nil && $0.long != option && $0.kind != .positional }
        var expanded: [String] = []
        for given in options {
            guard let spec = settable.first(where: { $0.long == given.name }) else {
                let guess = Suggestion.closest(to: given.name, among: settable.compactMap(\.long)).map { " (did you mean \($0)?)" } ?? ""
                throw fail(given.name, "not an option of \(command)\(guess)")
            }
            let words: [String]
            do { words = try spec.arguments(given.value) } catch { throw fail(given.name, error.explanation) }
            // Each value checked here, so that a wrong one names the file; `--name=value`, so that a value starting
            // with a dash stays a value.
            guard let convert = spec.convert else {
                expanded += words
                continue
            }
            for value in stride(from: 1, to: words.count, by: 2).map({ words[$0] }) {
                do { _ = try convert(value) } catch { throw fail(given.name, error.explanation) }
                expanded.append("\(spec.name)=\(value)")
            }
        }
        return expanded + arguments
    }
}
