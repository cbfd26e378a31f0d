import Foundation
import MediaCore

/// Parses VMAP 1.0 responses into `VMAPDocument`s.
///
/// Namespaces vary in the wild (`http://www.iab.net/videosuite/vmap`, `http://www.iab.net/vmap-1.0`, none), so
/// elements are matched by local name. A break whose `timeOffset` cannot be read is dropped and listed in
/// `warnings`; an embedded VAST document that cannot be used makes its source `.unusable`, not the VMAP.
public struct VMAPParser: Sendable {
    /// Larger documents are refused unread (`DecisioningError.documentTooLarge`).
    public var maximumDocumentBytes: Int

    public init(maximumDocumentBytes: Int = VASTParser.defaultMaximumDocumentBytes) {
        self.maximumDocumentBytes = maximumDocumentBytes
    }

    /// Parses one VMAP document.
    ///
    /// - Throws: `DecisioningError` — `.malformedXML`, `.forbiddenEntities`, `.documentTooLarge` (100), or
    ///   `.unexpectedRoot` (101) when the root is not `<VMAP>`.
    public func parse(_ data: Data, source: String) throws(DecisioningError) -> VMAPDocument {
        let root = try XMLTreeReader(maximumBytes: maximumDocumentBytes).read(data, source: source)
        return try VMAPParser.document(from: root, source: source)
    }

    static func document(from root: XMLElementNode, source: String) throws(DecisioningError) -> VMAPDocument {
        guard root.key == "vmap" else { throw .unexpectedRoot(source: source, root: root.name, expected: "<VMAP>") }
        var reader = VASTParser.Reader()
        var breaks: [VMAPAdBreak] = []
        var warnings: [AdError] = []
        for node in root.children("adbreak") {
            guard let text = node.attribute("timeoffset"), let offset = BreakOffset(vmap: text) else {
                let written = node.attribute("timeoffset").map { "'\($0)'" } ?? "missing"
                warnings.append(AdError(.schemaValidation,
                                        "\(source): line \(node.line): AdBreak skipped: timeOffset \(written) is not start, end, hh:mm:ss[.mmm], n% or #n"))
                continue
            }
            var adBreak = VMAPAdBreak(timeOffset: offset, breakType: node.attribute("breaktype")?.trimmingSpaces ?? "linear",
                                      breakId: node.attribute("breakid"), line: node.line)
            if let repeatText = node.attribute("repeatafter") {
                if let t = MediaTime(parsing: repeatText), t.seconds > .zero {
                    adBreak.repeatAfter = MediaDuration(seconds: t.seconds)
                } else {
                    warnings.append(AdError(.schemaValidation,
                                            "\(source): line \(node.line): repeatAfter '\(repeatText)' is not a positive hh:mm:ss[.mmm]; the break is not repeated"))
                }
            }
            adBreak.adSource = node.child("adsource").map { adSource($0, breakLabel: adBreak.label, source: source) }
            adBreak.tracking = reader.tracking(node.child("trackingevents"))
            breaks.append(adBreak)
        }
        warnings += reader.warnings.map { AdError(.schemaValidation, "\(source): \($0)") }
        return VMAPDocument(version: root.attribute("version"), breaks: breaks, source: source, warnings: warnings)
    }

    static func adSource(_ node: XMLElementNode, breakLabel: String, source: String) -> VMAPAdSource {
        var adSource = VMAPAdSource(id: node.attribute("id"), allowMultipleAds: VASTValues.bool(node.attribute("allowmultipleads")),
                                    followRedirects: VASTValues.bool(node.attribute("followredirects")),
                                    content: .unusable(AdError(.schemaValidation, "\(source): \(breakLabel): AdSource has no VASTAdData, AdTagURI or CustomAdData")))
        if let data = node.child("vastaddata") ?? node.child("vastdata") {
            let embeddedSource = "\(source) \(breakLabel)"
            if let vast = data.children.first {
                do {
                    adSource.content = .vast(try VASTParser.document(from: vast, source: embeddedSource))
                } catch {
                    adSource.content = .unusable(AdError(error.code, error.message))
                }
            } else {
                adSource.content = .unusable(AdError(.schemaValidation, "\(embeddedSource): \(data.name) holds no VAST document"))
            }
        } else if let tag = node.child("adtaguri") {
            if let url = tag.urlText {
                adSource.content = .adTagURI(url, templateType: tag.attribute("templatetype"))
            } else {
                adSource.content = .unusable(AdError(.schemaValidation, "\(source): \(breakLabel): AdTagURI is empty"))
            }
        } else if let custom = node.child("customaddata") {
            adSource.content = .custom(templateType: custom.attribute("templatetype"))
        }
        return adSource
    }
}
