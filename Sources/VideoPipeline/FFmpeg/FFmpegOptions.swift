import CFFmpeg

/// Owns an `AVDictionary` of options for an FFmpeg call; freed only in `deinit`.
///
/// Every `set` is checked (`av_dict_set` allocates and can fail), so an option never silently goes missing.
final class FFmpegOptions {
    private var pointer: OpaquePointer?

    init() {}

    deinit { av_dict_free(&pointer) }

    func set(_ key: String, _ value: String) throws(MediaError) {
        try check(av_dict_set(&pointer, key, value, 0), "av_dict_set")
    }

    /// Lends the dictionary to a C function that takes `AVDictionary **` (and may replace it).
    func pass(_ body: (UnsafeMutablePointer<OpaquePointer?>) -> Int32) -> Int32 {
        body(&pointer)
    }
}
