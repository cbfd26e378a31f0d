import AdDecisioning
import AdScreen
import Foundation
import MediaCore

/// The files a render reads and writes, known once its request is built: the media of its ads and the documents
/// they were read from are found only by resolving the ads, so this is where a command checks them, and where the
/// stitcher checks them again before it writes anything (docs/FILES.md: no file of yours is ever clobbered).
extension RenderRequest {
    /// Every local file the render reads: the content of each player, each ad's media (every rendition it may
    /// fall back to, and the ads that may take a failed one's place) and the documents they were read from, the
    /// picture-in-picture background, the font, the banners' and full-screen ads' pictures and videos and the VAST
    /// documents (wrappers included) they were read from, the native cards' images and videos, and the native
    /// responses `play` loads as it goes.
    public var readFiles: [FileIdentity.Named] {
        var files: [FileIdentity.Named] = []
        func read(_ label: String, _ path: String?) {
            if let path { files.append(FileIdentity.Named(label, path)) }
        }
        read("the content", content.path)
        for player in device.players { read("the content of scene \"\(player.scene)\"", player.contentPath) }
        for (scene, plan) in [(nil, plan)] + device.players.map({ ($0.scene, $0.plan) }) {
            let of = scene.map { " of scene \"\($0)\"" } ?? ""
            for adBreak in plan.breaks {
                for ad in adBreak.ads.map(\.ad) + adBreak.fallbacks { Self.read(ad, of: of, into: &files) }
            }
        }
        read("the picture-in-picture background", pictureInPictureBackground)
        read("the font", device.font)
        if let run = device.screenAds {
            for (_, outcome) in run.outcomes.sorted(by: { $0.key < $1.key }) {
                guard case .success(let creative) = outcome else { continue }
                for path in creative.documents { read("a VAST document of a screen ad", path) }
                switch creative.content {
                case .image(.file(let path), _, _): read("the image of a screen ad", path)
                case .video(.file(let path), _): read("the video of a full-screen ad", path)
                default: break
                }
            }
        }
        if let native = device.nativeAds {
            for source in native.imageSources.values.sorted() where source.hasPrefix("/") {
                read("a native card's image", source)
            }
            for (_, ad) in native.videos.sorted(by: { $0.key < $1.key }) { Self.read(ad, of: " of a native card", into: &files) }
        }
        if let live = device.liveNative {
            for placement in live.placements {
                if case .file(let path)? = ResourceLocation(userInput: placement.source, relativeTo: live.loader.directory) {
                    read("the native placement \"\(placement.id)\"", path)
                }
            }
        }
        return files
    }

    /// `ad`'s local renditions and documents.
    private static func read(_ ad: LinearAd, of owner: String, into files: inout [FileIdentity.Named]) {
        let renditions = [ad.selection?.localPath] + (ad.selection?.fallbacks ?? []).map(\.localPath)
        for path in Set(renditions.compactMap { $0 }).sorted() {
            files.append(FileIdentity.Named("the media of \(ad.label)\(owner)", path))
        }
        for path in ad.documents { files.append(FileIdentity.Named("the VAST document of \(ad.label)\(owner)", path)) }
    }

    /// Every file the render writes: the MP4 (when media is written), the timeline, the event log and the frame
    /// hashes.
    public var writtenFiles: [FileIdentity.Named] {
        var files: [FileIdentity.Named] = []
        if output.writesMedia { files.append(FileIdentity.Named("the output", output.path)) }
        if let path = resolvedTimelinePath { files.append(FileIdentity.Named("the timeline", path)) }
        if let path = resolvedEventsPath { files.append(FileIdentity.Named("the event log", path)) }
        if let path = output.frameHashPath { files.append(FileIdentity.Named("the frame hashes", path)) }
        return files
    }

    /// The first file the render would write over one it reads (or over another it writes); `nil` when none.
    public var fileCollision: FileIdentity.Collision? {
        FileIdentity.firstCollision(inputs: readFiles, outputs: writtenFiles)
    }
}
