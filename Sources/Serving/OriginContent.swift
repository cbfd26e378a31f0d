import AdPlayback
import Foundation
import MediaCore

/// One piece of content under the origin, read and checked once: an HLS VOD (a multivariant playlist with its
/// renditions, or one media playlist), every segment a file inside the origin.
public struct OriginContent: Sendable {
    /// The content's path under the origin, as its URLs name it.
    public var path: [String]
    public var renditions: [Rendition]
    /// The subtitle renditions (`EXT-X-MEDIA:TYPE=SUBTITLES`, WebVTT segments), in the multivariant playlist's order.
    public var subtitles: [Subtitles] = []
    /// The languages of an audio group of several renditions (`EXT-X-MEDIA:TYPE=AUDIO`, each with its playlist), in
    /// the multivariant playlist's order; empty when the variants carry one sound. The default one is muxed into the
    /// variants; each other is stitched as a rendition of its own (`Rendition.Role.soundOf`), served as sound only.
    public var audioTracks: [AudioTrack] = []

    public struct Rendition: Sendable {
        /// `BANDWIDTH` (bits per second): the multivariant playlist's, or the largest segment's rate for a media
        /// playlist alone.
        public var bandwidth: Int
        public var averageBandwidth: Int?
        public var resolution: PixelSize?
        public var codecs: String?
        public var frameRate: String?
        /// The media playlist as read, its markers located.
        public var playlist: HLSPlaylistReading
        /// Each segment's file, in the playlist's order, and the fMP4 initialization section's.
        public var segmentFiles: [String]
        public var mapFile: String?
        /// Where a player fetches each segment and the initialization section on this server: `/v1/origin/…` for
        /// the origin's files, `/v1/cache/packaged/…` for an MP4's segments packaged by the server.
        public var segmentURLs: [String]
        public var mapURL: String?
        /// The local file whose pictures and sound the segments carry, for a reader that takes one file: the
        /// rendition's media playlist under the origin, or the MP4 the server packaged (a session's timeline names it).
        public var source: String
        /// The sound of a variant whose audio is a rendition of its own (`EXT-X-MEDIA:TYPE=AUDIO` with a `URI`),
        /// until the server muxes it into the variant's segments (`MP4Packager.transmuxed`); nil when the segments
        /// carry their sound.
        public var separateAudio: SeparateAudio? = nil
        /// Its `SUBTITLES` group (`Subtitles.group`), or nil.
        public var subtitleGroup: String? = nil
        /// What the rendition is for: a variant, or the carrier of another language's sound.
        public var role: Role = .variant

        public enum Role: Sendable, Equatable {
            /// A variant of the multivariant playlist, with its pictures and its sound (the default language's).
            case variant
            /// The pictures of the lowest variant with audio track `track`'s sound: cut and stitched like a variant,
            /// so that its sound has every break at the same frames, and served as sound only (`/v1/audio/…`).
            case soundOf(track: Int)
        }
    }

    /// An audio rendition of a group of several (a language): its `EXT-X-MEDIA` line's attributes, and where its
    /// sound is stitched: in the variants (the default), or in rendition `rendition` (`Role.soundOf`).
    public struct AudioTrack: Sendable {
        public var group: String
        public var name: String
        /// `LANGUAGE`, `ASSOC-LANGUAGE`, `CHARACTERISTICS` and `CHANNELS` (quoted strings) and `AUTOSELECT` (`YES` or
        /// `NO`), as the origin gives them; `DEFAULT` is the server's (the track muxed into the variants).
        public var attributes: [String: String]
        /// Nil: the variants' own sound.
        public var rendition: Int?
    }

    /// The renditions a multivariant playlist lists as variants.
    public var variants: [(index: Int, rendition: Rendition)] {
        renditions.enumerated().filter { $0.element.role == .variant }.map { ($0.offset, $0.element) }
    }

