@testable import AdPlayback
import MediaCore
import Testing

@Suite struct ScreenCommandParsingTests {
    @Test(arguments: [
        ("rotate landscape@1", ScreenCommand.rotate(.landscape)),
        ("ROTATE Portrait@1", .rotate(.portrait)),
        ("resize Side 375x1194@1", .resize("Side", PointSize(width: 375, height: 1194))),
        ("split 1/2@1", .split(.half)),
        ("split 2/3@1", .split(.twoThirds)),
        ("split 1/3@1", .split(.oneThird)),
        ("fold@1", .fold),
        ("unfold@1", .unfold),
        ("activate Main@1", .activate("Main")),
        ("present Interstitial side@1", .presentInterstitial("side")),
        ("tap 120,640@1", .tap(x: 120, y: 640)),
        ("dismiss side@1", .dismiss("side")),
    ])
    func parsesEachScreenCommandKeepingSceneNames(text: String, command: ScreenCommand) throws {
        #expect(try TimedCommand(parsing: text) == TimedCommand(time: MediaTime(seconds: .one), command: .screen(command)))
    }

    @Test func screenCommandsMixWithTheOthersAndFormatBackToTheSameScript() throws {
        let script = try SessionScript(parsing: "pip on@1; split 1/3@2.5\nresize side 300x400@3; tap 10,20@101/30; quit@9")
        #expect(script.commands.map(\.command) == [.startPictureInPicture, .screen(.split(.oneThird)),
                                                   .screen(.resize("side", PointSize(width: 300, height: 400))),
                                                   .screen(.tap(x: 10, y: 20)), .quit])
        #expect(try SessionScript(parsing: script.formatted()) == script)
        #expect(script.formatted() == "pip on@1; split 1/3@2.5; resize side 300x400@3; tap 10,20@101/30; quit@9")
    }

    @Test(arguments: [
        ("rotate sideways@1", "rotate takes \"portrait\" or \"landscape\", not \"sideways\""),
        ("rotate@1", "rotate takes \"portrait\" or \"landscape\""),
        ("resize main@1", "resize takes a scene and a size in points, as in \"resize main 375x1194\""),
        ("resize main 10by20@1", "\"10by20\" is not a size; write WxH in points, as in 375x1194"),
        ("split 3/4@1", "split takes 1/2, 2/3 or 1/3, not \"3/4\""),
        ("fold now@1", "fold takes no argument"),
        ("activate@1", "activate takes one scene name, as in \"activate main\""),
        ("dismiss a b@1", "dismiss takes one scene name, as in \"dismiss side\""),
        ("present banner main@1", "present takes \"interstitial\" and a scene name, as in \"present interstitial side\""),
        ("tap 10@1", "tap takes the device's points X,Y (non-negative whole numbers), as in \"tap 120,640\", not \"10\""),
        ("tap -1,5@1", "tap takes the device's points X,Y (non-negative whole numbers), as in \"tap 120,640\", not \"-1,5\""),
    ])
    func namesTheCommandAndTheValueThatIsWrong(text: String, detail: String) {
        #expect(throws: ScriptError.badArgument(command: text, detail: detail)) {
            try SessionScript(parsing: "pip@0; \(text); quit@9")
        }
    }

    @Test func anUnknownWordListsTheScreenCommandsToo() {
        let message = ScriptError.unknownCommand(command: "zoom@3").description
        #expect(message.contains("rotate, resize, split, fold, unfold, activate, present interstitial, tap, dismiss"))
        #expect(!message.contains("\n"))
    }
}
