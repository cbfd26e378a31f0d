import Foundation
import MediaCore

extension SessionEvent {
    /// What the device's screen reports after a screen command (`PlayerScreen.apply`), in the order an app hears it:
    /// the `LOG` lines of a command's effect on the screen. The screen model (AdScreen's `ScreenEvent`) says it in
    /// its own terms; this is what the event log keeps of it.
    ///
    /// The log writes each as the `message` of a `LOG` line about the session without a `reason` (`message` below,
    /// the text logs always had); reading such a line whose message begins "scene " or "tap at " gives the case back,
    /// and refuses the line when the rest is not one of these messages (`init(message:)`).
    public enum ScreenEventKind: Hashable, Sendable {
        /// The scene is about to take a new size (`viewWillTransition(to:with:)`).
        case willTransition(scene: SceneID, to: PointSize)
        /// The scene's frame or safe area changed (`didUpdateCoordinateSpace`): its new frame and safe-area insets.
        case didUpdateCoordinateSpace(scene: SceneID, frame: PointRect, safeArea: EdgeInsets)
        /// The scene's activation state changed.
        case activationChanged(scene: SceneID, to: SceneActivationState)
        /// The scene's anchored adaptive banner must be requested again at `size`: its width is new.
        case bannerNeedsReload(scene: SceneID, size: PointSize)
        /// The banner keeps its creative (same width) and moves or changes height to `frame`.
        case bannerReanchored(scene: SceneID, frame: PointRect)
        /// Something now covers the scene's window (a full-screen ad, a banner's landing screen).
        case presented(scene: SceneID, ScenePresentation)
        /// What covered the scene's window is gone.
        case dismissed(scene: SceneID, ScenePresentation)
        /// A tap at the device's point (x, y), as typed, and what it landed on.
        case tapped(x: Int, y: Int, on: TapTarget)
    }

    /// What a tap landed on.
    public enum TapTarget: Hashable, Sendable {
        /// Nothing that takes a tap (the bezel, a divider), or nothing the screen model draws (a native card's tap
        /// is `nothing` to it until the native placements name the card: `nativeCard`).
        case nothing
        /// The top layer of the screen model under the finger, of `scene`.
        case layer(ScreenLayer.Kind, scene: SceneID)
        /// A native card, `card` in the response's `ads` with ad id `adID`, of the placement `placement`.
        case nativeCard(card: Int, adID: String, placement: String)
    }
}

/// What covers a scene's window until it is dismissed.
public enum ScenePresentation: String, Hashable, Sendable, Codable, CaseIterable {
    /// A full-screen ad (`fullscreen` layer).
    case interstitial
    /// The landing screen a banner tap opens (`overlay` layer).
    case bannerLanding
}

// MARK: - The log's message

extension SessionEvent.ScreenEventKind: CustomStringConvertible {
    /// The `message` of the event's `LOG` line, as logs have always written it.
    public var message: String {
        switch self {
        case .willTransition(let scene, let size): "scene \(scene) will transition to \(size)"
        case .didUpdateCoordinateSpace(let scene, let frame, let safeArea): "scene \(scene) frame \(frame) safe area \(safeArea)"
        case .activationChanged(let scene, let state): "scene \(scene) is \(state.rawValue)"
        case .bannerNeedsReload(let scene, let size): "scene \(scene) banner needs a new request for \(size)"
        case .bannerReanchored(let scene, let frame): "scene \(scene) banner re-anchored at \(frame)"
        case .presented(let scene, let what): "scene \(scene) presents \(what.rawValue)"
        case .dismissed(let scene, let what): "scene \(scene) dismissed \(what.rawValue)"
        case .tapped(let x, let y, let target): "tap at \(x),\(y) on \(target)"
        }
    }

    public var description: String { message }

    /// The event a `LOG` message stands for; `nil` when the message is not the screen's (it begins neither
    /// "scene " nor "tap at ").
    ///
    /// The scene's name is what lies between "scene " and the last occurrence of the words that follow it (a name
    /// may hold spaces); a card's ad id ends at the first `") of placement "`. A message is accepted only when the
    /// event read from it writes it back byte for byte.
    ///
    /// - Throws: `ScreenEventTextError` for a message that begins like the screen's but is none of its messages.
    public init?(message: String) throws(ScreenEventTextError) {
        let parsed: Self?
        if message.hasPrefix(Self.scenePrefix) {
            parsed = Self.sceneEvent(message.dropFirst(Self.scenePrefix.count))
        } else if message.hasPrefix(Self.tapPrefix) {
            parsed = Self.tap(message.dropFirst(Self.tapPrefix.count))
        } else {
            return nil
        }
        guard let parsed, parsed.message == message else { throw ScreenEventTextError(message: message) }
        self = parsed
    }

    private static let scenePrefix = "scene ", tapPrefix = "tap at "

