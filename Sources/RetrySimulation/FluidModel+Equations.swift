import Foundation

/// The fluid's state and its right-hand side, per replica.
extension FluidModel {
    /// Where each quantity sits in the state vector: the work Q, the requests learning of a
    /// timeout (U_k, in ``learningStages`` stages) and waiting to retry (R_k), k = 1 … n − 1, then
    /// the running totals of attempts sent, successes and give-ups.
    struct Layout {
        let retries: Int

        var work: Int { 0 }
        func learning(_ k: Int, stage: Int = 0) -> Int { 1 + k * FluidModel.learningStages + stage }
        func waiting(_ k: Int) -> Int { 1 + retries * FluidModel.learningStages + k }
        var sent: Int { 1 + retries * (FluidModel.learningStages + 1) }
        var successes: Int { sent + 1 }
        var giveUps: Int { sent + 2 }
        var dimension: Int { sent + 3 }
    }

    var layout: Layout { Layout(retries: retryWaits.count) }

    /// The stages of the delay between a timed-out attempt and its caller's knowing: an Erlang
    /// law of mean T, whose coefficient of variation 1/√m (0.35) stands for the fixed timeout (one
    /// exponential stage would bring a tenth of the retries back within a tenth of T).
    static let learningStages = 8

    /// New requests a second at one replica at `t` seconds.
    func arrivalRate(at t: Double) -> Double {
        if let arrivalsEnd, t >= arrivalsEnd { return 0 }
        return arrivalRate / Double(replicas)
    }

    /// dy/dt at `t` for the state `y` of one replica, under capacity factor `factor` and
    /// `arrivals` new requests a second (the callers pass what is in force, so one integration
    /// step never spans a jump of either).
    func derivative(
        at t: Double, _ y: UnsafeBufferPointer<Double>, into dy: UnsafeMutableBufferPointer<Double>, factor: Double,
        arrivals: Double
    ) {
        let layout = layout
        let c = Double(workers)
        let work = max(0, y[layout.work])
        let drain = min(work, c) * factor / meanService
        let timedOut = timeoutProbability(backlog: work - c, at: t)
        let (limit, drops) = workLimit(factor: factor)

        // The offered attempts: first attempts, then each stage's retries.
        var offered = arrivals
        for k in 0..<layout.retries { offered += max(0, y[layout.waiting(k)]) / retryWaits[k] }
        let admittedShare = work < limit || offered <= drain ? 1 : drain / offered

        var successes = 0.0
        var giveUps = 0.0
        var admitted = 0.0
        let stageRate = timeout.map { Double(Self.learningStages) / $0 } ?? 0
        for k in 0...layout.retries {
            let attempts = k == 0 ? arrivals : max(0, y[layout.waiting(k - 1)]) / retryWaits[k - 1]
            let taken = attempts * admittedShare
            let refused = attempts - taken
            let failed = taken * timedOut
            admitted += taken
            successes += taken - failed
            // Attempt k + 1 failed: its request retries from stage k, or gives up after the nth.
            if k == layout.retries {
                giveUps += failed + refused
                continue
            }
            // A timeout is learned T after the attempt was sent: m stages of mean T / m each.
            var entering = failed + (drops ? refused : 0)
            for stage in 0..<Self.learningStages {
                let leaving = max(0, y[layout.learning(k, stage: stage)]) * stageRate
                dy[layout.learning(k, stage: stage)] = entering - leaving
                entering = leaving
            }
            dy[layout.waiting(k)] = entering + (drops ? 0 : refused) - max(0, y[layout.waiting(k)]) / retryWaits[k]
        }
        dy[layout.work] = admitted - drain
        dy[layout.sent] = offered
        dy[layout.successes] = successes
        dy[layout.giveUps] = giveUps
    }

    /// q at `t` for an attempt admitted behind `backlog` attempts waiting: it waits w, until the
    /// workers have drained the backlog at the capacity to come (a drop ahead slows it, a return
    /// speeds it up), and is then served in S / f, f the capacity when it starts (a service that
    /// starts in a drop takes its time over the factor): q = P(w + S / f > T).
    func timeoutProbability(backlog: Double, at t: Double) -> Double {
        guard let timeout else { return 0 }
        let perWorker = meanService / Double(workers)
        var (wait, left) = (0.0, max(0, backlog) * perWorker)  // the backlog in seconds at full capacity
        var index = capacity.lastIndex { $0.start <= t }!
        while true {
            let factor = capacity[index].factor
            let end = index + 1 < capacity.count ? capacity[index + 1].start - t : .infinity
            if factor > 0 && wait + left / factor <= end {
                wait += left / factor
                guard wait < timeout else { return 1 }
                return serviceTime.survival(atNanoseconds: factor * (timeout - wait) * 1e9)
            }
            guard end < timeout else { return 1 }
            left -= factor * (end - wait)
            wait = end
            index += 1
        }
    }

    /// The requests still in the system in the state `y` of one replica: retrying or at the server.
    func inFlight(_ y: [Double]) -> Double {
        let layout = layout
        var total = max(0, y[layout.work])
        for k in 0..<layout.retries {
            total += max(0, y[layout.waiting(k)])
            for stage in 0..<Self.learningStages { total += max(0, y[layout.learning(k, stage: stage)]) }
        }
        return total
    }
}
