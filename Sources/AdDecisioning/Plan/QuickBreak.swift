import Foundation

/// One `--break TIME=FILE[,FILE…]` value: ads from local media files, for users without an ad server.
///
/// TIME is `pre`, `post`, seconds (`90`, `12.5`), `hh:mm:ss[.mmm]` or `n%`; each FILE is a local media file
/// that plays as one linear ad, already selected. Several values at the same position are one break.
public struct QuickBreak: Hashable, Sendable {
    public var offset: BreakOffset
    /// The media files as written.
    public var files: [String]
    /// The value as the user wrote it, for messages.
    public var value: String

    /// Parses one `--break` value.
    ///
    /// - Throws: `DecisioningError.invalidBreak` naming the value: no `=`, an unreadable TIME, no FILE, an empty
    ///   FILE between commas.
    public init(parsing value: String) throws(DecisioningError) {
        guard let equals = value.firstIndex(of: "=") else {
            throw .invalidBreak(value: value, reason: "expected TIME=FILE[,FILE…]")
        }
        let time = String(value[..<equals])
        guard let offset = BreakOffset(quick: time) else {
            throw .invalidBreak(value: value, reason: "TIME '\(time)' is not pre, post, seconds, hh:mm:ss[.mmm] or n% (0-100)")
        }
        let list = value[value.index(after: equals)...]
        let files = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard !list.trimmingSpaces.isEmpty else { throw .invalidBreak(value: value, reason: "no FILE after '='") }
        guard !files.contains(where: \.isEmpty) else { throw .invalidBreak(value: value, reason: "empty FILE in the list") }
        self.offset = offset
        self.files = files
        self.value = value
    }

    /// One linear ad per file, already selected with its absolute local path.
    ///
    /// - Throws: `DecisioningError.invalidBreak` naming the value and the file when a file does not exist.
    func ads(relativeTo directory: String) throws(DecisioningError) -> [LinearAd] {
        var ads: [LinearAd] = []
        for (index, file) in files.enumerated() {
            let path = ResourceLocation.standardised(file.hasPrefix("/") ? file : (directory as NSString).appendingPathComponent(file))
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw .invalidBreak(value: value, reason: "media file \(file) does not exist")
            }
            let media = MediaFile(url: path, delivery: "progressive", type: MediaSelector.mimeType(forExtensionOf: path))
            let selection = MediaSelection(chosen: media, localPath: path,
                                           candidates: [.init(file: media, accepted: true, reason: "given with --break")])
            ads.append(LinearAd(id: "\(value)#\(index + 1)", adSystem: "pipctl --break",
                                adTitle: (path as NSString).lastPathComponent, mediaFiles: [media], selection: selection))
        }
        return ads
    }
}
