import CSDL2
import MediaCore

/// `pipctl play --show`'s window: the output frames as they are played, their sound, and what the person does with
/// the keys and the mouse. The only owner of SDL's objects: the library's initialisation, the window, its renderer,
/// the frame's texture and the audio device, each created in `init` and destroyed in `deinit`, in that order
/// reversed. Use it from one thread (the one that created it), as SDL's video functions ask.
///
/// The pictures come as they are composed (yuv420p planes, BT.601 limited range, as the encoder gets them) into an
/// IYUV texture, as ffplay does; `SDL_RenderSetLogicalSize` keeps their aspect in a resized window (letterboxed),
/// and SDL gives the mouse's positions in the frame's pixels. The sound (planar float, as the encoder gets it) is
/// queued (`SDL_QueueAudio`) interleaved; without an audio device the window plays silent and `soundRefusal` says why.
public final class LiveWindow {
    /// One plane of a picture, borrowed for the duration of a call.
    public struct Plane {
        public var bytes: UnsafeRawPointer
        /// Bytes from one row to the next.
        public var stride: Int

        public init(bytes: UnsafeRawPointer, stride: Int) {
            self.bytes = bytes
            self.stride = stride
        }
    }

    /// The output frame's size: the texture's and the logical size the window scales.
    public let size: PixelSize
    /// Why there is no sound (no audio device, or none that opens); `nil` when the sound plays.
    public private(set) var soundRefusal: String?

    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private let texture: OpaquePointer
    private var audioDevice: SDL_AudioDeviceID = 0
    private var audioChannels = 0
    private var audioRate = 0
    private var interleaved: [Float] = []
    private var drag: (start: PixelPoint, last: PixelPoint)?