    /// "S will transition to WxH", "S is STATE", …: the first form whose words follow the scene's name.
    private static func sceneEvent(_ text: Substring) -> Self? {
        func split(_ words: String) -> (scene: SceneID, rest: Substring)? {
            guard let at = text.range(of: words, options: .backwards), at.lowerBound > text.startIndex else { return nil }
            return (SceneID(String(text[..<at.lowerBound])), text[at.upperBound...])
        }
        if let (scene, rest) = split(" will transition to "), let size = pointSize(rest) {
            return .willTransition(scene: scene, to: size)
        }
        if let (scene, rest) = split(" banner needs a new request for "), let size = pointSize(rest) {
            return .bannerNeedsReload(scene: scene, size: size)
        }
        if let (scene, rest) = split(" banner re-anchored at "), let frame = pointRect(rest) {
            return .bannerReanchored(scene: scene, frame: frame)
        }
        if let (scene, rest) = split(" frame "), let safe = rest.range(of: " safe area "),
           let frame = pointRect(rest[..<safe.lowerBound]), let insets = edgeInsets(rest[safe.upperBound...]) {
            return .didUpdateCoordinateSpace(scene: scene, frame: frame, safeArea: insets)
        }
        if let (scene, rest) = split(" is "), let state = SceneActivationState(rawValue: String(rest)) {
            return .activationChanged(scene: scene, to: state)
        }
        if let (scene, rest) = split(" presents "), let what = ScenePresentation(rawValue: String(rest)) {
            return .presented(scene: scene, what)
        }
        if let (scene, rest) = split(" dismissed "), let what = ScenePresentation(rawValue: String(rest)) {
            return .dismissed(scene: scene, what)
        }
        return nil
    }

    /// "X,Y on TARGET".
    private static func tap(_ text: Substring) -> Self? {
        guard let on = text.range(of: " on ") else { return nil }
        let point = text[..<on.lowerBound].split(separator: ",", omittingEmptySubsequences: false)
        guard point.count == 2, let x = Int(point[0]), let y = Int(point[1]),
              let target = SessionEvent.TapTarget(text[on.upperBound...]) else { return nil }
        return .tapped(x: x, y: y, on: target)
    }

    /// "WxH".
    private static func pointSize(_ text: Substring) -> PointSize? {
        let sides = text.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]) else { return nil }
        return PointSize(width: width, height: height)
    }

    /// "WxH+X+Y".
    private static func pointRect(_ text: Substring) -> PointRect? {
        let parts = text.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let size = pointSize(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]) else { return nil }
        return PointRect(origin: x, y, size: size)
    }

    /// "top T left L bottom B right R".
    private static func edgeInsets(_ text: Substring) -> EdgeInsets? {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 8, words[0] == "top", words[2] == "left", words[4] == "bottom", words[6] == "right",
              let top = Int(words[1]), let left = Int(words[3]), let bottom = Int(words[5]), let right = Int(words[7]) else { return nil }
        return EdgeInsets(top: top, left: left, bottom: bottom, right: right)
    }
}

extension SessionEvent.TapTarget: CustomStringConvertible {
    /// As the tap's message ends: "nothing", "banner of scene main", "card 3 ("shoe-4") of placement "feed-slider"".
    public var description: String {
        switch self {
        case .nothing: "nothing"
        case .layer(let kind, let scene): "\(kind.rawValue) of scene \(scene)"
        case .nativeCard(let card, let adID, let placement): "card \(card) (\"\(adID)\") of placement \"\(placement)\""
        }
    }

    /// The target a tap's message ends with (`description`); `nil` when it is none.
    fileprivate init?(_ text: Substring) {
        if text == "nothing" {
            self = .nothing
        } else if let of = text.range(of: " of scene "), let kind = ScreenLayer.Kind(rawValue: String(text[..<of.lowerBound])) {
            self = .layer(kind, scene: SceneID(String(text[of.upperBound...])))
        } else if text.hasPrefix("card "), case let body = text.dropFirst("card ".count), let open = body.range(of: " (\""),
                  let card = Int(body[..<open.lowerBound]), let close = body[open.upperBound...].range(of: "\") of placement \""),
                  close.upperBound < body.endIndex, body.hasSuffix("\"") {
            self = .nativeCard(card: card, adID: String(body[open.upperBound..<close.lowerBound]),
                               placement: String(body[close.upperBound..<body.index(before: body.endIndex)]))
        } else {
            return nil
        }
    }
}

/// A `LOG` message that begins like one of the screen's ("scene ", "tap at ") but is none of them.
public struct ScreenEventTextError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public var description: String {
        "\"\(message.excerpt)\" is not a screen event (\"scene S will transition to WxH\", \"scene S is STATE\", "
            + "\"tap at X,Y on nothing\", …)"
    }
}
