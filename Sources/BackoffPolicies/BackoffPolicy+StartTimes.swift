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
            let wait =
                schedule == .immediate
                ? 0
                : _shapesWaits
                    ? shapedWaitMoments(beforeRetry: k).mean : nominalWaitNanoseconds(beforeRetry: k).rounded()
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
        if _shapesWaits { return shapedExpectedStartTimes(retries: retries) }
        return jitter.kernel.expectedStartTimes(self, retries: retries)
    }
}
