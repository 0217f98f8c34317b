import Foundation

/// The HTTP `Retry-After` header (RFC 9110, section 10.2.3): a number of seconds, or an HTTP date,
/// parsed strictly.
///
/// ```
/// Retry-After = delay-seconds / HTTP-date
/// delay-seconds = 1*DIGIT                           "120"
/// HTTP-date = IMF-fixdate                            "Sun, 06 Nov 1994 08:49:37 GMT"
///           / rfc850-date                            "Sunday, 06-Nov-94 08:49:37 GMT"
///           / asctime-date                           "Sun Nov  6 08:49:37 1994"
/// ```
/// Recipients must accept all three date forms. A date in the past means "now" (a zero delay).
/// Anything else is malformed: ``delay(_:now:)`` throws rather than guessing.
public enum RetryAfterHeader {
    /// Why a value was refused.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let value: String
        public var description: String {
            "malformed Retry-After '\(value)': expected delay-seconds (e.g. 120) or an HTTP date (e.g. Sun, 06 Nov 1994 08:49:37 GMT)"
        }
    }

    /// The longest delay returned, in seconds (2^62 ns, about 146 years, the longest total wait a
    /// policy allows): a header asking for more (a date in the year 4030, 20 digits of seconds) waits
    /// that long, so no conversion downstream can overflow.
    public static let longestDelaySeconds: Int64 = (1 << 62) / 1_000_000_000

    /// The delay the header asks for, at most ``longestDelaySeconds``. `now` is the current time in
    /// seconds since 1970 (UTC), used for dates.
    public static func delay(_ value: String, now: Double = Date().timeIntervalSince1970) throws(Malformed) -> Duration
    {
        if !value.isEmpty, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            guard let seconds = Int64(value) else { throw Malformed(value: value) }
            return .seconds(min(seconds, longestDelaySeconds))
        }
        guard let date = httpDate(value) else { throw Malformed(value: value) }
        let seconds = min(max(0, Double(date) - now), Double(longestDelaySeconds))
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Seconds since 1970 of an HTTP date in one of its three forms, or `nil`.
    static func httpDate(_ text: String) -> Int64? {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        // IMF-fixdate: "Sun," "06" "Nov" "1994" "08:49:37" "GMT"
        if words.count == 6, words[0].hasSuffix(","), shortDays.contains(String(words[0].dropLast())),
            words[5] == "GMT",
            words[1].count == 2, words[3].count == 4,
            let day = Int(words[1]), let month = months.firstIndex(of: words[2]), let year = Int(words[3])
        {
            return epoch(year: year, month: month + 1, day: day, time: words[4])
        }
        // rfc850-date: "Sunday," "06-Nov-94" "08:49:37" "GMT"
        if words.count == 4, words[0].hasSuffix(","), longDays.contains(String(words[0].dropLast())), words[3] == "GMT"
        {
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let day = Int(parts[0]),
                let month = months.firstIndex(of: parts[1]), let short = Int(parts[2])
            else { return nil }
            return epoch(year: short < 70 ? 2000 + short : 1900 + short, month: month + 1, day: day, time: words[2])
        }
        // asctime-date: "Sun" "Nov" ("6" after two spaces, or "16") "08:49:37" "1994"
        let compact = words.filter { !$0.isEmpty }
        if compact.count == 5, shortDays.contains(compact[0]), let month = months.firstIndex(of: compact[1]),
            let day = Int(compact[2]), compact[2].count <= 2, compact[4].count == 4, let year = Int(compact[4]),
            text
                == "\(compact[0]) \(compact[1]) \(compact[2].count == 1 ? " " : "")\(compact[2]) \(compact[3]) \(compact[4])"
        {
            return epoch(year: year, month: month + 1, day: day, time: compact[3])
        }
        return nil
    }

    /// Seconds since 1970 of a UTC date and `HH:MM:SS`, or `nil` when out of range.
    private static func epoch(year: Int, month: Int, day: Int, time: String) -> Int64? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]),
            let minute = Int(clock[1]),
            let second = Int(clock[2]), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
