@testable import AdPlayback
@testable import AdScreen
import Foundation
import MediaCore
import Testing

/// A timeline's layers are an enum of kinds, each with its own fields: written with the keys and values the timeline
/// always had, read back to the same case, and a layer with a field of another kind (or half of a group of fields)
/// refused naming its JSON path.
@Suite struct TimelineLayerCodingTests {
    struct Document: Decodable { var layers: [Timeline.Layer] }

    static func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Timeline.Rect { Timeline.Rect(PixelRect(x: x, y: y, width: w, height: h)) }
    static func area(_ scene: SceneID = "main") -> Timeline.Layer.Area { .init(scene: scene, rect: rect(0, 0, 320, 180)) }

    static func json(_ layer: Timeline.Layer) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(layer), as: UTF8.self)
    }

    static func decode(_ layers: String) throws(TimelineError) -> [Timeline.Layer] {
        do { return try JSONDecoder().decode(Document.self, from: Data(#"{"layers": [\#(layers)]}"#.utf8)).layers } catch let error as DecodingError {
            throw TimelineError(error)
        } catch {
            throw .malformed(jsonPath: "", reason: "\(error)")
        }
    }

    static let rectJSON = #""rect":{"height":180,"width":320,"x":0,"y":0}"#

    /// One layer of every kind with every field it can have, and the JSON the timeline has always written for it.
    static let written: [(Timeline.Layer, String)] = [
        (.player(.init(.content, area(), source: "content.mp4")),
         #"{"kind":"content",\#(rectJSON),"scene":"main","source":"content.mp4"}"#),
        (.player(.init(.ad, area("right"), source: "/m/ad.mp4", playing: .init(srcStartTick: 12, paused: false, ad: AdReference(0, 1)))),
         #"{"ad":1,"break":0,"kind":"ad","paused":false,\#(rectJSON),"scene":"right","source":"/m/ad.mp4","srcStartTick":12}"#),
        (.player(.init(.pip, area("right"), source: "c.mp4", playing: .init(srcStartTick: 3, paused: true, ad: nil))),
         #"{"kind":"pip","paused":true,\#(rectJSON),"scene":"right","source":"c.mp4","srcStartTick":3}"#),
        (.player(.init(.content, area(), source: nil)), #"{"kind":"content",\#(rectJSON),"scene":"main"}"#),
        (.banner(area(), source: "https://ads.example/b.png"),
         #"{"kind":"banner",\#(rectJSON),"scene":"main","source":"https://ads.example/b.png"}"#),
        (.banner(area(), source: nil), #"{"kind":"banner",\#(rectJSON),"scene":"main"}"#),
        (.fullScreen(area(), .placeholder), #"{"kind":"fullscreen",\#(rectJSON),"scene":"main"}"#),
        (.fullScreen(area(), .image(source: "i.png")), #"{"kind":"fullscreen",\#(rectJSON),"scene":"main","source":"i.png"}"#),
        (.fullScreen(area(), .video(source: "v.mp4", srcStartTick: 7)),
         #"{"kind":"fullscreen",\#(rectJSON),"scene":"main","source":"v.mp4","srcStartTick":7}"#),
        (.overlay(area()), #"{"kind":"overlay",\#(rectJSON),"scene":"main"}"#),
        (.slider(area(), .init(placement: "s", placeholder: false)), #"{"kind":"slider","placement":"s",\#(rectJSON),"scene":"main"}"#),
        (.slider(area(), .init(placement: "s", placeholder: true)),
         #"{"kind":"slider","placeholder":true,"placement":"s",\#(rectJSON),"scene":"main"}"#),
        (.card(area(), .init(index: 2, adID: "c2", placement: "s", clip: rect(0, 0, 300, 100), radius: 12,
                             image: .init(rect: rect(4, 4, 80, 40), radius: 8, source: "https://x.example/i.jpg"))),
         #"{"adId":"c2","clip":{"height":100,"width":300,"x":0,"y":0},"image":{"height":40,"width":80,"x":4,"y":4},"imageRadius":8,"index":2,"kind":"card","placement":"s","radius":12,\#(rectJSON),"scene":"main","source":"https://x.example/i.jpg"}"#),
        (.native(area(), .init(index: 0, adID: "n", placement: "p", clip: rect(0, 0, 320, 180), radius: 12,
                               image: .init(rect: rect(4, 4, 80, 40), radius: 8, source: nil))),
         #"{"adId":"n","clip":{"height":180,"width":320,"x":0,"y":0},"image":{"height":40,"width":80,"x":4,"y":4},"imageRadius":8,"index":0,"kind":"native","placement":"p","radius":12,\#(rectJSON),"scene":"main"}"#),
        (.divider(area()), #"{"kind":"divider",\#(rectJSON),"scene":"main"}"#),
        // The divider as renders write it since issue 36: a screen-level layer, without a scene.
        (.divider(area(.screen)), #"{"kind":"divider",\#(rectJSON)}"#),
        (.edge(area()), #"{"kind":"edge",\#(rectJSON),"scene":"main"}"#),
        (.shadow(area(), ScreenLayer.Shadow(caster: PixelRect(x: 10, y: 0, width: 100, height: 180), radius: 20, reach: 30)),
         #"{"caster":{"height":180,"width":100,"x":10,"y":0},"kind":"shadow","radius":20,"reach":30,\#(rectJSON),"scene":"main"}"#),
    ]

    @Test func everyKindIsWrittenAsTheTimelineAlwaysWroteItAndReadBack() throws {
        #expect(Set(Self.written.map(\.0.kind)) == Set(ScreenLayer.Kind.allCases))
        for (layer, text) in Self.written {
            #expect(try Self.json(layer) == text)
            #expect(try Self.decode(text) == [layer])
        }
    }

    @Test func aLayerMovesOnWithItsPlayerUnlessItHolds() {
        let playing = Timeline.Layer.player(.init(.content, Self.area(), source: "c.mp4", playing: .init(srcStartTick: 5, paused: false, ad: nil)))
        #expect(playing.advanced(by: 10)
                == .player(.init(.content, Self.area(), source: "c.mp4", playing: .init(srcStartTick: 15, paused: false, ad: nil))))
        let held = Timeline.Layer.player(.init(.content, Self.area(), source: "c.mp4", playing: .init(srcStartTick: 5, paused: true, ad: nil)))
        #expect(held.advanced(by: 10) == held)
        #expect(Timeline.Layer.fullScreen(Self.area(), .video(source: "v.mp4", srcStartTick: 0)).advanced(by: 4)
                == .fullScreen(Self.area(), .video(source: "v.mp4", srcStartTick: 4)))
        #expect(Timeline.Layer.banner(Self.area(), source: "b.png").advanced(by: 4) == .banner(Self.area(), source: "b.png"))
    }

    /// Timelines written before a kind gained a field still read, as what they say.
    @Test func olderLayersWithoutTheirNewerFieldsRead() throws {
        let layers = try Self.decode([
            #"{"kind":"card",\#(Self.rectJSON),"scene":"main"}"#,
            #"{"kind":"fullscreen",\#(Self.rectJSON),"scene":"main","source":"v.mp4"}"#,
            #"{"kind":"shadow",\#(Self.rectJSON),"scene":"main"}"#,
            #"{"kind":"content",\#(Self.rectJSON),"scene":"right","source":"c.mp4","srcStartTick":4}"#,
        ].joined(separator: ","))
        #expect(layers == [
            .card(Self.area(), .init(index: nil, adID: nil, placement: nil, clip: nil, radius: nil)),
            .fullScreen(Self.area(), .image(source: "v.mp4")),
            .shadow(Self.area(), nil),
            .player(.init(.content, Self.area("right"), source: "c.mp4", playing: .init(srcStartTick: 4, paused: false, ad: nil))),
        ])
    }

    /// A field that belongs to another kind, or half of a group, is refused by its path: verify would otherwise
    /// check what the field claims against a layer that never had it.
    @Test(arguments: [
        (#""kind":"banner","clip":{"height":1,"width":1,"x":0,"y":0}"#, "layers[0].clip", "not a field of banner layers"),
        (#""kind":"overlay","source":"x.png""#, "layers[0].source", "not a field of overlay layers"),
        (#""kind":"slider","srcStartTick":3"#, "layers[0].srcStartTick", "not a field of slider layers"),
        (#""kind":"content","paused":true"#, "layers[0].paused", "given without srcStartTick"),
        (#""kind":"ad","srcStartTick":3,"break":0"#, "layers[0].break", "given without ad"),
        (#""kind":"fullscreen","srcStartTick":3"#, "layers[0].srcStartTick", "given without source"),
        (#""kind":"card","imageRadius":3"#, "layers[0].imageRadius", "given without image"),
        (#""kind":"card","source":"i.png""#, "layers[0].source", "given without image"),
        (#""kind":"shadow","reach":3"#, "layers[0].reach", "a shadow's caster, radius and reach go together"),
        (#""kind":"content","srcStartTick":1.5"#, "layers[0].srcStartTick", "1.5 is not a whole number of 64 bits"),
        (#""kind":"lens""#, "layers[0].kind", ""),
    ])
    func aFieldThatDoesNotBelongIsRefusedByItsPath(_ fields: String, _ path: String, _ reason: String) {
        let layer = "{\(fields),\(Self.rectJSON),\"scene\":\"main\"}"
        #expect(throws: TimelineError.self) { try Self.decode(layer) }
        do { _ = try Self.decode(layer) } catch {
            #expect(error.jsonPath == path)
            if !reason.isEmpty { #expect(error == .malformed(jsonPath: path, reason: reason)) }
        }
    }
}
