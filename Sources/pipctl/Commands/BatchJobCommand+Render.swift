import AdDecisioning
import Foundation
import Batch

/// A manifest job as a `pipctl render` command line, checked by render's own parser before anything runs, with
/// the files it reads and writes.
extension BatchJobCommand {
    /// Options the job's own fields set, and what to use instead.
    static let reservedOptions: [String: String] = [
        "content": "the job's content field", "ads": "the job's ads field", "break": "the job's breaks field",
        "session": "the job's session field",
        "output": "the job's output field", "o": "the job's output field",
        "hls": "not available in a batch yet: each job writes one MP4",
        "help": "not a render option",
    ]
    /// Render options whose value is a file the job reads, for its fingerprint.
    static let inputOptions: Set<String> = ["url-map", "script", "pip-background", "session", "font"]

    /// - Parameter directory: the manifest's directory, where the job runs (a session file is read from there).
    init(rendering job: BatchJob, directory: String) throws(BatchLineError) {
        func fail(_ path: String?, _ message: String) -> BatchLineError {
            BatchLineError(line: job.line, id: job.id, path: path, message: message)
        }
        let specs = RenderCommand.definition.parameters.filter { $0.long != nil }
        var arguments: [String]
        var inputs = job.inputsAsWritten
        switch job.source {
        case .content(let content, .document(let document)): arguments = ["--content", content, "--ads", document]
        case .content(let content, .breaks(let breaks)): arguments = ["--content", content] + breaks.flatMap { ["--break", $0] }
        case .session(let file): arguments = ["--session", file]
        }
        arguments += ["-o", job.output]
        var optionFiles: [String: String] = [:]
        for option in job.options {
            let path = "options." + option.name
            if let why = BatchJobCommand.reservedOptions[option.name] { throw fail(path, "cannot be set here: \(why)") }
            guard let spec = specs.first(where: { $0.long == option.name }) else {
                let guess = Suggestion.closest(to: option.name, among: specs.compactMap(\.long)).map { " (did you mean \($0)?)" } ?? ""
                throw fail(path, "not an option of pipctl render\(guess)")
            }
            do { arguments += try spec.arguments(option.value) } catch { throw fail(path, error.explanation) }
            if spec.kind == .option, case .text(let values) = option.value { optionFiles[option.name] = values.first }
        }
        // Render's parser checks every value as it would on a command line.
        let parsed: ParsedArguments
        do {
            switch try ArgumentParser(command: "pipctl render", definition: RenderCommand.definition).parse(arguments) {
            case .help: throw fail("options", "asks for help")
            case .arguments(let result): parsed = result
            }
        } catch let error as UsageError {
            let option = error.message.prefix { $0 != ":" }
            let name = option.hasPrefix("--") ? String(option.dropFirst(2)) : nil
            let path: String? = switch name {
            case "content": "content"
            case "session": "session"
            case "ads": "ads"
            case "break": "breaks"
            case "output": "output"
            case let name?: "options." + name
            case nil: nil
            }
            let message = name == nil ? error.message : String(error.message.dropFirst(option.count + 1)).trimmingCharacters(in: .whitespaces)
            throw fail(path, message)
        } catch let error as BatchLineError {
            throw error
        } catch {
            throw fail(nil, "\(error)")
        }
        inputs += parsed[SessionOptions.breaks].flatMap(\.quick.files)
        // Local ads documents, and the media and documents they name (found without the network).
        var documents: [String] = []
        var urlMap = optionFiles["url-map"].map { BatchManifest.resolve($0, in: directory) }
        if case .content(_, .document(let document)) = job.source { documents.append(document) }
        if case .session(let file) = job.source, FileManager.default.fileExists(atPath: BatchManifest.resolve(file, in: directory)) {
            // The files the session file names (each scene's content and ads), read as render would read them; a
            // session file that is not there is a missing input like any other (the render fails on it).
            var session = SessionOptions(parsed)
            session.sessionFile = BatchManifest.resolve(file, in: directory)
            do {
                let screen = try session.screenSession(command: "pipctl")
                inputs += try session.inputFiles(screen: screen).inputs.map(\.path).filter { $0 != session.sessionFile }
                if let screen {
                    documents += screen.players.compactMap { SessionOptions.localDocument(screen.adSource(of: $0)) }
                    urlMap = urlMap ?? screen.urlMap.map(screen.resolved)
                }
            } catch let error as UsageError {
                throw fail("session", String(error.message.drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces))
            } catch {
                throw fail("session", "\(error)")
            }
        }
        var loader = AdsLoader()
        loader.settings.urlMap = urlMap.flatMap { try? URLMap.load(contentsOfFile: $0) }
        let namedInputs = documents.flatMap { document in
            loader.localFiles(of: document, relativeTo: directory).filter { $0 != BatchManifest.resolve(document, in: directory) }
        }
        inputs += BatchJobCommand.inputOptions.sorted().compactMap { optionFiles[$0] }
        let timeline = optionFiles["timeline"] ?? job.output + ".timeline.json"
        var outputs = [job.output, timeline, optionFiles["events"] ?? job.output + ".events.jsonl"]
        if let hashes = optionFiles["framehash"] { outputs.append(hashes) }
        self.init(arguments: ["render"] + arguments, inputs: inputs, namedInputs: namedInputs, outputs: outputs,
                  timeline: timeline, setsThreads: job.options.contains { $0.name == "threads" })
    }
}
