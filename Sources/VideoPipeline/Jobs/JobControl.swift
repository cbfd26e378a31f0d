/// How a long job reports progress and learns that it should stop.
public struct JobControl {
    /// Called after each output frame with (frames done, frames in all when known).
    public var progress: (_ done: Int64, _ total: Int64?) -> Void
    /// Polled once per frame; returning `true` stops the job with `MediaError.interrupted`, leaving nothing behind.
    public var isCancelled: () -> Bool

    public init(progress: @escaping (_ done: Int64, _ total: Int64?) -> Void = { _, _ in },
                isCancelled: @escaping () -> Bool = { false }) {
        self.progress = progress
        self.isCancelled = isCancelled
    }

    public static var none: JobControl { JobControl() }
}
