import AdPlayback
import FuzzSupport

/// Fuzz target `script`: any text as a `--script` must parse or give a `ScriptError`, and what parses must come
/// back value for value from its own formatting (`SessionScript.formatted()` promises `parse(formatted())`).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzScript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(UnsafeRawBufferPointer(start: data, count: size))
    guard let script = try? SessionScript(parsing: text) else { return 0 }
    let written = script.formatted()
    guard let again = try? SessionScript(parsing: written) else {
        fatalError("the formatted script does not parse: \(written)")
    }
    precondition(again == script, "the formatted script parses to another script: \(written)")
    return 0
}

FuzzDriver.run { fuzzScript($0, $1) }
