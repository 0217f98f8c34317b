/// When each attempt starts: the un-jittered schedule's instants and the expected ones, in seconds,
/// for a request whose every attempt fails at once.
extension BackoffPolicy {
    /// The start times t_1 ... t_m of the un-jittered schedule, in seconds: t_1 = 0 and
    /// t_k = t_(k-1) + e_(k-1), each wait rounded to the nanosecond as the simulation does. With
    /// `maxElapsed` the list stops at the last retry that starts within the limit (m <= n).
    /// For the exponential schedule, t_k = b (m^(k-1) - 1) / (m - 1) until the cap binds.
    public var nominalStartTimes: [Double] {
        var starts: [Double] = [0]
        var elapsed = 0.0
        var k = 1
        while k < maxAttempts {
            let wait = schedule == .immediate ? 0 : nominalWait(beforeRetry: k).rounded()
            if elapsed + wait > _maxElapsed { break }
            elapsed += wait
            starts.append(elapsed / 1e9)
            k += 1
        }
        return starts
    }

    /// E[t_1] ... E[t_n], the expected start time of each attempt of a request whose attempts all
    /// fail, in seconds; `nil` where ``totalWaitMoments`` has no closed form. E[t_k] = E[w_1 + ... + w_(k-1)].
    public var expectedStartTimes: [Double]? {
        let retries = maxAttempts - 1
        if case .immediate = schedule { return [Double](repeating: 0, count: maxAttempts) }
        if maxElapsed != nil { return jitter == .disabled ? nominalStartTimes : nil }
        switch jitter {
        case .decorrelated(let r):
            var moments = DecorrelatedMoments(
                base: _base, cap: _cap, factor: r, chain: decorrelatedChain, retries: retries)
            return [0] + (0..<retries).map { _ in moments.next()!.mean / 1e9 }
        case .decorrelatedMonotone(let r):
            guard retries > 0 else { return [0] }
            var moments = DecorrelatedMoments(
                base: _base, cap: _cap, factor: r, chain: decorrelatedChain, retries: retries - 1)
            return [0, _base / 1e9] + (0..<(retries - 1)).map { _ in (_base + moments.next()!.mean) / 1e9 }
        case .pollyV2:
            guard !pollyClampCanBind(retries: retries) else { return nil }
            let scale = PollyV2.scale(_base)
            return [0] + (0..<retries).map { k in scale * PollyV2.moments(at: k).mean / 1e9 }
        case .disabled, .full, .equal, .proportional, .additive:
            // Accumulate in nanoseconds and convert each sum once, so 0.1 s + 0.2 s reads 0.3 s.
            var starts: [Double] = [0]
            var total = 0.0
            for k in stride(from: 1, to: maxAttempts, by: 1) {
                total += expectedWindowWait(beforeRetry: k)
                starts.append(total / 1e9)
            }
            return starts
        }
    }

    /// E[w_k] for a mode with a nominal schedule, in nanoseconds.
    func expectedWindowWait(beforeRetry k: Int) -> Double {
        switch (jitter, _clampAt.isFinite) {
        case (.disabled, _): nominalWait(beforeRetry: k)
        case (.full, false): 0.5 * nominalWait(beforeRetry: k)
        case (.equal, false): 0.75 * nominalWait(beforeRetry: k)
        default:
            JitterWindow(jitter)!.moments(nominal: windowNominal(beforeRetry: k), cap: _cap, clamp: _clampAt.isFinite)
                .mean
        }
    }
}
