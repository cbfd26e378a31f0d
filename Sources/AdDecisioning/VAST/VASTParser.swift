import Foundation
import MediaCore

/// Parses VAST 2–4.x responses into `VASTDocument`s.
///
/// Strict where the spec requires it: the document must be well-formed XML (100, with the line), its root must
/// be `<VAST>` (101), and VAST 1 (`<VideoAdServingTemplate>` or `version="1.x"`) is refused (102). Lenient
/// everywhere else: elements are matched by local name in any case, white space is removed from URLs, `Duration`
/// may be `30`, `00:00:05.6`, empty or `undefined`, booleans may be `0`/`1`/`True`, and unreadable pieces are
/// dropped and listed in `VASTDocument.warnings` instead of failing the document.
public struct VASTParser: Sendable {
    /// The default size limit for one document: 16 MiB, far above any real response.
    public static let defaultMaximumDocumentBytes = 16 << 20

    /// Larger documents are refused unread (`DecisioningError.documentTooLarge`).
    public var maximumDocumentBytes: Int

    public init(maximumDocumentBytes: Int = VASTParser.defaultMaximumDocumentBytes) {
        self.maximumDocumentBytes = maximumDocumentBytes
    }

    /// Parses one VAST document.
    ///
    /// - Parameters:
    ///   - data: the document's bytes.
    ///   - source: the file or URL it came from, for messages.
    /// - Throws: `DecisioningError` — `.malformedXML`, `.forbiddenEntities`, `.documentTooLarge` (100),
    ///   `.unexpectedRoot` (101), `.unsupportedVersion` (102).
    public func parse(_ data: Data, source: String) throws(DecisioningError) -> VASTDocument {
        let root = try XMLTreeReader(maximumBytes: maximumDocumentBytes).read(data, source: source)
        return try VASTParser.document(from: root, source: source)
    }

    /// Interprets a `<VAST>` element already read (a whole document, or one embedded in a VMAP `VASTAdData`).
    static func document(from root: XMLElementNode, source: String) throws(DecisioningError) -> VASTDocument {
        if root.key == "videoadservingtemplate" { throw .unsupportedVersion(source: source, version: "1") }
        guard root.key == "vast" else { throw .unexpectedRoot(source: source, root: root.name, expected: "<VAST>") }
        let version = root.attribute("version")?.trimmingSpaces
        if let v = version, v == "1" || v.hasPrefix("1.") { throw .unsupportedVersion(source: source, version: v) }
        var reader = Reader()
        let ads = root.children("ad").map { reader.ad($0) }
        return VASTDocument(version: version, ads: ads, errorURLs: root.children("error").compactMap(\.urlText),
                            source: source, warnings: reader.warnings.map { AdError(.schemaValidation, "\(source): \($0)") })
    }

    /// Reads elements into model values, collecting what it had to drop.
    struct Reader {
        var warnings: [String] = []

        mutating func drop(_ node: XMLElementNode, _ what: String) {
            warnings.append("line \(node.line): \(what)")
        }

        mutating func ad(_ node: XMLElementNode) -> VASTAd {
            var ad = VASTAd(id: node.attribute("id"), kind: .empty, line: node.line)
            if let s = node.attribute("sequence") {
                ad.sequence = VASTValues.int(s)
                if ad.sequence == nil { drop(node, "Ad sequence '\(s)' is not a number; read as a stand-alone ad") }
            }
            ad.conditionalAd = bool(node, "conditionalAd")
            ad.adType = node.attribute("adtype")
            let body: XMLElementNode
            if let inline = node.child("inline") {
                ad.kind = .inline
                body = inline
            } else if let wrapper = node.child("wrapper") {
                let legacy = wrapper.child("vastadtagurl")
                let tag = wrapper.child("vastadtaguri")?.urlText ?? legacy?.child("url")?.urlText ?? legacy?.urlText
                ad.kind = .wrapper(VASTWrapper(tagURI: tag,
                                               followAdditionalWrappers: bool(wrapper, "followAdditionalWrappers"),
                                               allowMultipleAds: bool(wrapper, "allowMultipleAds"),
                                               fallbackOnNoAd: bool(wrapper, "fallbackOnNoAd")))
                body = wrapper
            } else {
                return ad
            }
            if let system = body.child("adsystem") {
                ad.adSystem = VASTAdSystem(name: system.trimmedText ?? "", version: system.attribute("version"))
            }
            ad.adTitle = body.child("adtitle")?.trimmedText
            ad.description = body.child("description")?.trimmedText
            ad.advertiser = body.child("advertiser")?.trimmedText
            ad.impressions = body.children("impression").compactMap(\.urlText)
            ad.errorURLs = body.children("error").compactMap(\.urlText)
            ad.creatives = body.child("creatives")?.children("creative").map { creative($0) } ?? []
            return ad
        }

