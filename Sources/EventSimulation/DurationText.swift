/// Durations as options and specs write them: `250ms`, `1.5s`, `2m`, read exactly into whole
/// nanoseconds. A server component reads its parameters with it, as the command line reads options.
public enum DurationText {
    /// A non-negative duration such as `250ms`, `1.5s`, `2m`, converted exactly to whole
    /// nanoseconds (decimal digits are scaled as integers, so `0.1s` is 100,000,000 ns). No sign, no
    /// space, no exponent; a value finer than 1 ns or beyond virtual time's horizon (2^62 ns, see
    /// ``VirtualTime/horizon``) is rejected. Units: ns, us (or µs), ms, s, m, h. Read byte by byte: a
    /// sweep parses every point's durations.
    public static func duration(_ text: String) -> Duration? {
        guard case .duration(let value) = reading(text) else { return nil }
        return value
    }

    /// What a duration's text reads as: a duration within the horizon, one beyond it (so a message
    /// can give the bound), or not a duration.
    public enum Reading: Equatable, Sendable {
        case duration(Duration)
        case beyondHorizon
        case malformed
    }

    /// Reads `text` as a duration (see ``duration(_:)``).
    public static func reading(_ text: String) -> Reading {
        var text = text
        return text.withUTF8 { bytes -> Reading in
            // The unit: the longest suffix that names one.
            let count = bytes.count
            func ends(_ suffix: StaticString) -> Bool {
                let n = suffix.utf8CodeUnitCount
                guard count > n else { return false }  // a number must come before the unit
                return (0..<n).allSatisfy { bytes[count - n + $0] == suffix.utf8Start[$0] }
            }
            let unit: (length: Int, nanoseconds: Int64)
            if ends("ns") {
                unit = (2, 1)
            } else if ends("us") {
                unit = (2, 1_000)
            } else if ends("µs") {
                unit = (3, 1_000)
            } else if ends("ms") {
                unit = (2, 1_000_000)
            } else if ends("s") {
                unit = (1, 1_000_000_000)
            } else if ends("m") {
                unit = (1, 60_000_000_000)
            } else if ends("h") {
                unit = (1, 3_600_000_000_000)
            } else {
                return .malformed
            }
            // The number: digits, then optionally a point and digits.
            let number = bytes[..<(count - unit.length)]
            let point = number.firstIndex(of: UInt8(ascii: "."))
            let whole = number[..<(point ?? number.endIndex)]
            let fraction = point.map { number[($0 + 1)...] } ?? number[number.endIndex...]
            let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            guard !whole.isEmpty, whole.allSatisfy(isDigit),
                point == nil || (!fraction.isEmpty && fraction.allSatisfy(isDigit))
            else {
                return .malformed
            }
            func value(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
                var result: Int64 = 0
                for digit in digits {
                    let (times, overflow) = result.multipliedReportingOverflow(by: 10)
                    let (sum, sumOverflow) = times.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
                    guard !overflow, !sumOverflow else { return nil }
                    result = sum
                }
                return result
            }
            guard let wholeValue = value(whole) else { return .beyondHorizon }
            var (total, overflow) = wholeValue.multipliedReportingOverflow(by: unit.nanoseconds)
            guard !overflow else { return .beyondHorizon }
            if !fraction.isEmpty {
                // fraction × unit / 10^digits must be a whole number of nanoseconds: at most 18
                // decimals can be (the unit is at most 3.6 × 10^12 ns); more are finer than 1 ns
                // unless they are zeros, which are dropped.
                var digits = fraction
                while let last = digits.last, last == UInt8(ascii: "0") { digits = digits.dropLast() }
                guard digits.count <= 18 else { return .malformed }
                var scale: Int64 = 1
                for _ in digits { scale *= 10 }
                guard let fractionValue = value(digits) else { return .malformed }
                let (scaled, fractionOverflow) = fractionValue.multipliedReportingOverflow(by: unit.nanoseconds)
                guard !fractionOverflow else { return .malformed }  // finer than 1 ns
                guard scaled % scale == 0 else { return .malformed }
                (total, overflow) = total.addingReportingOverflow(scaled / scale)
                guard !overflow else { return .beyondHorizon }
            }
            guard total <= VirtualTime.horizon.nanoseconds else { return .beyondHorizon }
            return .duration(.nanoseconds(total))
        }
    }
}
