import MediaCore

extension Timeline {
    /// What a rendered file really is: the numbers every value of its timeline is bounded by.
    public struct RenderedMedia: Hashable, Sendable {
        /// Video frames in the file (its packets, counted without decoding).
        public var frames: Int64
        /// Where its video ends (the last frame's end), when its frames carry timestamps. A frame lost in the middle
        /// leaves the length as it was, so a timeline may promise frames up to here and verify says which went.
        public var length: MediaDuration?
        public var size: PixelSize
        /// The audio's sample rate and channel count; `nil` when the file has no audio.
        public var audio: (sampleRate: Int, channels: Int)?

        public init(frames: Int64, length: MediaDuration?, size: PixelSize, audio: (sampleRate: Int, channels: Int)?) {
            self.frames = frames
            self.length = length
            self.size = size
            self.audio = audio
        }

        public static func == (a: RenderedMedia, b: RenderedMedia) -> Bool {
            a.frames == b.frames && a.length == b.length && a.size == b.size
                && a.audio?.sampleRate == b.audio?.sampleRate && a.audio?.channels == b.audio?.channels
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(frames)
            hasher.combine(size)
            hasher.combine(length)
            hasher.combine(audio?.sampleRate)
            hasher.combine(audio?.channels)
        }
    }

    /// Checks every number of this timeline against the file it describes, before anything is allocated or looped
    /// over by them; one pass over the segments.
    ///
    /// A timeline is input like any other: `frames: 1e15` would reserve petabytes, `sampleRate: 0` divides by
    /// zero, overlapping segments make every frame promise two things. Each is refused naming its JSON path.
    /// - Returns: the output's frame rate (checked).
    /// - Throws: `TimelineError.outOfBounds` for the first value the media cannot have.
    @discardableResult
    public func checkBounds(against media: RenderedMedia) throws(TimelineError) -> FrameRate {
        func fail(_ path: String, _ reason: String) -> TimelineError { .outOfBounds(jsonPath: path, reason: reason) }
        guard version == 1 else { throw fail("version", "\(version) is not a timeline version this pipctl reads (1)") }
        let rate = try Timeline.checkFrameRate(output.fps, path: "output.fps")
        let frames = media.frameLimit(at: rate)
        guard output.frames >= 0 else { throw fail("output.frames", "\(output.frames) is negative") }
        guard output.frames <= frames else {
            throw fail("output.frames", "\(output.frames) is more than the output's \(frames) frames")
        }
        guard output.width == media.size.width else {
            throw fail("output.width", "\(output.width) is not the output's width, \(media.size.width)")
        }
        guard output.height == media.size.height else {
            throw fail("output.height", "\(output.height) is not the output's height, \(media.size.height)")
        }
        if let audio = media.audio {
            guard output.sampleRate == audio.sampleRate else {
                throw fail("output.sampleRate", "\(output.sampleRate) is not the output's \(audio.sampleRate) Hz")
            }
            guard output.channels == audio.channels else {
                throw fail("output.channels", "\(output.channels) is not the output's \(audio.channels) channels")
            }
        } else {
            guard output.sampleRate > 0, output.sampleRate <= Int(Int32.max) else {
                throw fail("output.sampleRate", "\(output.sampleRate) is not a sample rate")
            }
            guard output.channels >= 0, output.channels <= Int(Int32.max) else {
                throw fail("output.channels", "\(output.channels) is not a channel count")
            }
        }
        let clock = SampleClock(sampleRate: Int64(output.sampleRate), frameRate: rate)
        let samples = clock.sample(atFrame: frames)
        guard output.audioSamples >= 0, output.audioSamples <= samples else {
            throw fail("output.audioSamples", "\(output.audioSamples) is not within the \(samples) samples of the output's \(frames) frames")
        }
        guard content.frames >= 0 else { throw fail("content.frames", "\(content.frames) is negative") }
        try checkSegments(frameLimit: frames, pastLimit: .refused, size: media.size, clock: clock)
        try loudness?.checkBounds(segments: segments.count)
        return rate
    }

