import CFFmpeg

/// FFmpeg's message for an error code (what `av_err2str` gives in C).
func ffmpegMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    return buffer.withUnsafeMutableBufferPointer { String(cString: cffmpeg_err2str(code, $0.baseAddress, $0.count)) }
}

let averrorEOF = cffmpeg_averror_eof()
let averrorEAGAIN = cffmpeg_averror_eagain()

/// Checks the return value of an FFmpeg call: negative values throw an error naming `function`.
///
/// Every FFmpeg call that can fail goes through here, so every error says which C function failed.
@discardableResult
func check(_ result: Int32, _ function: String, path: String? = nil) throws(MediaError) -> Int32 {
    guard result < 0 else { return result }
    throw MediaError.ffmpeg(function: function, code: result, message: ffmpegMessage(result), path: path)
}

/// Unwraps a pointer returned by an FFmpeg allocator; NULL throws (out of memory or bad parameters).
func allocated<T>(_ pointer: T?, _ function: String) throws(MediaError) -> T {
    guard let pointer else {
        throw MediaError.ffmpeg(function: function, code: cffmpeg_averror(ENOMEM), message: "allocation failed", path: nil)
    }
    return pointer
}

/// The missing-timestamp sentinel, only ever compared against at the C boundary and turned into `nil`.
let noTimestamp = cffmpeg_nopts_value()

extension Int64 {
    /// `nil` for FFmpeg's "no timestamp" value.
    var timestamp: Int64? { self == noTimestamp ? nil : self }
}