    /// A subtitle rendition: its `EXT-X-MEDIA` line's attributes, and its WebVTT segments under the origin.
    public struct Subtitles: Sendable {
        public var group: String
        public var name: String
        /// `LANGUAGE`, `ASSOC-LANGUAGE` and `CHARACTERISTICS` (quoted strings) and `DEFAULT`, `AUTOSELECT` and
        /// `FORCED` (`YES` or `NO`), as the origin gives them.
        public var attributes: [String: String]
        public var playlist: HLSPlaylistReading
        public var segmentFiles: [String]
        /// Where a player fetches each segment whole: `/v1/origin/…`.
        public var segmentURLs: [String]
        /// The media playlist's file.
        public var file: String
    }

    /// An audio rendition's media playlist under the origin, as read: its segments and initialization section.
    public struct SeparateAudio: Sendable {
        public var playlist: HLSPlaylistReading
        public var segmentFiles: [String]
        public var mapFile: String?
        /// The media playlist's file.
        public var file: String
    }

    /// The content's length (the first rendition's; renditions of one VOD agree).
    public var duration: Rational { renditions.first?.playlist.playlist.duration ?? .zero }

    /// Where the origin marks breaks (the first rendition's markers), in seconds of content, in order: each
    /// `EXT-X-CUE-OUT` at the start of the segment it precedes, and each `EXT-X-DATERANGE` with `SCTE35-OUT` at its
    /// `START-DATE` (exact to the frame, inside a segment too), one cue for markers less than 1 ms apart.
    public var cues: [Rational] {
        guard let reading = renditions.first?.playlist else { return [] }
        var times = reading.cueOuts.map { reading.start(ofSegment: $0.segment) }
        if let origin = reading.playlist.programDateTime {
            for range in reading.dateRanges where range.scte35Out != nil {
                let millis = Int64((range.startDate.timeIntervalSince(origin) * 1000).rounded())
                times.append(Rational(millis, 1000))
            }
        }
        var cues: [Rational] = []
        for time in times.sorted() where time >= .zero && time < duration {
            if let last = cues.last, time - last < Rational(1, 1000) { continue }
            cues.append(time)
        }
        return cues
    }
}

/// Why a content path cannot be served: it is not there (404) or not usable (422), in one line naming the file.
public enum OriginContentError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(String)
    case unusable(String)

    public var description: String {
        switch self {
        case .notFound(let m), .unusable(let m): m
        }
    }
}

/// Reads content under the origin, bounded: playlists of at most `maximumPlaylistBytes`, at most
/// `maximumRenditions` renditions and `maximumSegments` segments each (docs/SERVE.md, "Limits").
public struct OriginReader: Sendable {
    public static let maximumPlaylistBytes = 2 * 1024 * 1024
    public static let maximumRenditions = 16
    public static let maximumSegments = 20_000

    public let origin: OriginDirectory

    public init(origin: OriginDirectory) {
        self.origin = origin
    }