    /// Checks what a golden timeline's frames are compared by: its rate and its segments in order, as far as the
    /// output's frames reach. Its length, size and sound may differ from the output's (that is a problem to report,
    /// not a refusal), so segments past the output's last frame are not read at all.
    /// - Returns: the golden's frame rate.
    @discardableResult
    public func checkGoldenBounds(against media: RenderedMedia) throws(TimelineError) -> FrameRate {
        guard version == 1 else {
            throw .outOfBounds(jsonPath: "version", reason: "\(version) is not a timeline version this pipctl reads (1)")
        }
        let rate = try Timeline.checkFrameRate(output.fps, path: "output.fps")
        try checkSegments(frameLimit: media.frameLimit(at: rate), pastLimit: .notRead, size: nil, clock: nil)
        return rate
    }

    /// A rate a media file can carry: positive, both parts of 32 bits (as in FFmpeg's `AVRational`).
    public static func checkFrameRate(_ text: String, path: String) throws(TimelineError) -> FrameRate {
        guard let rate = FrameRate(parsing: text), rate.perSecond.numerator <= Int64(Int32.max),
              rate.perSecond.denominator <= Int64(Int32.max) else {
            throw .outOfBounds(jsonPath: path, reason: "\(text) is not a frame rate")
        }
        return rate
    }

    /// What becomes of segments past the output's last frame.
    enum PastLimit {
        /// A timeline of this output cannot have them.
        case refused
        /// A golden may be longer than the output; what lies past the output is never compared, so never read.
        case notRead
    }

    /// Segments must tile the output from frame 0, in order, each at least one frame long, and stay within the
    /// picture and the frame limit; one pass, so 60 000 segments cost what reading their JSON costs.
    private func checkSegments(frameLimit: Int64, pastLimit: PastLimit, size: PixelSize?, clock: SampleClock?) throws(TimelineError) {
        func fail(_ path: String, _ reason: String) -> TimelineError { .outOfBounds(jsonPath: path, reason: reason) }
        if pastLimit == .refused, Int64(segments.count) > frameLimit {
            throw fail("segments", "\(segments.count) segments are more than the output's \(frameLimit) frames")
        }
        var expectedStart: Int64 = 0
        for (i, segment) in segments.enumerated() {
            if pastLimit == .notRead, expectedStart >= frameLimit { break }
            let at = "segments[\(i)]"
            guard segment.outStartFrame == expectedStart else {
                throw fail("\(at).outStartFrame", i == 0
                    ? "\(segment.outStartFrame) is not 0: the first segment starts the output"
                    : "\(segment.outStartFrame) is not where segments[\(i - 1)] ends, \(expectedStart) (segments overlap, leave a gap or are out of order)")
            }
            guard segment.outEndFrame > segment.outStartFrame else {
                throw fail("\(at).outEndFrame", "\(segment.outEndFrame) is not after its outStartFrame \(segment.outStartFrame)")
            }
            if pastLimit == .refused, segment.outEndFrame > frameLimit {
                throw fail("\(at).outEndFrame", "\(segment.outEndFrame) is more than the output's \(frameLimit) frames")
            }
            expectedStart = segment.outEndFrame
            guard segment.srcStartTick >= 0 else { throw fail("\(at).srcStartTick", "\(segment.srcStartTick) is negative") }
            // A segment shows at most one tick per frame (a paused one holds its first).
            let ticks = segment.paused ? 0 : segment.frameCount
            let (end, overflow) = segment.srcStartTick.addingReportingOverflow(ticks)
            guard !overflow, segment.srcEndTick >= segment.srcStartTick, segment.srcEndTick <= end else {
                throw fail("\(at).srcEndTick", "\(segment.srcEndTick) is not within its srcStartTick \(segment.srcStartTick) + its \(ticks) \(segment.paused ? "ticks (paused)" : "frames")")
            }
            if let b = segment.breakIndex, b < 0 { throw fail("\(at).break", "\(b) is negative") }
            if let a = segment.adIndex, a < 0 { throw fail("\(at).ad", "\(a) is negative") }
            if let size {
                try Timeline.check(segment.picture, path: "\(at).picture", inside: size)
                if let pip = segment.pip { try Timeline.check(pip, path: "\(at).pip", inside: size) }
            }
            for (j, layer) in (segment.screen.layers ?? []).enumerated() {
                let path = "\(at).layers[\(j)]"
                // What the layer's kind carries that is bounded here: a player's or a full-screen video's tick, a
                // card's fields, a shadow's caster.
                var tick: Int64?, card: Timeline.Layer.Card?, shadow: ScreenLayer.Shadow?
                switch layer {
                case .player(let player): tick = player.playing?.srcStartTick
                case .fullScreen(_, .video(_, let start)): tick = start
                case .card(_, let c), .native(_, let c): card = c
                case .shadow(_, let s): shadow = s
                case .banner, .fullScreen, .overlay, .slider, .divider, .edge: break
                }
                if let size {
                    // A secondary player's window is read for its stamps, so it lies on the picture; any other
                    // layer may reach past it (a card scrolled half off, a doctored rect verify must report), but
                    // not so far that sizing anything by it could be huge.
                    if tick != nil {
                        try Timeline.check(layer.rect, path: "\(path).rect", inside: size)
                    } else {
                        try Timeline.check(layer.rect, path: "\(path).rect", near: size)
                    }
                    if let clip = card?.clip { try Timeline.check(clip, path: "\(path).clip", near: size) }
                    if let image = card?.image?.rect { try Timeline.check(image, path: "\(path).image", near: size) }
                    let limit = max(size.width, size.height)
                    if let shadow {
                        try Timeline.check(Rect(shadow.caster), path: "\(path).caster", near: size)
                        if !(0...limit).contains(shadow.reach) { throw fail("\(path).reach", "\(shadow.reach) is not in 0…\(limit)") }
                    }
                    if let radius = card?.radius ?? shadow?.radius, !(0...limit).contains(radius) {
                        throw fail("\(path).radius", "\(radius) is not in 0…\(limit)")
                    }
                    if let radius = card?.image?.radius, !(0...limit).contains(radius) {
                        throw fail("\(path).imageRadius", "\(radius) is not in 0…\(limit)")
                    }
                }
                if let tick {
                    // A secondary player's tick advances one per frame from here: it must stay representable.
                    guard tick >= 0, !tick.addingReportingOverflow(segment.frameCount).overflow else {
                        throw fail("\(path).srcStartTick", "\(tick) is negative or too large")
                    }
                }
                if case .player(let player) = layer, let ad = player.playing?.ad {
                    if ad.breakIndex < 0 { throw fail("\(path).break", "\(ad.breakIndex) is negative") }
                    if ad.adIndex < 0 { throw fail("\(path).ad", "\(ad.adIndex) is negative") }
                }
                if let i = card?.index, i < 0 { throw fail("\(path).index", "\(i) is negative") }
            }
            if let clock {
                let span = clock.samples(fromFrame: segment.outStartFrame, toFrame: segment.outEndFrame)
                guard segment.sound.padded >= 0, segment.sound.padded <= span else {
                    throw fail("\(at).audioPadded", "\(segment.sound.padded) is not within the segment's \(span) samples")
                }
                let end = clock.sample(atFrame: segment.outEndFrame)
                guard segment.sound.start >= 0, segment.sound.start <= end else {
                    throw fail("\(at).audioStart", "\(segment.sound.start) is not within the output's first \(end) samples")
                }
            }
        }
    }

