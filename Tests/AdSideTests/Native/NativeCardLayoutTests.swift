@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// The card template laid out with a monospace measurer (3/5 em per character), every number derived by hand.
@Suite struct NativeCardLayoutTests {
    static let measurer = MonospaceTextMeasurer()

    static func ad(_ json: String) throws -> NativeAd { try #require(NativeFixtures.block(NativeFixtures.slider([json])).ads.first) }

    @Test func theDefaultCardFollowsTheGuide() throws {
        let layout = NativeCardLayout(ad: try Self.ad(NativeFixtures.card("a")), template: .default, availableWidth: 393, measurer: Self.measurer)
        let frames = Dictionary(uniqueKeysWithValues: layout.frames.map { ($0.slot, $0.rect) })
        // 12 pt padding; the 24x24 feedback in the top right corner; the 40x40 icon; the title beside it in the
        // 216 pt between icon and feedback (8 pt gaps), one 20 pt line at 15 pt.
        #expect(frames[.feedback] == PointRect(x: 284, y: 12, width: 24, height: 24))
        #expect(frames[.icon] == PointRect(x: 12, y: 12, width: 40, height: 40))
        #expect(frames[.title] == PointRect(x: 60, y: 12, width: 216, height: 20))
        // The row under the title: "shop.example" 12 × 7.2 = 86.4 → 87 pt, 6 pt, then "Brand" 36 pt, 16 pt lines.
        #expect(frames[.domain] == PointRect(x: 60, y: 36, width: 87, height: 16))
        #expect(frames[.sponsored] == PointRect(x: 153, y: 36, width: 36, height: 16))
        // Media at the image's 1200:627 over the 296 pt inside the padding, then body, the 44 pt capsule.
        #expect(frames[.media] == PointRect(x: 12, y: 60, width: 296, height: 154))
        #expect(frames[.body] == PointRect(x: 12, y: 222, width: 296, height: 18))
        #expect(frames[.callToAction] == PointRect(x: 12, y: 248, width: 296, height: 44))
        #expect(layout.size == PointSize(width: 320, height: 304))
        #expect(layout.bindingFailure(try Self.ad(NativeFixtures.card("a")).assets) == nil)
    }

    @Test func lineLimitsCapTheTextHeights() throws {
        let long = String(repeating: "x", count: 24 * 5)   // 24 characters fit a 216 pt line at 15 pt
        let layout = NativeCardLayout(ad: try Self.ad(NativeFixtures.card("a", title: long)), template: .default,
                                      availableWidth: 320, measurer: Self.measurer)
        #expect(layout.frames.first { $0.slot == .title }?.lines == 2)
        #expect(layout.frames.first { $0.slot == .title }?.rect.height == 40)
        var three = NativeCardTemplate.default
        three.titleLines = 3
        let taller = NativeCardLayout(ad: try Self.ad(NativeFixtures.card("a", title: long)), template: three,
                                      availableWidth: 320, measurer: Self.measurer)
        #expect(taller.size.height == layout.size.height + 20)
    }

    @Test func aTemplateThatLeavesOutARequiredAssetFailsBinding() throws {
        let ad = try Self.ad(NativeFixtures.card("a"))
        var template = NativeCardTemplate.default
        template.slots.remove(.sponsored)
        let layout = NativeCardLayout(ad: ad, template: template, availableWidth: 320, measurer: Self.measurer)
        #expect(!layout.frames.contains { $0.slot == .sponsored })
        #expect(layout.bindingFailure(ad.assets) == #"required asset id 4 (data sponsored) is not laid out: the template leaves out "sponsored""#)
        // The same asset not required binds.
        let optional = try Self.ad(NativeFixtures.card("a", sponsoredRequired: false))
        #expect(layout.bindingFailure(optional.assets) == nil)
    }

    @Test(arguments: [26, 40])
    func aLongOptionalDomainIsCutSoThatTheRequiredSponsoredLabelShowsWhole(characters: Int) throws {
        // 26 characters of domain are 187.2 → 188 pt, 40 are 288 pt; with "Brand" (36 pt) and the 6 pt gap the row
        // needs more than the title's column of 216 pt (60 to 276), so the optional domain gives way: 216 − 6 − 36 =
        // 174 pt, and "Brand" starts at 60 + 174 + 6 = 240, whole. The card binds.
        let ad = try Self.ad(NativeFixtures.card("a", domain: String(repeating: "d", count: characters)))
        let layout = NativeCardLayout(ad: ad, template: .default, availableWidth: 320, measurer: Self.measurer)
        let domain = try #require(layout.frames.first { $0.slot == .domain })
        #expect(domain.rect == PointRect(x: 60, y: 36, width: 174, height: 16) && domain.isCut)
        #expect(layout.frames.first { $0.slot == .sponsored }?.rect == PointRect(x: 240, y: 36, width: 36, height: 16))
        #expect(layout.bindingFailure(ad.assets) == nil)
        // A short domain is not cut.
        let short = NativeCardLayout(ad: try Self.ad(NativeFixtures.card("a")), template: .default, availableWidth: 320, measurer: Self.measurer)
        #expect(short.frames.first { $0.slot == .domain }.map { !$0.isCut && $0.rect.width > 0 } == true)
    }

    @Test func aRequiredLabelTooLongForTheRowFailsBindingRatherThanShowingPartOfIt() throws {
        // "Brand" 40 times over is 288 pt: the optional domain gives way entirely (its gap too), and the 216 pt left
        // would draw the label "BrandBr…". A required asset must show whole.
        let ad = try Self.ad(NativeFixtures.card("a", sponsored: String(repeating: "Brand", count: 8)))
        let layout = NativeCardLayout(ad: ad, template: .default, availableWidth: 320, measurer: Self.measurer)
        #expect(layout.frames.first { $0.slot == .domain }?.rect.width == 0)
        #expect(layout.frames.first { $0.slot == .sponsored }?.rect == PointRect(x: 60, y: 36, width: 216, height: 16))
        #expect(layout.bindingFailure(ad.assets) == "required asset id 4 (data sponsored) is cut to 216 pt: the row has no room for all of it")
        // Not required, it may be cut.
        let optional = try Self.ad(NativeFixtures.card("a", sponsored: String(repeating: "Brand", count: 8), sponsoredRequired: false))
        #expect(NativeCardLayout(ad: optional, template: .default, availableWidth: 320, measurer: Self.measurer).bindingFailure(optional.assets) == nil)
    }

    @Test func templatesReadFromJSONNameTheBadValue() throws {
        let template = try NativeCardTemplate(json: ["slots": ["title", "media", "sponsored"], "width": 280], source: "s.json", path: "template")
        #expect(template.slots == [.title, .media, .sponsored])
        #expect(template.width == 280)
        #expect(template.bodyLines == 3)
        #expect(throws: NativeError.invalidTemplate(source: "s.json", path: "template.slots[1]",
                                                    message: #""cta" is not one of "icon", "title", "domain", "sponsored", "age", "feedback", "media", "body", "callToAction", "warning""#)) {
            try NativeCardTemplate(json: ["slots": ["title", "cta"]], source: "s.json", path: "template")
        }
        #expect(throws: NativeError.invalidTemplate(source: "s.json", path: "template.width", message: "-1 is not in 0…2000")) {
            try NativeCardTemplate(json: ["width": -1], source: "s.json", path: "template")
        }
    }

    @Test func theMonospaceMeasurerBreaksBetweenAnyCharacters() {
        #expect(Self.measurer.lineCount(of: "", width: 100, fontSize: 10) == 0)
        #expect(Self.measurer.lineCount(of: String(repeating: "a", count: 16), width: 100, fontSize: 10) == 1)
        #expect(Self.measurer.lineCount(of: String(repeating: "a", count: 17), width: 100, fontSize: 10) == 2)
        #expect(Self.measurer.width(of: "Привет", fontSize: 10) == Rational(36))
    }
}
