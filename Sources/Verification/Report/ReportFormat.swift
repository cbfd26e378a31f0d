import AdPlayback
import Foundation
import MediaCore

/// How a report writes times, loudness and an event's fields, the same on the page and on the contact sheet.
enum ReportFormat {
    /// The longest time written as `h:mm:ss.mmm` (about 31 years); a later one (an event log's `time` may be any
    /// number) is written in seconds, `1e+16 s`, never converted to an integer.
    static let longestClockTime = 1e9

    /// `1:02.500`, or `1:02:03.500` from an hour on; a negative or non-finite time is `0:00.000`.
    static func time(_ seconds: Double) -> String {
        let seconds = seconds.isFinite ? max(0, seconds) : 0
        guard seconds <= longestClockTime else { return String(format: "%.6g s", seconds) }
        let millis = Int64((seconds * 1000).rounded())
        let h = millis / 3_600_000, m = millis / 60_000 % 60, s = millis / 1000 % 60, ms = millis % 1000
        let tail = String(format: "%02lld.%03lld", s, ms)
        return h > 0 ? String(format: "%lld:%02lld:", h, m) + tail : "\(m):" + tail
    }

    /// A label of the time axis: `1:05` (`1:02:05` from an hour on) when the axis steps by whole seconds, else
    /// with the tenths or hundredths the step needs.
    static func axisTime(_ seconds: Double, step: Double) -> String {
        let full = time(seconds)
        if step >= 1 { return String(full.dropLast(4)) }
        return String(full.dropLast(step >= 0.1 ? 2 : 1))
    }

    /// `-23.1 LUFS`, or `—` when there was too little sound to measure.
    static func loudness(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        return String(format: "%.1f LUFS", value)
    }

    /// A value read from the render's files as the report shows it: cut as error messages cut what they quote
    /// (`excerpt`: the first `excerptLimit` characters and the full length), so that one 1 MB string in an event
    /// costs the page no more than a short one.
    static func value(_ text: String) -> String { text.excerpt }

    /// A number of seconds from the event log with three decimals (`%.3f`), or in exponent form past
    /// `longestClockTime`, so that `1e300` is not three hundred digits.
    static func seconds(_ value: Double) -> String {
        abs(value) <= longestClockTime || !value.isFinite ? String(format: "%.3f", value) : String(format: "%.6g", value)
    }

    /// An event's fields that are set, in the log's order, as (name, value) pairs; each value cut by `value`.
    static func fields(_ event: SessionEvent) -> [(String, String)] {
        let line = event.columns
        var out: [(String, String)] = [("type", event.type.rawValue), ("time", seconds(event.time))]
        func add(_ name: String, _ value: CustomStringConvertible?) { if let value { out.append((name, Self.value(value.description))) } }
        add("frame", event.frame)
        out.append(("contentTime", seconds(event.contentTime)))
        add("break", line.breakIndex)
        add("ad", line.adIndex)
        add("code", line.code)
        add("event", line.event?.rawValue)
        add("reason", line.reason?.rawValue)
        add("message", line.message)
        add("url", line.url)
        add("cueTime", line.cueTime)
        add("adTime", line.adTime)
        add("scene", event.scene)
        add("placement", line.native.placement)
        add("card", line.native.card)
        add("adId", line.native.adID)
        add("phase", line.native.phase?.rawValue)
        add("failure", line.native.failure?.rawValue)
        add("otherPlacement", line.native.otherPlacement)
        return out
    }

    /// The output frame an event happened at: its `frame`, else its time on the output clock.
    static func frame(of event: SessionEvent, secondsPerFrame: Double) -> Int64 {
        if let frame = event.frame { return frame }
        let f = event.time / secondsPerFrame
        return f.isFinite ? Int64(max(0, min(f, 1e15))) : 0
    }
}
