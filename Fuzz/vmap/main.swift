import AdDecisioning
import FuzzSupport

/// Fuzz target `vmap`: any bytes through the VMAP parser (and the VAST parser, which reads inline `VASTAdData`)
/// must give a document or a `DecisioningError`.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzVMAP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(UnsafeRawBufferPointer(start: data, count: size))
    _ = try? VMAPParser().parse(bytes, source: "fuzz.xml")
    return 0
}

FuzzDriver.run { fuzzVMAP($0, $1) }
