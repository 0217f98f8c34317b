/// One draw of each jitter mode, from its window or its chain, and the rounding every draw path
/// shares (whole nanoseconds, half up), so the three draw paths stay bit-identical.
extension BackoffPolicy {
    /// Full jitter: U(0, e) from a uniform u in [0, 1).
    @inlinable static func fullJitter(_ nominal: Double, _ u: Double) -> Double { nominal * u }

    /// Equal jitter: e/2 + U(0, e/2).
    @inlinable static func equalJitter(_ nominal: Double, _ u: Double) -> Double {
        let half = nominal / 2
        return half + half * u
    }

    /// Decorrelated jitter after s: min(c, U(b, r s)) under `clamp` (the 2015 post), U(b, min(c, r s))
    /// under `nominal` (Polly Contrib).
    @inlinable func decorrelatedJitter(after previous: Double, factor r: Double, _ u: Double) -> Double {
        _clampAt.isFinite
            ? min(_cap, _base + (r * previous - _base) * u) : _base + (min(_cap, r * previous) - _base) * u
    }

    /// Proportional jitter: U((1 - F) e, (1 + F) e).
    @inlinable static func proportionalJitter(_ nominal: Double, fraction f: Double, _ u: Double) -> Double {
        nominal * (1 - f) + 2 * f * nominal * u
    }

    /// The draw of a mode with a nominal schedule from its window around `nominal` (unclamped).
    @inlinable func windowDraw(_ nominal: Double, _ u: Double) -> Double {
        switch jitter {
        case .full: Self.fullJitter(nominal, u)
        case .equal: Self.equalJitter(nominal, u)
        case .proportional(let f): Self.proportionalJitter(nominal, fraction: f, u)
        case .additive: nominal + _jitterSpread * u
        case .disabled, .decorrelated, .decorrelatedMonotone, .pollyV2: nominal
        }
    }

    /// The next wait of a mode that builds its own schedule, for retry k, from what `previous` holds
    /// (``BackoffState/_previous``), which it updates:
    /// ```
    /// decorrelated           min(c', b + (min(c'', r s) - b) u)
    /// decorrelated-monotone  b first (no draw), then min(c', s + (min(c'', r s) - s) u)
    /// polly-v2               min(c', (g(k - 1 + u) - g_previous) b / 1.4)
    /// ```
    /// where c' is the cap under `clamp` and c'' under `nominal` (the other is infinite).
    @inlinable
    func ownScheduleDraw<Random: UniformSource>(after previous: inout Double, retry k: Int, using random: inout Random)
        -> Double
    {
        switch jitter {
        case .decorrelated(let r):
            previous = decorrelatedJitter(after: previous, factor: r, random.nextUniform())
            return previous
        case .decorrelatedMonotone(let r):
            guard previous > 0 else {
                previous = _base
                return _base
            }
            let next = min(_clampAt, previous + (min(_tableCap, r * previous) - previous) * random.nextUniform())
            previous = next
            return next
        case .pollyV2:
            let next = PollyV2.g(Double(k - 1) + random.nextUniform())
            let wait = (next - previous) * PollyV2.scale(_base)
            previous = next
            return min(_clampAt, wait)
        case .disabled, .full, .equal, .proportional, .additive:
            return windowNominal(beforeRetry: k)
        }
    }

    /// The cap rounded as waits are (whole nanoseconds, half up), so a wait at the cap equals it;
    /// `nil` without a cap.
    @inlinable public var roundedCap: Nanoseconds? { _cap.isFinite ? Self.wholeNanoseconds(_cap) : nil }

    /// A wait rounded half up to whole nanoseconds: the same as `rounded()` for non-negative waits
    /// (but for values within an ulp below a half), without the libm call that `rounded()` costs on
    /// baseline x86-64.
    @inlinable static func wholeNanoseconds(_ wait: Double) -> Int64 { Int64(wait + 0.5) }
}
