import CFFmpeg
import MediaCore

extension Frame {
    /// A new reference to the same buffers showing only `rect` of the picture (no pixel is copied).
    ///
    /// `av_frame_apply_cropping` moves the plane pointers; unaligned, so the luma crop is exact (an odd left edge
    /// puts chroma half a pixel off, which no eye sees).
    func cropped(to rect: PixelRect) throws(MediaError) -> Frame {
        let copy = try reference()
        copy.pointer.pointee.crop_left = rect.x
        copy.pointer.pointee.crop_top = rect.y
        copy.pointer.pointee.crop_right = max(0, width - rect.maxX)
        copy.pointer.pointee.crop_bottom = max(0, height - rect.maxY)
        try check(av_frame_apply_cropping(copy.pointer, Int32(AV_FRAME_CROP_UNALIGNED)), "av_frame_apply_cropping")
        return copy
    }
}
