import AdDecisioning
import FuzzSupport

/// Fuzz target `vast`: any bytes through the VAST parser must give a document or a `DecisioningError`.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzVAST(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(UnsafeRawBufferPointer(start: data, count: size))
    _ = try? VASTParser().parse(bytes, source: "fuzz.xml")
    return 0
}

FuzzDriver.run { fuzzVAST($0, $1) }
