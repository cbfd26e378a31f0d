import AdDecisioning
import Foundation
import FuzzSupport

/// Fuzz target `urlmap`: any text as a `--url-map` file must give a map or a `DecisioningError`; the URL after
/// the first NUL byte (or a fixed one) is then mapped through it, and a URL the map accepts must stay inside the
/// folder of its rule (docs/SECURITY.md, "Origin policy"): an escape stops the run as a finding.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzURLMap(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let pieces = FuzzInput.pieces(UnsafeRawBufferPointer(start: data, count: size), limit: 2)
    let text = String(decoding: pieces[0], as: UTF8.self)
    guard let map = try? URLMap(parsing: text, file: "fuzz.urlmap", directory: "/nonexistent/pipctl-fuzz") else { return 0 }
    let url = pieces.count > 1 ? String(decoding: pieces[1], as: UTF8.self) : "http://ads.example/media/ad.mp4"
    if let path = map.localPath(for: url), let rule = map.rules.first(where: { url.hasPrefix($0.urlPrefix) }) {
        let base = (rule.localPrefix as NSString).standardizingPath
        let folder = rule.localPrefix.hasSuffix("/") ? base : (base as NSString).deletingLastPathComponent
        if path != base, !path.hasPrefix(folder == "/" ? "/" : folder + "/") {
            fatalError("url-map escape: \(url) maps to \(path), outside \(folder)")
        }
    }
    if let location = ResourceLocation.file("/nonexistent/pipctl-fuzz/top.xml").resolving(url) {
        _ = try? map.apply(to: location)
    }
    return 0
}

FuzzDriver.run { fuzzURLMap($0, $1) }