    /// Whether a display can be reached, checked before anything else is done: `DISPLAY` or `WAYLAND_DISPLAY` set
    /// (or an SDL video driver chosen by `SDL_VIDEODRIVER`), and SDL's video initialises.
    ///
    /// - Throws: `.noDisplay`, saying why.
    public static func checkDisplay(environment: [String: String]) throws(LiveWindowError) {
        let named = ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"].contains { !(environment[$0] ?? "").isEmpty }
        guard named else { throw .noDisplay("neither DISPLAY nor WAYLAND_DISPLAY is set") }
        // The display named is the one used: X11's when DISPLAY is set, else Wayland's; SDL tries no other (a failed
        // X11 would otherwise fall back to Wayland, which prints its own complaint).
        if (environment["SDL_VIDEODRIVER"] ?? "").isEmpty {
            SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, (environment["DISPLAY"] ?? "").isEmpty ? "wayland" : "x11", SDL_HINT_OVERRIDE)
        }
        // Left initialised: the window's `SDL_Init` then only counts one more user, and its `SDL_Quit` ends both.
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw .noDisplay(sdlError("SDL_InitSubSystem(SDL_INIT_VIDEO)")) }
    }

    /// Opens a window titled `title` for frames of `size`, at that size or scaled down to fit the display, resizable,
    /// and an audio device for `sound` (`nil`: none).
    public init(title: String, size: PixelSize, sound: (sampleRate: Int, channels: Int)?) throws(LiveWindowError) {
        self.size = size
        SDL_SetMainReady()
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else { throw .noDisplay(Self.sdlError("SDL_Init(SDL_INIT_VIDEO)")) }
        // Scaled with linear filtering, as ffplay does; the colours are the encoder's (BT.601, limited range).
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_BT601)
        let shown = Self.fitted(size, in: Self.usableBounds())
        let centred = Int32(bitPattern: pipctl_SDL_WINDOWPOS_CENTERED())
        guard let window = SDL_CreateWindow(title, centred, centred, Int32(shown.width), Int32(shown.height),
                                            SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_SHOWN.rawValue) else {
            let error = Self.sdlError("SDL_CreateWindow")
            SDL_Quit()
            throw .sdl(error)
        }
        guard let renderer = SDL_CreateRenderer(window, -1, 0) else {
            let error = Self.sdlError("SDL_CreateRenderer")
            SDL_DestroyWindow(window)
            SDL_Quit()
            throw .sdl(error)
        }
        var failed: String?
        if SDL_RenderSetLogicalSize(renderer, Int32(size.width), Int32(size.height)) != 0 { failed = Self.sdlError("SDL_RenderSetLogicalSize") }
        let texture = failed != nil ? nil : SDL_CreateTexture(renderer, pipctl_SDL_PIXELFORMAT_IYUV(), Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                                              Int32(size.width), Int32(size.height))
        guard let texture else {
            let error = failed ?? Self.sdlError("SDL_CreateTexture")
            SDL_DestroyRenderer(renderer)
            SDL_DestroyWindow(window)
            SDL_Quit()
            throw .sdl(error)
        }
        self.window = window
        self.renderer = renderer
        self.texture = texture
        if let sound { openAudio(sampleRate: sound.sampleRate, channels: sound.channels) }
    }

    deinit {
        if audioDevice != 0 { SDL_CloseAudioDevice(audioDevice) }
        SDL_DestroyTexture(texture)
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        SDL_Quit()
    }

    /// Sets the window's title.
    public func setTitle(_ title: String) {
        SDL_SetWindowTitle(window, title)
    }

    /// Shows a picture of `size` given as its Y, U and V planes (4:2:0), scaled into the window with its aspect kept.
    public func present(y: Plane, u: Plane, v: Plane) throws(LiveWindowError) {
        guard SDL_UpdateYUVTexture(texture, nil, y.bytes.assumingMemoryBound(to: UInt8.self), Int32(y.stride),
                                   u.bytes.assumingMemoryBound(to: UInt8.self), Int32(u.stride),
                                   v.bytes.assumingMemoryBound(to: UInt8.self), Int32(v.stride)) == 0 else {
            throw .sdl(Self.sdlError("SDL_UpdateYUVTexture"))
        }
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        guard SDL_RenderClear(renderer) == 0 else { throw .sdl(Self.sdlError("SDL_RenderClear")) }
        guard SDL_RenderCopy(renderer, texture, nil, nil) == 0 else { throw .sdl(Self.sdlError("SDL_RenderCopy")) }
        SDL_RenderPresent(renderer)
    }

    /// Queues one frame's sound: `channels` planes of `count` float samples each. Nothing when there is no sound.
    public func queueSound(_ planes: [UnsafeBufferPointer<Float>]) {
        guard audioDevice != 0, planes.count == audioChannels, let count = planes.first?.count else { return }
        // Bounded: never more than two seconds queued ahead (a device that stopped taking samples).
        guard Int(SDL_GetQueuedAudioSize(audioDevice)) < 2 * audioRate * audioChannels * MemoryLayout<Float>.size else { return }
        if interleaved.count != count * audioChannels { interleaved = [Float](repeating: 0, count: count * audioChannels) }
        for (c, plane) in planes.enumerated() {
            for i in 0..<min(count, plane.count) { interleaved[i * audioChannels + c] = plane[i] }
        }
        let queued = interleaved.withUnsafeBytes { SDL_QueueAudio(audioDevice, $0.baseAddress, UInt32($0.count)) }
        if queued != 0 {
            soundRefusal = Self.sdlError("SDL_QueueAudio")
            SDL_CloseAudioDevice(audioDevice)
            audioDevice = 0
            return
        }
        SDL_PauseAudioDevice(audioDevice, 0)
    }

    /// What the person did since the last call, oldest first.
    public func takeInputs() -> [WindowInput] {
        var inputs: [WindowInput] = []
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            switch SDL_EventType(rawValue: event.type) {
            case SDL_QUIT:
                inputs.append(.close)
            case SDL_KEYDOWN:
                if let key = WindowInput.Key(keycode: Int(event.key.keysym.sym)) { inputs.append(.key(key)) }
            case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
                let point = PixelPoint(x: Int(event.button.x), y: Int(event.button.y))
                drag = (point, point)
            case SDL_MOUSEMOTION:
                if drag != nil { drag!.last = PixelPoint(x: Int(event.motion.x), y: Int(event.motion.y)) }
            case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
                guard let started = drag else { break }
                drag = nil
                let end = PixelPoint(x: Int(event.button.x), y: Int(event.button.y))
                if let input = WindowInput.pointer(from: started.start, to: end, in: size) { inputs.append(input) }
            case SDL_MOUSEWHEEL:
                let steps = Int(event.wheel.y) * (event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1)
                if steps != 0 { inputs.append(.wheel(steps)) }
            default:
                break
            }
        }
        return inputs
    }

    /// `size` scaled down (never up) to fit 90 % of `bounds`, its aspect kept.
    static func fitted(_ size: PixelSize, in bounds: PixelSize?) -> PixelSize {
        guard let bounds, bounds.width > 0, bounds.height > 0 else { return size }
        let limit = PixelSize(width: bounds.width * 9 / 10, height: bounds.height * 9 / 10)
        guard size.width > limit.width || size.height > limit.height else { return size }
        // The smaller of the two ratios, compared exactly: w·H ≤ W·h.
        if size.width * limit.height >= limit.width * size.height {
            return PixelSize(width: limit.width, height: max(1, size.height * limit.width / size.width))
        }
        return PixelSize(width: max(1, size.width * limit.height / size.height), height: limit.height)
    }

    private static func usableBounds() -> PixelSize? {
        var rect = SDL_Rect()
        guard SDL_GetDisplayUsableBounds(0, &rect) == 0 else { return nil }
        return PixelSize(width: Int(rect.w), height: Int(rect.h))
    }

    private func openAudio(sampleRate: Int, channels: Int) {
        guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 else {
            soundRefusal = Self.sdlError("SDL_InitSubSystem(SDL_INIT_AUDIO)")
            return
        }
        var wanted = SDL_AudioSpec()
        wanted.freq = Int32(sampleRate)
        wanted.format = pipctl_AUDIO_F32SYS()
        wanted.channels = UInt8(clamping: channels)
        wanted.samples = 1024
        var obtained = SDL_AudioSpec()
        // No changes allowed: SDL converts to what the device takes, so the samples queued are exactly the encoder's.
        let device = SDL_OpenAudioDevice(nil, 0, &wanted, &obtained, 0)
        guard device != 0 else {
            soundRefusal = Self.sdlError("SDL_OpenAudioDevice")
            return
        }
        audioDevice = device
        audioChannels = channels
        audioRate = sampleRate
    }

    static func sdlError(_ function: String) -> String {
        "\(function) failed: \(String(cString: SDL_GetError()))"
    }
}

