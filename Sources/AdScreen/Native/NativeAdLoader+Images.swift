import AdDecisioning
import Foundation
import MediaCore

extension NativeAdLoader {
    /// The images of a block, fetched: the bytes by URL, one line for each that could not be fetched, and why each
    /// image over `PictureLimit.creatives` (read from its header) is refused, by URL.
    public struct FetchedImages: Sendable {
        public var images: [String: Data] = [:]
        public var failures: [String] = []
        public var oversized: [String: String] = [:]
        /// Every URL asked for, whatever came of it.
        public var asked: Set<String> = []

        public init() {}
    }

    /// The bytes of every icon and main image `blocks` name, each fetched once with the limits of the response's
    /// own fetch (deadline, size limit, URL map); the origin policy was applied when the block was read.
    ///
    /// - Returns: the bytes by URL, and one line for each image that could not be fetched or is larger than
    ///   `PictureLimit.creatives` (it is left out: its frame shows a placeholder, as before images load).
    public func images(of blocks: [NativeBlock]) async -> (images: [String: Data], failures: [String]) {
        let fetched = await fetchImages(of: blocks)
        return (fetched.images, fetched.failures)
    }

    /// The images `blocks` name but those in `known`, fetched; an image over `PictureLimit.creatives` is in
    /// `oversized` and `failures`, not in `images`, so that nothing decodes it.
    public func fetchImages(of blocks: [NativeBlock], except known: Set<String> = []) async -> FetchedImages {
        var fetched = FetchedImages()
        let fetcher = DocumentFetcher(urlMap: settings.urlMap, maximumBytes: settings.maximumDocumentBytes)
        let urls = blocks.flatMap { [$0.assets] + $0.ads.map(\.assets) }.flatMap { $0 }.compactMap { asset -> String? in
            guard asset.refusal == nil, case .image(_, let url, _) = asset.content else { return nil }
            return url
        }
        var seen = known
        for url in urls where seen.insert(url).inserted {
            fetched.asked.insert(url)
            guard let location = ResourceLocation(userInput: url, relativeTo: directory) else {
                fetched.failures.append("\(url): not an http(s) URL, a file: URL or a path")
                continue
            }
            if let output = forbidden(location) {
                fetched.failures.append("\(url): refused: it is the output \(output.description)")
                continue
            }
            let data: Data
            do { data = try await fetcher.fetch(location, timeout: settings.firstRequestTimeout) } catch {
                fetched.failures.append("\(url): \(error.message)")
                continue
            }
            if let size = ImageHeader(data)?.size, let refusal = PictureLimit.creatives.refusal(of: size) {
                fetched.oversized[url] = refusal
                fetched.failures.append("\(url): \(refusal)")
                continue
            }
            fetched.images[url] = data
        }
        return fetched
    }

    /// The forbidden file (`forbiddenFiles`) that `location` reads, after the URL map; `nil` when none.
    func forbidden(_ location: ResourceLocation) -> FileIdentity.Named? {
        guard !forbiddenFiles.isEmpty, case .file(let path) = (try? settings.urlMap?.apply(to: location)) ?? location else { return nil }
        let identity = FileIdentity(path)
        guard identity != .device else { return nil }
        return forbiddenFiles.first { FileIdentity($0.path) == identity }
    }
}

extension NativeBlock {
    /// The block with each image asset whose URL is in `refusals` refused for that reason: never laid out, so a
    /// required one is its card's (or the block's) binding failure.
    public func refusing(images refusals: [String: String]) -> NativeBlock {
        guard !refusals.isEmpty else { return self }
        func refuse(_ assets: [NativeAsset]) -> [NativeAsset] {
            assets.map { asset in
                guard asset.refusal == nil, case .image(_, let url, _) = asset.content, let refusal = refusals[url] else { return asset }
                var refused = asset
                refused.refusal = "\(url): \(refusal)"
                return refused
            }
        }
        var block = self
        block.assets = refuse(block.assets)
        for i in block.ads.indices { block.ads[i].assets = refuse(block.ads[i].assets) }
        return block
    }
}
