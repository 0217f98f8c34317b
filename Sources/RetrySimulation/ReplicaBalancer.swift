/// A ``Balancer`` at work: it picks the replica of each copy, and counts the copies in flight at
/// each replica (sent and not yet ended: answered, rejected, dropped or withdrawn) for the rules
/// that read them (least request; the others count nothing, so their hot path pays nothing).
struct ReplicaBalancer {
    let rule: Balancer
    let replicas: Int
    /// Copies in flight at each replica (all 0 for a rule that reads none).
    private(set) var inFlight: [Int32]
    private let counts: Bool
    /// Round robin's next replica.
    private var next = 0

    init(_ rule: Balancer, replicas: Int) {
        self.rule = rule
        self.replicas = replicas
        inFlight = [Int32](repeating: 0, count: replicas)
        if case .leastRequest = rule { counts = true } else { counts = false }
    }

    /// The replica of the next copy: with `avoids` (the call has copies at fewer replicas than
    /// there are), none that `isUsed` names (`uniform` draws from the copy's client's stream).
    @inline(__always)
    mutating func pick(avoids: Bool, uniform: () -> Double, isUsed: (Int) -> Bool) -> Int {
        guard replicas > 1 else { return taking(0) }
        return taking(choice(avoids: avoids, uniform: uniform, isUsed: isUsed))
    }

    /// The replica of a retry's first copy under Envoy's previous-hosts predicate: while the rule's
    /// choice is one that `isTried` names, the rule chooses again, up to `redraws` times; the last
    /// choice stands. With `avoids`, no choice is one `isAvoided` names (an ejected host).
    mutating func pick(
        redraws: Int, avoids: Bool, isAvoided: (Int) -> Bool, uniform: () -> Double, isTried: (Int) -> Bool
    ) -> Int {
        guard replicas > 1 else { return taking(0) }
        var replica = choice(avoids: avoids, uniform: uniform, isUsed: isAvoided)
        var left = redraws
        while left > 0 && isTried(replica) {
            replica = choice(avoids: avoids, uniform: uniform, isUsed: isAvoided)
            left -= 1
        }
        return taking(replica)
    }

    /// The rule's choice, with `avoids` none that `isUsed` names; round robin moves on past it.
    @inline(__always)
    private mutating func choice(avoids: Bool, uniform: () -> Double, isUsed: (Int) -> Bool) -> Int {
        func drawn() -> Int {
            var replica: Int
            repeat {
                replica = min(Int(uniform() * Double(replicas)), replicas - 1)
            } while avoids && isUsed(replica)
            return replica
        }
        switch rule {
        case .random:
            // Uniform among the replicas not used: rejection sampling.
            return drawn()
        case .roundRobin:
            var replica = next
            while avoids && isUsed(replica) { replica = (replica + 1) % replicas }
            next = (replica + 1) % replicas
            return replica
        case .leastRequest(let choices?):
            var best = drawn()
            for _ in 1..<choices {
                let candidate = drawn()
                if inFlight[candidate] < inFlight[best] { best = candidate }
            }
            return best
        case .leastRequest(nil):
            let start = min(Int(uniform() * Double(replicas)), replicas - 1)
            var best = -1
            for offset in 0..<replicas {
                let replica = (start + offset) % replicas
                guard !(avoids && isUsed(replica)) else { continue }
                if best < 0 || inFlight[replica] < inFlight[best] { best = replica }
            }
            return best
        }
    }

    /// A copy at `replica` ended.
    @inline(__always)
    mutating func ended(at replica: Int) {
        if counts { inFlight[replica] -= 1 }
    }

    @inline(__always)
    private mutating func taking(_ replica: Int) -> Int {
        if counts { inFlight[replica] += 1 }
        return replica
    }
}
