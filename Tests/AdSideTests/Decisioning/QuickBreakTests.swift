@testable import AdDecisioning
import Foundation
import LoopbackServer
import MediaCore
import Testing

/// `--break TIME=FILE[,FILE…]`, the quick form for users without an ad server.
@Suite struct QuickBreakTests {
    @Test(arguments: [
        ("pre=a.mp4", BreakOffset.start),
        ("post=a.mp4", .end),
        ("90=a.mp4", .time(MediaTime(seconds: 90))),
        ("12.5=a.mp4", .time(MediaTime(seconds: Rational(25, 2)))),
        ("00:01:30.250=a.mp4", .time(MediaTime(seconds: Rational(361, 4)))),
        ("25%=a.mp4", .fraction(Rational(1, 4))),
    ])
    func readsEveryTimeForm(value: String, offset: BreakOffset) throws {
        let quick = try QuickBreak(parsing: value)
        #expect(quick.offset == offset)
        #expect(quick.files == ["a.mp4"])
    }

    @Test(arguments: [
        ("a.mp4", "expected TIME=FILE[,FILE…]"),
        ("soon=a.mp4", "TIME 'soon' is not pre, post, seconds, hh:mm:ss[.mmm] or n% (0-100)"),
        ("-5=a.mp4", "TIME '-5' is not pre, post, seconds, hh:mm:ss[.mmm] or n% (0-100)"),
        ("120%=a.mp4", "TIME '120%' is not pre, post, seconds, hh:mm:ss[.mmm] or n% (0-100)"),
        ("pre=", "no FILE after '='"),
        ("pre=a.mp4,,b.mp4", "empty FILE in the list"),
    ])
    func refusesBadValuesNamingThem(value: String, reason: String) {
        let error = #expect(throws: DecisioningError.self) { _ = try QuickBreak(parsing: value) }
        #expect(error == .invalidBreak(value: value, reason: reason))
        #expect(error?.isUserError == true)
        #expect(error?.description == "invalid --break value '\(value)': \(reason)")
    }

    @Test func plansOneLinearAdPerFileAlreadySelected() throws {
        let dir = try TemporaryDirectory()
        // Decisioning only needs the files to exist; their bytes are never decoded here.
        for name in ["one.mp4", "two.mov", "mid.mkv", "end.webm"] { try dir.write(name, "placeholder") }
        let plan = try AdsLoader().plan(quickBreaks: [try QuickBreak(parsing: "pre=one.mp4,two.mov"),
                                                      try QuickBreak(parsing: "post=end.webm"),
                                                      try QuickBreak(parsing: "50%=mid.mkv")],
                                        contentDuration: MediaDuration(seconds: 60), relativeTo: dir.path)
        #expect(plan.breaks.map(\.position) == [.preroll, .midroll(MediaTime(seconds: 30)), .postroll])
        let pre = plan.breaks[0].ads.map(\.ad)
        #expect(pre.map(\.adTitle) == ["one.mp4", "two.mov"])
        #expect(pre.map(\.localMediaPath) == [dir.path + "/one.mp4", dir.path + "/two.mov"])
        #expect(pre.map { $0.mediaFiles.first?.type } == ["video/mp4", "video/quicktime"])
        #expect(pre[0].selection?.chosen == pre[0].mediaFiles.first)
        #expect(plan.breaks[1].ads.first?.ad.mediaFiles.first?.type == "video/x-matroska")
        #expect(plan.errors.isEmpty)
    }

    @Test func makesValuesAtTheSamePositionOneBreak() throws {
        let dir = try TemporaryDirectory()
        try dir.write("a.mp4", "placeholder")
        try dir.write("b.mp4", "placeholder")
        let plan = try AdsLoader().plan(quickBreaks: [try QuickBreak(parsing: "30=a.mp4"), try QuickBreak(parsing: "00:00:30=b.mp4")],
                                        contentDuration: nil, relativeTo: dir.path)
        #expect(plan.breaks.count == 1)
        #expect(plan.breaks[0].ads.map(\.ad.adTitle) == ["a.mp4", "b.mp4"])
    }

    @Test func refusesAMissingFileNamingIt() throws {
        let dir = try TemporaryDirectory()
        let error = #expect(throws: DecisioningError.self) {
            _ = try AdsLoader().plan(quickBreaks: [try QuickBreak(parsing: "pre=missing.mp4")], contentDuration: nil,
                                     relativeTo: dir.path)
        }
        #expect(error == .invalidBreak(value: "pre=missing.mp4", reason: "media file missing.mp4 does not exist"))
    }

    @Test func appliesThePlacementRulesOfVMAP() throws {
        let dir = try TemporaryDirectory()
        try dir.write("a.mp4", "placeholder")
        let plan = try AdsLoader().plan(quickBreaks: [try QuickBreak(parsing: "90=a.mp4"), try QuickBreak(parsing: "10%=a.mp4")],
                                        contentDuration: nil, relativeTo: dir.path)
        #expect(plan.breaks.map(\.position) == [.midroll(MediaTime(seconds: 90))])
        #expect(plan.errors.map(\.message) == ["--break 10%=a.mp4 left out: 10% needs the content duration"])
    }
}
