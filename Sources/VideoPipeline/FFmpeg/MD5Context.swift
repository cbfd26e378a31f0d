import CFFmpeg

/// Owns an `AVMD5` context; freed only in `deinit`.
final class MD5Context {
    let pointer: OpaquePointer

    init() throws(MediaError) {
        pointer = try allocated(av_md5_alloc(), "av_md5_alloc")
    }

    deinit { av_free(UnsafeMutableRawPointer(pointer)) }

    /// The MD5 of the byte runs `feed` hands over, in order.
    func digest(_ feed: (_ update: (UnsafePointer<UInt8>, Int) -> Void) -> Void) -> [UInt8] {
        av_md5_init(pointer)
        feed { bytes, count in av_md5_update(pointer, bytes, count) }
        var digest = [UInt8](repeating: 0, count: 16)
        av_md5_final(pointer, &digest)
        return digest
    }
}
