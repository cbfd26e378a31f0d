import Foundation
import Rendering

extension ArgumentValue where Value == LoudnessNormalisation {
    /// `content`, `off`, or a target loudness in LUFS within `LoudnessNormalisation.targetRange` (`-23`, `-24`).
    static var loudness: ArgumentValue {
        ArgumentValue(placeholder: "content|TARGET|off", parse: { text throws(InvalidValue) in
            switch text {
            case "content": return .content
            case "off": return .off
            default:
                let range = LoudnessNormalisation.targetRange
                guard let value = Double(text), value.isFinite else {
                    throw .not(text, "content, off or a loudness in LUFS (e.g. -23, -24)")
                }
                guard range.contains(value) else {
                    throw .not(text, "a loudness from \(Int(range.lowerBound)) to \(Int(range.upperBound)) LUFS")
                }
                return .lufs(value)
            }
        }, describe: { value in
            switch value {
            case .off: "off"
            case .content: "content"
            case .lufs(let target): "\(target)"
            }
        })
    }
}
