import Foundation
import MediaCore
import Batch

/// The lines of a batch (of its shard) checked against each other's files and the batch's own before anything
/// runs: each job as render's command line, or the line's error.
///
/// A job's outputs and sidecars (output, timeline, event log, frame hashes, the record `OUT.batch.json`) may not
/// be the same file as any job's input (the media and documents its local ads documents name included) or an
/// earlier job's output: that job becomes invalid, naming both paths.
/// They may not be the manifest, the summary or the JUnit report either: that is a usage error, before anything
/// runs. Files are compared as render compares its own (`FileIdentity`: device and inode when the file exists,
/// resolved path otherwise), each identity taken once and looked up in a table, so that planning is linear in
/// the lines. The interrupt flag is polled at every line.
struct BatchPlan {
    /// In manifest order: each entry with its command line when it is a job that passed every check.
    var planned: [(entry: BatchManifest.Entry, work: BatchJobArguments?)] = []
    /// Every local file any job of the manifest reads (not only this shard's), labelled for messages.
    var inputs: [FileIdentity.Named] = []

    init(manifest: BatchManifest, entries: [BatchManifest.Entry], reserved: [FileIdentity.Named],
         interrupt: InterruptFlag, command: String) throws {
        var arguments: [Int: Result<BatchJobArguments, BatchLineError>] = [:]
        var inputTable: [FileIdentity: FileIdentity.Named] = [:]
        for job in manifest.jobs {
            try interrupt.checkpoint()
            let work = Result { () throws(BatchLineError) in try BatchJobArguments(job, directory: manifest.directory) }
            arguments[job.line] = work
            let paths = (try? work.get()).map { $0.inputs + $0.namedInputs } ?? job.inputsAsWritten
            for path in paths where !BatchManifest.isURL(path) {
                let named = FileIdentity.Named("the input of \(BatchCommand.quotedID(job.id)) (line \(job.line))",
                                               BatchManifest.resolve(path, in: manifest.directory))
                inputs.append(named)
                let identity = FileIdentity(named.path)
                if identity != .device, inputTable[identity] == nil { inputTable[identity] = named }
            }
        }
        var reservedTable: [FileIdentity: FileIdentity.Named] = [:]
        for file in reserved {
            let identity = FileIdentity(file.path)
            if identity != .device, reservedTable[identity] == nil { reservedTable[identity] = file }
        }
        var taken: [FileIdentity: FileIdentity.Named] = [:]
        for entry in entries {
            try interrupt.checkpoint()
            guard case .job(let job) = entry, let parsed = arguments[job.line] else { planned.append((entry, nil)); continue }
            let work: BatchJobArguments
            switch parsed {
            case .success(let arguments): work = arguments
            case .failure(let error): planned.append((.invalid(error), nil)); continue
            }
            let mine = (work.outputs + [JobRecord.path(forOutput: job.output)]).map {
                FileIdentity.Named("\(BatchCommand.quotedID(job.id))'s output", BatchManifest.resolve($0, in: manifest.directory))
            }
            var claimed: [FileIdentity: FileIdentity.Named] = [:]
            var collision: BatchLineError?
            for output in mine {
                let identity = FileIdentity(output.path)
                guard identity != .device else { continue }
                if let file = reservedTable[identity] {
                    throw UsageError(command: command, message: PrintableText.escaping(
                        "line \(job.line): \(output.description) is the same file as \(file.description); nothing was written"))
                }
                if let other = claimed[identity] ?? taken[identity] ?? inputTable[identity] {
                    collision = BatchLineError(line: job.line, id: job.id, path: "output",
                                               message: "\(output.path) is the same file as \(other.label)"
                                                   + (other.path == output.path ? "" : " (\(other.path))"))
                    break
                }
                claimed[identity] = output
            }
            if let collision {
                planned.append((.invalid(collision), nil))
                continue
            }
            taken.merge(claimed) { first, _ in first }
            planned.append((entry, work))
        }
    }
}