        mutating func creative(_ node: XMLElementNode) -> VASTCreative {
            var c = VASTCreative(id: node.attribute("id"), adId: node.attribute("adid"),
                                 sequence: VASTValues.int(node.attribute("sequence")),
                                 apiFramework: node.attribute("apiframework"))
            for u in node.children("universaladid") {
                // VAST 4.0 wrote the value as an attribute, 4.1 and later as text.
                guard let value = u.attribute("idvalue") ?? u.trimmedText else {
                    drop(u, "UniversalAdId without a value skipped")
                    continue
                }
                c.universalAdIds.append(UniversalAdId(registry: u.attribute("idregistry") ?? "unknown", value: value))
            }
            if c.universalAdIds.isEmpty, let adId = c.adId, !adId.isEmpty {
                c.universalAdIds = [UniversalAdId(registry: "Ad-ID", value: adId)]
            }
            c.linear = node.child("linear").map { linear($0) }
            c.nonLinearAds = node.child("nonlinearads").map { nonLinearAds($0) }
            c.companions = node.child("companionads")?.children("companion").map { companion($0) } ?? []
            return c
        }

        mutating func linear(_ node: XMLElementNode) -> VASTLinear {
            var l = VASTLinear()
            if let text = node.attribute("skipoffset") {
                l.skipOffset = VASTValues.adOffset(text)
                if l.skipOffset == nil { drop(node, "skipoffset '\(text)' is not a time or a percentage; ad not skippable") }
            }
            if let d = node.child("duration") {
                switch VASTValues.duration(d.trimmedText) {
                case .duration(let value): l.duration = value
                case .unspecified: break
                case .invalid: drop(d, "Duration '\(d.trimmedText ?? "")' is not a time; the media's length decides")
                }
            }
            if let files = node.child("mediafiles") {
                l.mediaFiles = files.children("mediafile").compactMap { mediaFile($0) }
                l.interactiveCreativeFiles = files.children("interactivecreativefile").compactMap { f in
                    f.urlText.map {
                        VASTInteractiveCreativeFile(url: $0, type: f.attribute("type"),
                                                    apiFramework: f.attribute("apiframework"),
                                                    variableDuration: VASTValues.bool(f.attribute("variableduration")))
                    }
                }
                l.mezzanineURLs = files.children("mezzanine").compactMap(\.urlText)
            }
            l.adParameters = node.child("adparameters")?.trimmedText
            l.tracking = tracking(node.child("trackingevents"))
            if let clicks = node.child("videoclicks") {
                l.clickThrough = clicks.child("clickthrough")?.urlText
                l.clickTracking = clicks.children("clicktracking").compactMap(\.urlText)
                l.customClicks = clicks.children("customclick").compactMap(\.urlText)
            }
            return l
        }

        mutating func mediaFile(_ node: XMLElementNode) -> MediaFile? {
            guard let url = node.urlText else {
                drop(node, "MediaFile without URL skipped")
                return nil
            }
            return MediaFile(url: url, delivery: node.attribute("delivery")?.trimmingSpaces,
                             type: node.attribute("type")?.trimmingSpaces,
                             width: VASTValues.int(node.attribute("width")), height: VASTValues.int(node.attribute("height")),
                             bitrate: VASTValues.int(node.attribute("bitrate")),
                             minBitrate: VASTValues.int(node.attribute("minbitrate")),
                             maxBitrate: VASTValues.int(node.attribute("maxbitrate")),
                             codec: node.attribute("codec"), id: node.attribute("id"),
                             apiFramework: node.attribute("apiframework"),
                             scalable: VASTValues.bool(node.attribute("scalable")),
                             maintainAspectRatio: VASTValues.bool(node.attribute("maintainaspectratio")),
                             fileSize: VASTValues.int(node.attribute("filesize")),
                             mediaType: node.attribute("mediatype"))
        }