    public func read(_ path: [String]) throws(OriginContentError) -> OriginContent {
        let shown = path.joined(separator: "/")
        guard let file = origin.file(path) else { throw .notFound("no content \"\(shown.excerpt)\" under the origin") }
        guard file.hasSuffix(".m3u8") else {
            throw .unusable("\(shown.excerpt): not an HLS playlist (.m3u8) or an MP4 (.mp4, .m4v, .mov)")
        }
        let text = try playlistText(file, shown: shown)
        guard text.contains("#EXT-X-STREAM-INF") else {
            return OriginContent(path: path, renditions: [try rendition(file, shown: shown, text: text, variant: nil)])
        }
        let (all, alternatives) = try multivariant(text, shown: shown)
        // An audio-only variant (its CODECS name no video codec), as Apple's ladders end with: breaks are cut into
        // pictures, so it is left out of the content's renditions while another variant has pictures.
        let pictured = all.filter { !$0.isAudioOnly }
        let variants = pictured.isEmpty ? all : pictured
        var renditions: [OriginContent.Rendition] = []
        var audioPlaylists: [String: OriginContent.SeparateAudio] = [:]
        let languages = try audioLanguages(of: variants, among: alternatives, shown: shown)
        for variant in variants {
            guard let media = origin.file(uri: variant.uri, relativeTo: file) else {
                throw .unusable("\(shown.excerpt): variant \"\(variant.uri.excerpt)\" is not a file inside the origin")
            }
            let mediaShown = origin.relative(media)?.joined(separator: "/") ?? variant.uri
            var made = try rendition(media, shown: mediaShown, text: try playlistText(media, shown: mediaShown), variant: variant)
            if let audio = try audioRendition(of: variant, among: alternatives, playlist: file, shown: shown) {
                if audioPlaylists[audio] == nil {
                    let audioShown = origin.relative(audio)?.joined(separator: "/") ?? audio
                    let read = try rendition(audio, shown: audioShown, text: try playlistText(audio, shown: audioShown), variant: nil)
                    audioPlaylists[audio] = OriginContent.SeparateAudio(playlist: read.playlist, segmentFiles: read.segmentFiles,
                                                                         mapFile: read.mapFile, file: audio)
                }
                made.separateAudio = audioPlaylists[audio]
            }
            made.subtitleGroup = try subtitleGroup(of: variant, among: alternatives, shown: shown)
            renditions.append(made)
        }
        var subtitles: [OriginContent.Subtitles] = []
        for alternative in alternatives where alternative.type == "SUBTITLES" {
            subtitles.append(try subtitleRendition(alternative, playlist: file, shown: shown))
        }
        // Each language but the default: the lowest variant's pictures with its sound, a rendition of its own.
        var tracks: [OriginContent.AudioTrack] = [], carriers: [OriginContent.Rendition] = []
        if !languages.isEmpty, let lowest = renditions.indices.min(by: { renditions[$0].bandwidth < renditions[$1].bandwidth }) {
            let main = languages.firstIndex { $0.attributes["DEFAULT"] == "YES" } ?? 0
            for (n, language) in languages.enumerated() {
                let attributes = try language.kept(["LANGUAGE", "ASSOC-LANGUAGE", "CHARACTERISTICS", "CHANNELS"], yesOrNo: ["AUTOSELECT"], shown: shown)
                var track = OriginContent.AudioTrack(group: language.group, name: language.attributes["NAME"] ?? language.group,
                                                     attributes: attributes, rendition: nil)
                if n != main {
                    guard let uri = language.uri, let audio = origin.file(uri: uri, relativeTo: file) else {
                        throw .unusable("\(shown.excerpt): line \(language.line): audio rendition \"\((language.uri ?? "").excerpt)\" is not a file inside the origin")
                    }
                    let audioShown = origin.relative(audio)?.joined(separator: "/") ?? audio
                    let read = try rendition(audio, shown: audioShown, text: try playlistText(audio, shown: audioShown), variant: nil)
                    var carrier = renditions[lowest]
                    carrier.separateAudio = OriginContent.SeparateAudio(playlist: read.playlist, segmentFiles: read.segmentFiles,
                                                                        mapFile: read.mapFile, file: audio)
                    carrier.role = .soundOf(track: n)
                    carrier.subtitleGroup = nil
                    track.rendition = renditions.count + carriers.count
                    carriers.append(carrier)
                }
                tracks.append(track)
            }
            renditions += carriers
        }
        return OriginContent(path: path, renditions: renditions, subtitles: subtitles, audioTracks: tracks)
    }

    /// The renditions of the one audio group every variant plays, when it has several (languages), each with its
    /// own playlist; empty when the variants carry one sound (their own, or a group's one rendition). Refused: variants
    /// naming different groups of several renditions, and a group of several with one in the variants' segments.
    private func audioLanguages(of variants: [Variant], among alternatives: [Alternative], shown: String) throws(OriginContentError) -> [Alternative] {
        let groups = Set(variants.compactMap { $0.attributes["AUDIO"] })
        let several = groups.filter { group in alternatives.filter { $0.type == "AUDIO" && $0.group == group }.count > 1 }
        guard let group = several.first else { return [] }
        let members = alternatives.filter { $0.type == "AUDIO" && $0.group == group }
        guard groups.count == 1 else {
            throw .unusable("\(shown.excerpt): line \(members[0].line): the variants name \(groups.count) audio groups, of which \"\(group.excerpt)\" has several renditions; one group is served")
        }
        if let inVariants = members.first(where: { $0.uri == nil }) {
            throw .unusable("\(shown.excerpt): line \(inVariants.line): audio group \"\(group.excerpt)\" has \(members.count) renditions, one of them in the variants' segments (no URI); "
                            + "a group of several is served when each has its own playlist")
        }
        return members
    }

