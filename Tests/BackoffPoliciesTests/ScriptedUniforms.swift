import BackoffPolicies

/// A uniform source that replays a fixed list of draws, cycling.
struct ScriptedUniforms: UniformSource {
    let draws: [Double]
    private(set) var position = 0

    init(_ draws: [Double]) { self.draws = draws }

    mutating func nextUniform() -> Double {
        defer { position += 1 }
        return draws[position % draws.count]
    }
}

/// Runs one request whose every attempt fails; returns its waits in nanoseconds.
func drawWaits<Random: UniformSource>(_ policy: BackoffPolicy, using random: inout Random) -> [Int64] {
    var state = BackoffState(policy: policy)
    var waits: [Int64] = []
    while let wait = policy.nextWait(after: &state, elapsed: state.totalWait, using: &random) { waits.append(wait) }
    return waits
}

extension Duration {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }
}
