/// Where an option sits in `backoff help <command>`, as swift-argument-parser's option groups
/// place theirs: a command whose options span several groups lists them under one heading each, in
/// this order, and each option in the order the command declares it.
enum OptionGroup: Int, CaseIterable, Sendable {
    /// The command's own options (the default).
    case command
    /// The retry policy: presets, the schedule, jitter, caps, attempts.
    case policy
    /// The server model and its parameters.
    case server
    /// The clients: how many, when they arrive, what a session sends, when an attempt times out.
    case clients
    /// Limits the clients share: a retry budget, a circuit breaker, a throttle.
    case limits
    /// Service layers between the clients and the server, and hedged requests.
    case layers
    /// Where the output goes, the randomness, and how the run is bounded and reported.
    case output

    /// The heading of the group's options in help.
    var heading: String {
        switch self {
        case .command: "OPTIONS"
        case .policy: "POLICY OPTIONS"
        case .server: "SERVER OPTIONS"
        case .clients: "CLIENT AND ARRIVAL OPTIONS"
        case .limits: "SHARED LIMIT OPTIONS"
        case .layers: "LAYER AND HEDGE OPTIONS"
        case .output: "OUTPUT AND RUN OPTIONS"
        }
    }
}
