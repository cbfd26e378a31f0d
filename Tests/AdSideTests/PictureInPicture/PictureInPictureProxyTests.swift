@testable import AdPlayback
import MediaCore
import Testing

/// An app delegate that writes down every message with its arguments.
final class RecordingPictureInPictureDelegate: PictureInPictureDelegate {
    private(set) var messages: [String] = []
    private(set) var controllers: [ObjectIdentifier] = []
    var restoreAnswer = true

    private func note(_ message: String, _ controller: PictureInPictureController) {
        messages.append(message)
        controllers.append(ObjectIdentifier(controller))
    }

    func pictureInPictureControllerWillStart(_ controller: PictureInPictureController) { note("willStart", controller) }
    func pictureInPictureControllerDidStart(_ controller: PictureInPictureController) { note("didStart", controller) }
    func pictureInPictureController(_ controller: PictureInPictureController,
                                    failedToStartWith error: PictureInPictureError) {
        note("failedToStart: \(error)", controller)
    }
    func pictureInPictureControllerWillStop(_ controller: PictureInPictureController) { note("willStop", controller) }
    func pictureInPictureControllerDidStop(_ controller: PictureInPictureController) { note("didStop", controller) }
    func pictureInPictureController(_ controller: PictureInPictureController,
                                    restoreUserInterfaceWithCompletionHandler completion: @escaping (Bool) -> Void) {
        note("restoreUserInterface", controller)
        completion(restoreAnswer)
    }
}

@Suite struct PictureInPictureProxyTests {
    /// Drives a controller through a refused start, a start and a stop.
    static func exercise(_ controller: PictureInPictureController) {
        controller.isPlayerReady = false
        controller.startPictureInPicture()
        controller.isPlayerReady = true
        controller.startPictureInPicture()
        controller.finishTransition()
        controller.stopPictureInPicture()
        controller.finishTransition()
    }

    static let expected = ["failedToStart: picture-in-picture is not possible now: nothing is playing", "willStart",
                           "didStart", "restoreUserInterface", "willStop", "didStop"]

    @Test func forwardsEveryMessageInOrderToTheAppDelegateThenTheAdsSide() {
        var order: [String] = []
        final class Side: PictureInPictureDelegate {
            let name: String
            let log: (String) -> Void
            init(_ name: String, _ log: @escaping (String) -> Void) { self.name = name; self.log = log }
            func pictureInPictureControllerWillStart(_ controller: PictureInPictureController) { log("\(name) willStart") }
            func pictureInPictureControllerDidStop(_ controller: PictureInPictureController) { log("\(name) didStop") }
        }
        let app = Side("app") { order.append($0) }
        let ads = Side("ads") { order.append($0) }
        let proxy = PictureInPictureProxy(appDelegate: app)
        proxy.attach(adsObserver: ads)
        let controller = PictureInPictureController()
        controller.delegate = proxy
        Self.exercise(controller)
        #expect(order == ["app willStart", "ads willStart", "app didStop", "ads didStop"])
    }

    @Test func bothSidesReceiveTheSameMessagesWithTheSameArguments() {
        let app = RecordingPictureInPictureDelegate(), ads = RecordingPictureInPictureDelegate()
        let proxy = PictureInPictureProxy(appDelegate: app)
        proxy.attach(adsObserver: ads)
        let controller = PictureInPictureController()
        controller.delegate = proxy
        Self.exercise(controller)
        #expect(app.messages == Self.expected)
        #expect(ads.messages == app.messages)
        #expect(Set(app.controllers + ads.controllers) == [ObjectIdentifier(controller)])
    }

    @Test func tracksWhetherTheWindowIsActiveFromDidStartToDidStop() {
        let proxy = PictureInPictureProxy(appDelegate: nil)
        let controller = PictureInPictureController()
        controller.delegate = proxy
        controller.startPictureInPicture()
        #expect(!proxy.isPictureInPictureActive)
        controller.finishTransition()
        #expect(proxy.isPictureInPictureActive)
        controller.stopPictureInPicture()
        #expect(proxy.isPictureInPictureActive)
        controller.finishTransition()
        #expect(!proxy.isPictureInPictureActive)
    }

    @Test func restoreCompletesOnceWithTrueOnlyIfEveryReceiverRestored() {
        let app = RecordingPictureInPictureDelegate(), ads = RecordingPictureInPictureDelegate()
        let proxy = PictureInPictureProxy(appDelegate: app)
        proxy.attach(adsObserver: ads)
        let controller = PictureInPictureController()
        var answers: [Bool] = []
        proxy.pictureInPictureController(controller, restoreUserInterfaceWithCompletionHandler: { answers.append($0) })
        app.restoreAnswer = false
        proxy.pictureInPictureController(controller, restoreUserInterfaceWithCompletionHandler: { answers.append($0) })
        #expect(answers == [true, false])
    }

