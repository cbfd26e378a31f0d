import AdDecisioning
import Foundation
import FuzzSupport

/// Fuzz target `resolver`: a chain of VAST documents through the wrapper resolver, which must always return a
/// resolution (ads and errors), never crash or hang.
///
/// The input is up to four documents separated by NUL bytes, written to `a.xml` … `d.xml` in a directory of this
/// process; `a.xml` is the ad tag, and a wrapper reaches the others by relative references (`b.xml`). This is the
/// "in-memory fetcher" without a seam in the library: the resolver reads them as the local files a user passes.
/// Every `http(s)://` URL is mapped into the same directory by the URL map, so nothing goes to the network.
private let directory: String = {
    let path = NSTemporaryDirectory() + "pipctl-fuzz-resolver-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "pipctl-fuzz-resolver-\(getpid())") }
    return path
}()

private let names = ["a.xml", "b.xml", "c.xml", "d.xml"]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzResolver(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let documents = FuzzInput.pieces(UnsafeRawBufferPointer(start: data, count: size), limit: names.count)
    for (i, name) in names.enumerated() {
        let path = directory + "/" + name
        if i < documents.count {
            FileManager.default.createFile(atPath: path, contents: documents[i])
        } else {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
    var settings = AdsLoaderSettings()
    settings.urlMap = URLMap(rules: [URLMap.Rule(urlPrefix: "http://", localPrefix: directory + "/"),
                                     URLMap.Rule(urlPrefix: "https://", localPrefix: directory + "/")])
    let resolver = AdTagResolver(settings: settings)
    let tag = ResourceLocation.file(directory + "/a.xml")
    _ = FuzzInput.wait { await resolver.resolve(tag: tag) }
    return 0
}

FuzzDriver.run { fuzzResolver($0, $1) }
