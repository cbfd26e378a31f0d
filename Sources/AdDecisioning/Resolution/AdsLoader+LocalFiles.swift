import Foundation

extension AdsLoader {
    /// The local files an ads document leads to, found without the network: the document itself when it is local,
    /// each local document its VMAP `AdTagURI`s and VAST wrappers name, and every local `MediaFile` of their inline
    /// ads, after `settings.urlMap`. What a remote document names cannot be known without fetching it and is left out.
    ///
    /// For checking jobs against each other before any of them runs (`pipctl batch`): no job may write a file that
    /// another job's ads will read. Bounded and flat: at most `maximumDocuments` documents are read, each within
    /// `settings.maximumDocumentBytes`, from a queue (no recursion); one that cannot be read or parsed is skipped,
    /// since the render reports it.
    ///
    /// - Parameter directory: what a relative `adTag` is relative to.
    public func localFiles(of adTag: String, relativeTo directory: String = FileManager.default.currentDirectoryPath,
                           maximumDocuments: Int = 64) -> [String] {
        guard let start = ResourceLocation(userInput: adTag, relativeTo: directory) else { return [] }
        let fetcher = DocumentFetcher(urlMap: settings.urlMap, maximumBytes: settings.maximumDocumentBytes)
        func local(_ location: ResourceLocation) -> String? {
            if case .file(let path) = fetcher.mapped(location).target { path } else { nil }
        }
        var files: [String] = []
        var queue = [start], seen: Set<ResourceLocation> = [start], next = 0
        func follow(_ reference: String, from location: ResourceLocation) {
            guard let target = location.resolving(reference), !seen.contains(target) else { return }
            seen.insert(target)
            queue.append(target)
        }
        while next < queue.count, next < maximumDocuments {
            let location = queue[next]
            next += 1
            guard let path = local(location) else { continue }
            files.append(path)
            guard let data = try? DocumentFetcher.readFile(path, name: path, maximumBytes: settings.maximumDocumentBytes),
                  let response = try? AdResponse.parse(data, source: path, maximumDocumentBytes: settings.maximumDocumentBytes)
            else { continue }
            var documents: [VASTDocument] = []
            switch response {
            case .vast(let document):
                documents.append(document)
            case .vmap(let vmap):
                for adBreak in vmap.breaks {
                    switch adBreak.adSource?.content {
                    case .vast(let document)?: documents.append(document)
                    case .adTagURI(let uri, _)?: follow(uri, from: location)
                    default: break
                    }
                }
            }
            for ad in documents.flatMap(\.ads) {
                switch ad.kind {
                case .inline:
                    for file in ad.linearCreatives.flatMap(\.mediaFiles) {
                        if let media = location.resolving(file.url).flatMap(local) { files.append(media) }
                    }
                case .wrapper(let wrapper):
                    if let tag = wrapper.tagURI { follow(tag, from: location) }
                case .empty:
                    break
                }
            }
        }
        return files
    }
}