        /// The `<Tracking>` children of a `<TrackingEvents>` element; `offset` is kept for `progress` only, the
        /// one event the spec gives it to.
        mutating func tracking(_ node: XMLElementNode?) -> [TrackingEvent] {
            guard let node else { return [] }
            var events: [TrackingEvent] = []
            for t in node.children("tracking") {
                guard let event = t.attribute("event")?.trimmingSpaces, !event.isEmpty else {
                    drop(t, "Tracking without event skipped")
                    continue
                }
                guard let url = t.urlText else { continue }
                var offset: AdOffset?
                if TrackingEventName(event) == .progress {
                    offset = VASTValues.adOffset(t.attribute("offset"))
                    if offset == nil {
                        drop(t, "progress tracking with offset '\(t.attribute("offset") ?? "")' skipped")
                        continue
                    }
                }
                events.append(TrackingEvent(event: TrackingEventName(event), offset: offset, url: url))
            }
            return events
        }

        mutating func nonLinearAds(_ node: XMLElementNode) -> VASTNonLinearAds {
            let overlays = node.children("nonlinear").map { n in
                VASTNonLinear(id: n.attribute("id"), size: size(n, "width", "height"),
                              expandedSize: size(n, "expandedwidth", "expandedheight"),
                              scalable: VASTValues.bool(n.attribute("scalable")),
                              maintainAspectRatio: VASTValues.bool(n.attribute("maintainaspectratio")),
                              minSuggestedDuration: {
                                  if case .duration(let d) = VASTValues.duration(n.attribute("minsuggestedduration")) { d } else { nil }
                              }(),
                              apiFramework: n.attribute("apiframework"), resources: resources(n),
                              clickThrough: n.child("nonlinearclickthrough")?.urlText,
                              clickTracking: n.children("nonlinearclicktracking").compactMap(\.urlText),
                              adParameters: n.child("adparameters")?.trimmedText)
            }
            return VASTNonLinearAds(nonLinears: overlays, tracking: tracking(node.child("trackingevents")))
        }

        mutating func companion(_ n: XMLElementNode) -> VASTCompanion {
            VASTCompanion(id: n.attribute("id"), size: size(n, "width", "height"),
                          assetSize: size(n, "assetwidth", "assetheight"),
                          expandedSize: size(n, "expandedwidth", "expandedheight"),
                          apiFramework: n.attribute("apiframework"), adSlotId: n.attribute("adslotid"),
                          resources: resources(n), clickThrough: n.child("companionclickthrough")?.urlText,
                          clickTracking: n.children("companionclicktracking").compactMap(\.urlText),
                          tracking: tracking(n.child("trackingevents")), altText: n.child("alttext")?.trimmedText,
                          adParameters: n.child("adparameters")?.trimmedText)
        }

        func resources(_ node: XMLElementNode) -> [VASTResource] {
            node.children.compactMap { child -> VASTResource? in
                switch child.key {
                case "staticresource":
                    child.urlText.map { .staticResource(url: $0, creativeType: child.attribute("creativetype")) }
                case "iframeresource": child.urlText.map { .iframe(url: $0) }
                case "htmlresource": child.trimmedText.map { .html($0) }
                default: nil
                }
            }
        }

        func size(_ node: XMLElementNode, _ w: String, _ h: String) -> PixelSize? {
            guard let width = VASTValues.int(node.attribute(w)), let height = VASTValues.int(node.attribute(h)),
                  width > 0, height > 0 else { return nil }
            return PixelSize(width: width, height: height)
        }

        mutating func bool(_ node: XMLElementNode, _ name: String) -> Bool? {
            guard let text = node.attribute(name.lowercased()) else { return nil }
            guard let value = VASTValues.bool(text) else {
                drop(node, "\(name)='\(text)' is not a boolean; ignored")
                return nil
            }
            return value
        }
    }
}
