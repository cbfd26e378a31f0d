import AdDecisioning
import MediaCore

/// Where a session stands between two frames, for a live status line.
public struct SessionStatus: Hashable, Sendable, CustomStringConvertible {
    /// What the last frame showed.
    public enum Showing: Hashable, Sendable {
        /// No frame was decided yet.
        case nothing
        case content(tick: Int64)
        case ad(breakIndex: Int, adIndex: Int, tick: Int64, frameCount: Int64)
        case ended
    }

    /// The next output frame to decide.
    public var frame: Int64
    public var outputTime: MediaTime
    /// The content position (during a break: where the content resumes).
    public var contentPosition: MediaTime
    public var showing: Showing
    public var isPaused: Bool
    public var pictureInPicture: PictureInPictureController.State
    /// The next break the content will reach.
    public var nextBreak: UpcomingBreak?
    /// Breaks held by picture-in-picture, in the order they will play.
    public var heldBreaks: [Int]

    /// A break and where the plan puts it.
    public struct UpcomingBreak: Hashable, Sendable {
        public var index: Int
        public var position: BreakPosition

        public init(index: Int, position: BreakPosition) {
            self.index = index
            self.position = position
        }
    }

    public init(frame: Int64, outputTime: MediaTime, contentPosition: MediaTime, showing: Showing, isPaused: Bool,
                pictureInPicture: PictureInPictureController.State, nextBreak: UpcomingBreak?,
                heldBreaks: [Int]) {
        self.frame = frame
        self.outputTime = outputTime
        self.contentPosition = contentPosition
        self.showing = showing
        self.isPaused = isPaused
        self.pictureInPicture = pictureInPicture
        self.heldBreaks = heldBreaks
        self.nextBreak = nextBreak
    }

    /// One line: `0:00:12.400 content 0:00:10.000 | PiP active | held 2 | next 3 midroll@0:05:00.000`.
    public var description: String {
        var parts = ["\(outputTime)"]
        switch showing {
        case .nothing: parts[0] += " starting"
        case .content: parts[0] += " content \(contentPosition)"
        case .ad(let b, let a, let tick, let count): parts[0] += " ad \(a) of break \(b), frame \(tick + 1)/\(count)"
        case .ended: parts[0] += " ended"
        }
        if isPaused { parts.append("paused") }
        if pictureInPicture != .inactive { parts.append("PiP \(pictureInPicture.rawValue)") }
        if !heldBreaks.isEmpty { parts.append("held " + heldBreaks.map(String.init).joined(separator: ",")) }
        if let next = nextBreak { parts.append("next \(next.index) \(next.position)") }
        return parts.joined(separator: " | ")
    }
}
