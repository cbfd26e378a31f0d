import MediaCore

extension Frame {
    /// A view of plane `index` of a yuv420p picture (chroma planes are half size, rounded up).
    func planeView(_ index: Int) -> PlaneView {
        let w = index == 0 ? width : (width + 1) / 2
        let h = index == 0 ? height : (height + 1) / 2
        return PlaneView(base: dataPointer(index)!, stride: lineSize(index), width: w, height: h)
    }
}

extension VideoPicture {
    /// Reads the frame stamp of a picture drawn at `picture` in this frame (the whole frame when `nil`: then the
    /// stamp is also searched for in letterboxed or windowed pictures).
    /// Any pixel format is read through its 8-bit luma (`Frame.withLuma8`).
    public func readStamp(in picture: PixelRect? = nil) -> FrameStamp? {
        frame.withLuma8 { luma in
            if let picture { return StampReader.read(luma: luma, picture: picture) }
            return StampReader.locate(luma: luma)?.stamp
        } ?? nil
    }

    /// Finds the stamped picture in this frame wherever it is: its stamp and where it lies.
    public func locateStamp() -> (stamp: FrameStamp, picture: PixelRect)? {
        frame.withLuma8 { StampReader.locate(luma: $0) } ?? nil
    }
}
