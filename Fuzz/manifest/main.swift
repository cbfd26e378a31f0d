import Foundation
import Batch
import FuzzSupport

/// Fuzz target `manifest`: any bytes as a batch manifest give jobs and per-line errors, never a crash; every job has
/// an id within its limits, names its fields, and no two jobs share an id or an output; every error names a line
/// of the input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(UnsafeRawBufferPointer(start: data, count: size))
    guard let manifest = try? BatchManifest(data: bytes, path: "fuzz.jsonl", directory: "/fuzz") else { return 0 }
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    var ids = Set<String>(), outputs = Set<String>()
    for job in manifest.jobs {
        precondition(!job.id.isEmpty && job.id.count <= BatchManifest.maximumIDLength)
        precondition(!job.output.isEmpty && job.inputsAsWritten.allSatisfy { !$0.isEmpty })
        precondition(ids.insert(job.id).inserted, "two jobs with the id \(job.id)")
        precondition(outputs.insert(BatchManifest.resolve(job.output, in: "/fuzz")).inserted, "two jobs writing \(job.output)")
        precondition(job.options.map(\.name) == job.options.map(\.name).sorted())
        if case .content(_, .breaks(let breaks)) = job.source { precondition(!breaks.isEmpty) }
    }
    for error in manifest.errors {
        precondition(error.line >= 1 && error.line <= lines)
        // What reaches a terminal has no control character left.
        precondition(!PrintableText.escaping(error.description).unicodeScalars.contains(where: PrintableText.isControl))
    }
    precondition(manifest.entries.map(\.line) == manifest.entries.map(\.line).sorted())
    return 0
}

FuzzDriver.run { fuzzManifest($0, $1) }