    /// A rectangle must lie inside the picture (a stamp is read from its pixels).
    /// `rect` lies within one picture's size of `size` on every side: at most twice its width and height.
    static func check(_ rect: Rect, path: String, near size: PixelSize) throws(TimelineError) {
        guard abs(rect.x) <= size.width, abs(rect.y) <= size.height, rect.width >= 0, rect.height >= 0,
              rect.width <= 2 * size.width, rect.height <= 2 * size.height else {
            throw .outOfBounds(jsonPath: path, reason: "\(rect.width)x\(rect.height) at (\(rect.x), \(rect.y)) is not near the \(size.width)x\(size.height) picture")
        }
    }

    static func check(_ rect: Rect, path: String, inside size: PixelSize) throws(TimelineError) {
        guard rect.x >= 0, rect.y >= 0, rect.width >= 0, rect.height >= 0,
              rect.width <= size.width - rect.x, rect.height <= size.height - rect.y else {
            throw .outOfBounds(jsonPath: path, reason: "\(rect.width)x\(rect.height) at (\(rect.x), \(rect.y)) is not inside the \(size.width)x\(size.height) picture")
        }
    }
}

extension Timeline.RenderedMedia {
    /// The frames a timeline at `rate` may speak of: the file's frames, or its length in frames when that is more
    /// (a frame lost in the middle is then a problem verify reports, not a reason to refuse the timeline).
    func frameLimit(at rate: FrameRate) -> Int64 {
        max(frames, length.map { rate.frameCount(in: $0) } ?? 0)
    }
}
