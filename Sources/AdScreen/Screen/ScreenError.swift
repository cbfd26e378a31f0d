import AdPlayback
import MediaCore

/// A device, scene or screen command that cannot be used; each case names the value as written.
public enum ScreenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A `--device` value that is neither a profile name nor `WxH[@scale]`.
    case unknownDevice(String)
    /// A custom device whose `@scale` is not a positive number.
    case badDeviceScale(device: String, scale: String)
    /// A command names a scene the screen does not have.
    case unknownScene(command: String, scene: SceneID)
    /// A command that cannot apply to the screen as it is now (the detail says why); the screen is unchanged.
    case refused(command: String, detail: String)

    public var description: String {
        switch self {
        case .unknownDevice(let text):
            "device \"\(text.excerpt)\": unknown; use \(Device.profileNames.joined(separator: ", ")) or WxH[@scale] in points, as in 390x844@3"
        case .badDeviceScale(let device, let scale):
            "device \"\(device.excerpt)\": scale \"\(scale.excerpt)\" is not a positive number; write 2, 2.625 or 21/8"
        case .unknownScene(let command, let scene):
            "screen command \"\(command.excerpt)\": no scene \"\(scene.description.excerpt)\""
        case .refused(let command, let detail):
            "screen command \"\(command.excerpt)\": \(detail)"
        }
    }
}