    /// The `SUBTITLES` group `variant` names, checked to be declared.
    private func subtitleGroup(of variant: Variant, among alternatives: [Alternative], shown: String) throws(OriginContentError) -> String? {
        guard let group = variant.attributes["SUBTITLES"] else { return nil }
        guard alternatives.contains(where: { $0.type == "SUBTITLES" && $0.group == group }) else {
            throw .unusable("\(shown.excerpt): line \(variant.line): SUBTITLES=\"\(group.excerpt)\" names no EXT-X-MEDIA:TYPE=SUBTITLES group")
        }
        return group
    }

    /// A subtitle rendition, read and checked: its playlist inside the origin, and every segment a WebVTT file
    /// inside it (`.vtt` or `.webvtt`; IMSC in fMP4 is not cut).
    private func subtitleRendition(_ alternative: Alternative, playlist: String, shown: String) throws(OriginContentError) -> OriginContent.Subtitles {
        func refuse(_ message: String) -> OriginContentError { .unusable("\(shown.excerpt): line \(alternative.line): \(message)") }
        guard let uri = alternative.uri else { throw refuse("a SUBTITLES rendition without its URI") }
        guard let file = origin.file(uri: uri, relativeTo: playlist) else {
            throw refuse("subtitle rendition \"\(uri.excerpt)\" is not a file inside the origin")
        }
        let fileShown = origin.relative(file)?.joined(separator: "/") ?? uri
        let read = try rendition(file, shown: fileShown, text: try playlistText(file, shown: fileShown), variant: nil)
        let webVTT = read.mapFile == nil && read.segmentFiles.allSatisfy { name in
            let lower = name.lowercased()
            return lower.hasSuffix(".vtt") || lower.hasSuffix(".webvtt")
        }
        guard webVTT else { throw refuse("subtitle rendition \"\(uri.excerpt)\": its segments are not WebVTT files (.vtt), the only subtitles served") }
        let attributes = try alternative.kept(["LANGUAGE", "ASSOC-LANGUAGE", "CHARACTERISTICS"], yesOrNo: ["DEFAULT", "AUTOSELECT", "FORCED"], shown: shown)
        return OriginContent.Subtitles(group: alternative.group, name: alternative.attributes["NAME"] ?? alternative.group,
                                       attributes: attributes, playlist: read.playlist, segmentFiles: read.segmentFiles,
                                       segmentURLs: read.segmentURLs, file: file)
    }

    struct Variant {
        var uri: String
        var attributes: [String: String]
        /// Its `EXT-X-STREAM-INF` line's number, from 1.
        var line: Int

