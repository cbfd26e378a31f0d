@testable import pipctl
import MediaCore

/// A `TextSink` that keeps what is written, for running commands in-process.
final class CapturedText: TextSink {
    private let text = LockedState("")
    let isTerminal: Bool

    /// - Parameter isTerminal: what the sink claims to be (a terminal makes progress lines draw).
    init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    func write(_ string: String) { text.withLock { $0 += string } }

    /// Everything written so far.
    var contents: String { text.withLock { $0 } }
}
