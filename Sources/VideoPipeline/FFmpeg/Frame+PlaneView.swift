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

    /// Finds a stamped picture drawn anywhere inside `window` of this frame (another scene's player, letterboxed
    /// in its own window): only the pixels inside it are looked at. `nil` when none reads or `window` is not inside.
    public func locateStamp(inside window: PixelRect) -> FrameStamp? {
        frame.withLuma8 { luma -> FrameStamp? in
            guard window.width > 0, window.height > 0, luma.bounds.contains(window) else { return nil }
            let part = PlaneView(base: luma.base + window.y * luma.stride + window.x, stride: luma.stride,
                                 width: window.width, height: window.height)
            return StampReader.locate(luma: part)?.stamp
        } ?? nil
    }
}
