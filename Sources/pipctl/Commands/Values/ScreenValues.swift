import AdPlayback
import AdScreen
import MediaCore
import Rendering

extension ArgumentValue where Value == Device {
    /// A `--device` value: a profile name or `WxH[@scale]` in points, as `Device(parsing:)` reads it.
    static var device: ArgumentValue {
        ArgumentValue(placeholder: "NAME", parse: { text throws(InvalidValue) in
            do throws(ScreenError) { return try Device(parsing: text) } catch { throw InvalidValue(error.description) }
        }, describe: \.name)
    }
}

extension ArgumentValue where Value == PointScale {
    /// A `--point-scale` value: a positive number of output pixels per point (`1.5`, `3/2`).
    static var pointScale: ArgumentValue {
        ArgumentValue(placeholder: "S", parse: { text throws(InvalidValue) in
            guard let scale = PointScale(parsing: text) else { throw .not(text, "a positive number (e.g. 1, 1.5, 3/2)") }
            return scale
        }, describe: \.description)
    }
}
