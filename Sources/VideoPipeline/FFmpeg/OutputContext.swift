import CFFmpeg

/// Owns an output `AVFormatContext` (bit-exact) and the `AVIOContext` it writes through, from allocation; only
/// `deinit` frees them (closing the file first if it is still open).
final class OutputContext {
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// - Throws: FFmpeg errors naming `avformat_alloc_output_context2` (an unknown container).
    init(container: String, filename: String) throws(MediaError) {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_alloc_output_context2(&ctx, nil, container, filename), "avformat_alloc_output_context2")
        pointer = try allocated(ctx, "avformat_alloc_output_context2")
        // The same inputs must give the same bytes (determinism tests, golden hashes): no version strings.
        pointer.pointee.flags |= AVFMT_FLAG_BITEXACT
    }

    deinit {
        if pointer.pointee.pb != nil { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }

    /// Whether the container wants codec headers once, globally, rather than in the stream.
    var wantsGlobalHeader: Bool { pointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// Opens `path` for writing (`avio_open`).
    func openIO(_ path: String, reportedAs destination: String) throws(MediaError) {
        try check(avio_open(&pointer.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open", path: destination)
    }

    /// Writes the container's header (`avformat_write_header`) with muxer `options`.
    func writeHeader(options: FFmpegOptions, reportedAs destination: String) throws(MediaError) {
        try check(options.pass { avformat_write_header(pointer, $0) }, "avformat_write_header", path: destination)
    }

    func writeTrailer(reportedAs destination: String) throws(MediaError) {
        try check(av_write_trailer(pointer), "av_write_trailer", path: destination)
    }

    /// Closes the file, reporting an earlier write error if there was one (`avio_closep`).
    func closeIO(reportedAs destination: String) throws(MediaError) {
        guard pointer.pointee.pb != nil else { return }
        let ioError = pointer.pointee.pb.pointee.error
        let closed = avio_closep(&pointer.pointee.pb)
        try check(ioError < 0 ? ioError : closed, "avio_closep", path: destination)
    }
}
