import Foundation

extension NativeAdLoader {
    /// The bytes of every icon and main image `blocks` name, each fetched once with the limits of the response's
    /// own fetch (deadline, size limit, URL map); the origin policy was applied when the block was read.
    ///
    /// - Returns: the bytes by URL, and one line for each image that could not be fetched (it is left out: its
    ///   frame shows a placeholder, as before images load).
    public func images(of blocks: [NativeBlock]) async -> (images: [String: Data], failures: [String]) {
        var images: [String: Data] = [:], failures: [String] = []
        let fetcher = DocumentFetcher(urlMap: settings.urlMap, maximumBytes: settings.maximumDocumentBytes)
        let urls = blocks.flatMap { [$0.assets] + $0.ads.map(\.assets) }.flatMap { $0 }.compactMap { asset -> String? in
            guard asset.refusal == nil, case .image(_, let url, _) = asset.content else { return nil }
            return url
        }
        for url in urls where images[url] == nil && !failures.contains(where: { $0.hasPrefix(url + ":") }) {
            guard let location = ResourceLocation(userInput: url, relativeTo: directory) else {
                failures.append("\(url): not an http(s) URL, a file: URL or a path")
                continue
            }
            do { images[url] = try await fetcher.fetch(location, timeout: settings.firstRequestTimeout) } catch {
                failures.append("\(url): \(error)")
            }
        }
        return (images, failures)
    }
}