    @Test func aReleasedAppDelegateStopsReceivingWithoutCrashingAndTheSessionStillLogs() throws {
        var app: RecordingPictureInPictureDelegate? = RecordingPictureInPictureDelegate()
        weak let released = app
        let session = try PlaybackSession(plan: .empty, configuration: testConfiguration(contentSeconds: 2, script: "pip on@0.5; pip off@1"),
                                          media: FakeAdMedia(rate: tenFPS, [:]), appDelegate: app)
        app = nil
        #expect(released == nil && session.pictureInPictureProxy.appDelegate == nil)
        let run = runToEnd(session)
        #expect(run.events.filter { $0.type.rawValue.hasPrefix("PIP_") }.map(\.compact) == [
            "5 PIP_WILL_START", "5 PIP_DID_START", "10 PIP_RESTORE_USER_INTERFACE", "10 PIP_WILL_STOP", "10 PIP_DID_STOP",
        ])
    }

    @Test func theSessionsAppDelegateGetsWhatTheAdsManagerLogs() throws {
        let app = RecordingPictureInPictureDelegate()
        let session = try PlaybackSession(
            plan: .empty, configuration: testConfiguration(contentSeconds: 2, script: "pip on@0; pip on@0.5; pip@0.6; pip@0.7; pip off@1.5"),
            media: FakeAdMedia(rate: tenFPS, [:]), appDelegate: app)
        let run = runToEnd(session)
        let logged = run.events.filter { $0.type.rawValue.hasPrefix("PIP_") }
        #expect(app.messages == ["failedToStart: picture-in-picture is not possible now: nothing is playing",
                                 "willStart", "didStart", "restoreUserInterface", "willStop", "didStop",
                                 "willStart", "didStart", "restoreUserInterface", "willStop", "didStop"])
        #expect(logged.map(\.type.rawValue) == ["PIP_FAILED_TO_START", "PIP_WILL_START", "PIP_DID_START",
                                       "PIP_RESTORE_USER_INTERFACE", "PIP_WILL_STOP", "PIP_DID_STOP",
                                       "PIP_WILL_START", "PIP_DID_START", "PIP_RESTORE_USER_INTERFACE",
                                       "PIP_WILL_STOP", "PIP_DID_STOP"])
        #expect(logged[0].columns.message == "picture-in-picture is not possible now: nothing is playing")
        #expect(logged.map(\.frame) == [0, 5, 5, 6, 6, 6, 7, 7, 15, 15, 15])
    }
}

@Suite struct PictureInPictureControllerTests {
    @Test(arguments: [
        (false, true, PictureInPictureError.notSupported),
        (true, false, .backgroundPlaybackDisabled),
    ])
    func refusesToStartWhenTheDeviceOrAppDoesNotAllowIt(supported: Bool, background: Bool, error: PictureInPictureError) {
        let controller = PictureInPictureController(isSupported: supported, backgroundPlaybackEnabled: background)
        let app = RecordingPictureInPictureDelegate()
        controller.delegate = app
        controller.startPictureInPicture()
        #expect(app.messages == ["failedToStart: \(error)"])
        #expect(controller.state == .inactive && !controller.isPictureInPictureActive)
    }

    @Test func aStartOrAStopIsARequestCompletedByTheTransition() {
        let controller = PictureInPictureController()
        let app = RecordingPictureInPictureDelegate()
        controller.delegate = app
        controller.stopPictureInPicture()
        #expect(app.messages.isEmpty, "stop is ignored unless active")
        controller.startPictureInPicture()
        #expect(controller.state == .starting && !controller.isPictureInPicturePossible)
        controller.startPictureInPicture()
        #expect(app.messages.last == "failedToStart: picture-in-picture is not possible now: picture-in-picture is starting")
        controller.finishTransition()
        #expect(controller.state == .active && controller.isPictureInPictureActive)
        controller.stopPictureInPicture()
        #expect(controller.state == .stopping && controller.isPictureInPictureActive)
        controller.finishTransition()
        controller.finishTransition()
        #expect(controller.state == .inactive)
        #expect(app.messages.filter { !$0.hasPrefix("failed") } == ["willStart", "didStart", "restoreUserInterface", "willStop", "didStop"])
    }
}