/// A point on the output frame, in its pixels.
public struct PixelPoint: Hashable, Sendable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// What the person did in the window.
public enum WindowInput: Hashable, Sendable {
    /// The keys `play --show` knows.
    public enum Key: Hashable, Sendable {
        case space, p, left, right, s, c, r, q, escape, i

        init?(keycode: Int) {
            switch keycode {
            case Int(SDLK_SPACE.rawValue): self = .space
            case Int(SDLK_p.rawValue): self = .p
            case Int(SDLK_LEFT.rawValue): self = .left
            case Int(SDLK_RIGHT.rawValue): self = .right
            case Int(SDLK_s.rawValue): self = .s
            case Int(SDLK_c.rawValue): self = .c
            case Int(SDLK_r.rawValue): self = .r
            case Int(SDLK_q.rawValue): self = .q
            case Int(SDLK_ESCAPE.rawValue): self = .escape
            case Int(SDLK_i.rawValue): self = .i
            default: return nil
            }
        }
    }

    case key(Key)
    /// A click (pressed and released within a few pixels) at a point of the frame.
    case click(PixelPoint)
    /// A drag with the left button held, from one point of the frame to another.
    case drag(from: PixelPoint, to: PixelPoint)
    /// The wheel, in steps: positive away from the person (up), negative towards them.
    case wheel(Int)
    /// The window's close button.
    case close

    /// How far the pointer may move between press and release for a click rather than a drag, in frame pixels.
    public static let clickSlop = 8

    /// A press at `start` and release at `end` (frame pixels, as SDL gives them with a logical size): a click when
    /// they are within `clickSlop` of each other, else a drag; `nil` when the press was outside the frame (on a
    /// letterbox bar).
    public static func pointer(from start: PixelPoint, to end: PixelPoint, in size: PixelSize) -> WindowInput? {
        guard (0..<size.width).contains(start.x), (0..<size.height).contains(start.y) else { return nil }
        let clamped = PixelPoint(x: min(max(end.x, 0), size.width - 1), y: min(max(end.y, 0), size.height - 1))
        if abs(clamped.x - start.x) <= clickSlop && abs(clamped.y - start.y) <= clickSlop { return .click(start) }
        return .drag(from: start, to: clamped)
    }
}

/// Why the window could not be shown.
public enum LiveWindowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No display to show it on.
    case noDisplay(String)
    /// An SDL call failed, named with SDL's message.
    case sdl(String)

    public var description: String {
        switch self {
        case .noDisplay(let reason): "no display found (\(reason))"
        case .sdl(let message): message
        }
    }
}
