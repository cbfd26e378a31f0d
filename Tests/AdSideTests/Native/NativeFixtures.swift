@testable import AdScreen
import Foundation
import MediaCore

/// Small slider responses written by hand for the native tests.
enum NativeFixtures {
    /// One card of a slider response: an icon, a title, a required sponsored label (unless `sponsored` is nil),
    /// a main image, a body and a call to action, with an impression tracker and a click tracker.
    static func card(_ id: String, crid: String? = nil, title: String = "Title", sponsored: String? = "Brand",
                     sponsoredRequired: Bool = true, domain: String = "shop.example", base: String = "https://t.example") -> String {
        var assets = [
            #"{"id":1,"required":1,"title":{"text":"\#(title)"}}"#,
            #"{"id":2,"img":{"type":1,"url":"https://img.example/\#(id)-icon.png","w":80,"h":80}}"#,
            #"{"id":3,"img":{"type":3,"url":"https://img.example/\#(id).png","w":1200,"h":627}}"#,
            #"{"id":5,"data":{"type":11,"value":"\#(domain)"}}"#,
            #"{"id":6,"data":{"type":2,"value":"A body text"}}"#,
            #"{"id":7,"data":{"type":12,"value":"Install"}}"#,
        ]
        if let sponsored {
            assets.insert(#"{"id":4,"required":\#(sponsoredRequired ? 1 : 0),"data":{"type":1,"value":"\#(sponsored)"}}"#, at: 3)
        }
        return #"""
            {"adid":"\#(id)"\#(crid.map { #","crid":"\#($0)""# } ?? ""),"assets":[\#(assets.joined(separator: ","))],
             "link":{"url":"https://shop.example/\#(id)","clicktrackers":["\#(base)/click/\#(id)"]},
             "imptrackers":["\#(base)/imp/\#(id)"],
             "eventtrackers":[{"event":1,"method":1,"url":"\#(base)/ev/\#(id)"},{"event":1,"method":2,"url":"\#(base)/js/\#(id)"}]}
            """#
    }

    /// A slider block: a required block-level sponsored label and `cards`.
    static func slider(_ cards: [String], blockSponsored: String? = "Ads") -> String {
        let block = blockSponsored.map { #"[{"id":100,"required":1,"data":{"type":1,"value":"\#($0)"}}]"# } ?? "[]"
        return #"{"ver":"1.2","assets":\#(block),"ads":[\#(cards.joined(separator: ","))]}"#
    }

    static func block(_ json: String) throws -> NativeBlock {
        try NativeResponseParser().parse(Data(json.utf8), source: "slider.json")
    }
}

extension NativeFixtures {
    /// `json` read as a block, throwing the parser's own error type (for loader closures).
    static func blockTyped(_ json: String) throws(NativeError) -> NativeBlock {
        try NativeResponseParser().parse(Data(json.utf8), source: "slider.json")
    }
}