        /// Whether its `CODECS` lists codecs and none of them is a video codec (RFC 6381 names: `avc1`, `avc3`,
        /// `hvc1`, `hev1`, `dvh1`, `dvhe`, `vp09`, `av01`, `mp4v`).
        var isAudioOnly: Bool {
            guard let codecs = attributes["CODECS"]?.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }),
                  !codecs.isEmpty else { return false }
            let video = ["avc1", "avc3", "hvc1", "hev1", "dvh1", "dvhe", "vp09", "av01", "mp4v"]
            return !codecs.contains { codec in video.contains { codec.hasPrefix($0) } }
        }
    }

    /// An `EXT-X-MEDIA` line: an alternative rendition of one `TYPE` in group `GROUP-ID`, its own playlist at `uri`
    /// (nil when its media is in the variants' segments).
    struct Alternative {
        var type: String
        var group: String
        var uri: String?
        var line: Int
        var attributes: [String: String]

        /// Its attributes `names` as they are, and `yesOrNo` checked to be `YES` or `NO`: what a session's
        /// multivariant playlist writes again.
        func kept(_ names: [String], yesOrNo: [String], shown: String) throws(OriginContentError) -> [String: String] {
            var kept: [String: String] = [:]
            for name in names { kept[name] = attributes[name] }
            for name in yesOrNo {
                guard let value = attributes[name] else { continue }
                guard value == "YES" || value == "NO" else { throw .unusable("\(shown.excerpt): line \(line): \(name)=\(value.excerpt) is not YES or NO") }
                kept[name] = value
            }
            return kept
        }
    }

    private func multivariant(_ text: String, shown: String) throws(OriginContentError) -> (variants: [Variant], alternatives: [Alternative]) {
        var result: [Variant] = []
        var alternatives: [Alternative] = []
        var pending: (attributes: [String: String], line: Int)?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            func fail(_ message: String) -> HLSPlaylistError { HLSPlaylistError(file: shown, line: number + 1, message: message) }
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                do { pending = (try HLSPlaylistReading.attributes(String(line.dropFirst(18)), fail), number + 1) } catch { throw .unusable(error.description) }
            } else if !line.isEmpty, !line.hasPrefix("#"), let found = pending {
                result.append(Variant(uri: line, attributes: found.attributes, line: found.line))
                pending = nil
                guard result.count <= Self.maximumRenditions else {
                    throw .unusable("\(shown.excerpt): more than \(Self.maximumRenditions) variants")
                }
            } else if line.hasPrefix("#EXT-X-MEDIA:") {
                let a: [String: String]
                do { a = try HLSPlaylistReading.attributes(String(line.dropFirst(13)), fail) } catch { throw .unusable(error.description) }
                guard let type = a["TYPE"], let group = a["GROUP-ID"] else {
                    throw .unusable("\(shown.excerpt): line \(number + 1): EXT-X-MEDIA without its TYPE or GROUP-ID")
                }
                if a["URI"] != nil, type != "AUDIO", type != "SUBTITLES" {
                    throw .unusable("\(shown.excerpt): line \(number + 1): \(type.excerpt) renditions (EXT-X-MEDIA with a URI) are not served; audio and subtitle ones are")
                }
                alternatives.append(Alternative(type: type, group: group, uri: a["URI"], line: number + 1, attributes: a))
                guard alternatives.count <= Self.maximumRenditions else {
                    throw .unusable("\(shown.excerpt): more than \(Self.maximumRenditions) EXT-X-MEDIA renditions")
                }
            }
        }
        guard !result.isEmpty else { throw .unusable("\(shown.excerpt): no variant after its EXT-X-STREAM-INF") }
        return (result, alternatives)
    }

    /// The audio playlist `variant` plays (the file of its `AUDIO` group's one rendition with a `URI`, or of a group
    /// of several the default one's), or nil when its own segments carry its sound.
    private func audioRendition(of variant: Variant, among alternatives: [Alternative], playlist: String,
                                shown: String) throws(OriginContentError) -> String? {
        guard let group = variant.attributes["AUDIO"] else { return nil }
        let members = alternatives.filter { $0.type == "AUDIO" && $0.group == group }
        guard !members.isEmpty else {
            throw .unusable("\(shown.excerpt): line \(variant.line): AUDIO=\"\(group.excerpt)\" names no EXT-X-MEDIA:TYPE=AUDIO group")
        }
        // Of several (languages, each with its playlist: `audioLanguages`), the default one is the variants' sound.
        let chosen = members.first { $0.attributes["DEFAULT"] == "YES" } ?? members[0]
        guard let uri = chosen.uri else { return nil }
        guard let file = origin.file(uri: uri, relativeTo: playlist) else {
            throw .unusable("\(shown.excerpt): line \(chosen.line): audio rendition \"\(uri.excerpt)\" is not a file inside the origin")
        }
        return file
    }

    private func rendition(_ file: String, shown: String, text: String, variant: Variant?) throws(OriginContentError) -> OriginContent.Rendition {
        let playlist: HLSPlaylistReading
        do { playlist = try HLSPlaylistReading(text: text, file: shown) } catch { throw .unusable(error.description) }
        try refuseUnservedSegments(text, shown: shown)
        let segments = playlist.playlist.segments
        guard !segments.isEmpty else { throw .unusable("\(shown.excerpt): no segment") }
        guard segments.count <= Self.maximumSegments else { throw .unusable("\(shown.excerpt): more than \(Self.maximumSegments) segments") }
        var files: [String] = []
        var largestRate = Rational.zero
        for (index, segment) in segments.enumerated() {
            guard let path = origin.file(uri: segment.uri, relativeTo: file) else {
                throw .unusable("\(shown.excerpt): segment \(index) \"\(segment.uri.excerpt)\" is not a file inside the origin")
            }
            files.append(path)
            if variant == nil, segment.duration > .zero, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int {
                largestRate = .max(largestRate, Rational(Int64(size) * 8) / segment.duration)
            }
        }
        var mapFile: String?
        if let map = playlist.playlist.map {
            guard let path = origin.file(uri: map, relativeTo: file) else {
                throw .unusable("\(shown.excerpt): EXT-X-MAP \"\(map.excerpt)\" is not a file inside the origin")
            }
            mapFile = path
        }
        let a = variant?.attributes ?? [:]
        let bandwidth = a["BANDWIDTH"].flatMap { Int($0) } ?? max(1, Int(largestRate.ceiling))
        guard bandwidth > 0 else { throw .unusable("\(shown.excerpt): BANDWIDTH \"\(a["BANDWIDTH"] ?? "")\" is not a positive number") }
        let resolution = a["RESOLUTION"].flatMap(PixelSize.init(parsing:))
        return OriginContent.Rendition(bandwidth: bandwidth, averageBandwidth: a["AVERAGE-BANDWIDTH"].flatMap { Int($0) },
                                       resolution: resolution, codecs: a["CODECS"], frameRate: a["FRAME-RATE"],
                                       playlist: playlist, segmentFiles: files, mapFile: mapFile,
                                       segmentURLs: files.map(originURL), mapURL: mapFile.map(originURL), source: file)
    }

    /// Refuses a media playlist whose segments the server would serve wrong: a player would get each whole file
    /// for a byte range of it, and encrypted segments without their key; a gap or an I-frame playlist is not a
    /// stream to cut. (The playlist reader skips tags it does not know, as the RFC asks of players.)
    private func refuseUnservedSegments(_ text: String, shown: String) throws(OriginContentError) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where raw.hasPrefix("#EXT-X-") {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            let tag = line.firstIndex(of: ":").map { String(line[..<$0]) } ?? line
            let value = line.dropFirst(tag.count + 1)
            func attributes() throws(OriginContentError) -> [String: String] {
                do {
                    return try HLSPlaylistReading.attributes(String(value)) { HLSPlaylistError(file: shown, line: number + 1, message: $0) }
                } catch { throw .unusable(error.description) }
            }
            let refusal: String?
            switch tag {
            case "#EXT-X-BYTERANGE": refusal = "segments that are byte ranges of a file (EXT-X-BYTERANGE) are not served"
            case "#EXT-X-MAP" where try attributes()["BYTERANGE"] != nil:
                refusal = "an initialization section that is a byte range of a file (EXT-X-MAP BYTERANGE) is not served"
            case "#EXT-X-KEY" where try attributes()["METHOD"] != "NONE":
                refusal = "encrypted segments (EXT-X-KEY METHOD=\((try attributes()["METHOD"] ?? "").excerpt)) are not served"
            case "#EXT-X-GAP": refusal = "a gap in the segments (EXT-X-GAP) is not served"
            case "#EXT-X-I-FRAMES-ONLY": refusal = "an I-frame playlist (EXT-X-I-FRAMES-ONLY) is not content"
            default: refusal = nil
            }
            if let refusal { throw .unusable("\(shown.excerpt): line \(number + 1): \(refusal)") }
        }
    }

    /// `/v1/origin/` and the file's path under the origin, each name percent-encoded.
    func originURL(_ file: String) -> String {
        "/v1/origin/" + (origin.relative(file) ?? []).map(AdRequestTemplate.encoded).joined(separator: "/")
    }

    private func playlistText(_ file: String, shown: String) throws(OriginContentError) -> String {
        guard let handle = FileHandle(forReadingAtPath: file) else { throw .notFound("\(shown.excerpt): cannot be read") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Self.maximumPlaylistBytes + 1)) ?? Data()
        guard data.count <= Self.maximumPlaylistBytes else {
            throw .unusable("\(shown.excerpt): over \(Self.maximumPlaylistBytes) bytes")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .unusable("\(shown.excerpt): not UTF-8 text") }
        return text
    }
}
