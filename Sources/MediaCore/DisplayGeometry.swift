/// How a decoded picture is turned to be shown upright: a rotation by quarter turns, then an optional mirror.
///
/// Phones store what the sensor saw and say in a display matrix how to turn it; players (and `ffmpeg`'s own
/// autorotate) apply it, so a picture drawn without it lies on its side.
public struct DisplayOrientation: Hashable, Sendable, CustomStringConvertible {
    /// Counterclockwise rotation in degrees applied to the decoded picture: 0, 90, 180 or 270 (the sense of
    /// FFmpeg's `av_display_rotation_get` and of ffprobe's `rotation`).
    public let rotation: Int
    /// Whether the rotated picture is then mirrored left to right (a display matrix with a negative determinant).
    public let mirrored: Bool

    /// The picture as decoded.
    public static let upright = DisplayOrientation(rotation: 0, mirrored: false)

    /// - Parameters:
    ///   - rotation: counterclockwise degrees, any multiple of 90 (taken modulo 360).
    ///   - mirrored: a left-to-right mirror after the rotation.
    public init(rotation: Int, mirrored: Bool = false) {
        precondition(rotation % 90 == 0, "rotation \(rotation) is not a multiple of 90 degrees")
        self.rotation = ((rotation % 360) + 360) % 360
        self.mirrored = mirrored
    }

    /// Whether width and height trade places on screen (a quarter or three-quarter turn).
    public var swapsSides: Bool { rotation == 90 || rotation == 270 }

    /// The size a picture of `size` takes once turned.
    public func turned(_ size: PixelSize) -> PixelSize {
        swapsSides ? PixelSize(width: size.height, height: size.width) : size
    }

    /// Where the pixel at column `x`, row `y` of the turned picture (of size `shown`) comes from in the decoded
    /// picture: the inverse of rotating counterclockwise by `rotation`, then mirroring.
    public func source(x: Int, y: Int, shown: PixelSize) -> (x: Int, y: Int) {
        let x = mirrored ? shown.width - 1 - x : x
        switch rotation {
        // A counterclockwise quarter turn takes decoded (sx, sy) of a W×H picture to (sy, W-1-sx).
        case 90: return (shown.height - 1 - y, x)
        case 180: return (shown.width - 1 - x, shown.height - 1 - y)
        case 270: return (y, shown.width - 1 - x)
        default: return (x, y)
        }
    }

    public var description: String {
        (rotation == 0 ? "upright" : "rotated \(rotation)° counterclockwise") + (mirrored ? ", mirrored" : "")
    }
}

/// The one display-geometry rule: what a video stream's decoded pictures look like on screen.
///
/// A picture is `codedSize` pixels of shape `sampleAspect`, turned by `orientation`. The sample aspect ratio may
/// be stated twice, by the bitstream (the codec's own header) and by the container (MP4 `pasp`, Matroska
/// `DisplayWidth`/`DisplayHeight`); **the container wins when it states one** (non-zero), as FFmpeg's
/// `av_guess_sample_aspect_ratio` decides: a remux that fixes the aspect only rewrites the container. `probe`,
/// the default canvas size and the compositor all read the display shape from here.
public struct DisplayGeometry: Hashable, Sendable {
    /// The decoded picture's size in stored pixels.
    public var codedSize: PixelSize
    /// The sample aspect ratio stated by the bitstream; `nil` when it states none.
    public var bitstreamSampleAspect: Rational?
    /// The sample aspect ratio stated by the container; `nil` when it states none.
    public var containerSampleAspect: Rational?
    public var orientation: DisplayOrientation

    public init(codedSize: PixelSize, bitstreamSampleAspect: Rational? = nil, containerSampleAspect: Rational? = nil,
                orientation: DisplayOrientation = .upright) {
        self.codedSize = codedSize
        self.bitstreamSampleAspect = bitstreamSampleAspect.flatMap { $0 > .zero ? $0 : nil }
        self.containerSampleAspect = containerSampleAspect.flatMap { $0 > .zero ? $0 : nil }
        self.orientation = orientation
    }

    /// The shape of one stored pixel: the container's when set, else the bitstream's, else square.
    public var sampleAspect: Rational { containerSampleAspect ?? bitstreamSampleAspect ?? .one }

    /// Width / height of the picture on screen, turned.
    public var displayAspect: Rational {
        let aspect = codedSize.displayAspect(sampleAspect: sampleAspect)
        return orientation.swapsSides ? .one / aspect : aspect
    }

    /// The picture's size on screen in square pixels: the stored width stretched by the sample aspect (the height
    /// kept, as FFmpeg's players do), then turned.
    public var displaySize: PixelSize {
        let width = max(1, Int((Rational(Int64(codedSize.width)) * sampleAspect).rounded))
        return orientation.turned(PixelSize(width: width, height: codedSize.height))
    }

    /// `displaySize` with even sides of at least 16: the default output canvas for this picture (4:2:0 chroma and
    /// the encoders need even sides).
    public var canvasSize: PixelSize {
        let size = displaySize
        return PixelSize(width: max(16, size.width & ~1), height: max(16, size.height & ~1))
    }
}
