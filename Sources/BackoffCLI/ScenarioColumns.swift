import BackoffPolicies
import RetrySimulation

/// The scenario columns of the `simulate` table that `check` reads back to rebuild a row's
/// scenario, each declared once with the kind of value it holds (see ``TypedColumn``). Every one
/// is written in the form its option takes, so a cell can be pasted back onto a command line.
enum ScenarioColumns {
    static let clients = TypedColumn("clients", "clients N (sessions that arrived)", atLeastOne)
    /// The server's kind and the parameters `--server` carries (the rest are other options').
    static let server = TypedColumn(
        "server", "server model", CellCodec(ServerSpec.self, unreadable: "which is not a server model"))
    static let bucketWidth = TypedColumn("bucket_s", "bucket width, seconds", CellCodec<Duration>.positiveSeconds)
    static let layers = TypedColumn(
        "layers", "service layers between the clients and the server (--layer)", CellCodec<Int>.count)
    static let replicas = TypedColumn(
        "replicas", "capacity: replicas behind the balancer (--replicas; 1 for other servers)", atLeastOne)
    static let hedge = TypedColumn(
        "hedge", "the hedge, as --hedge takes it (none: one copy per attempt)",
        CellCodec(HedgeSpec.self, unreadable: "which is not a hedge"))
    /// A Poisson process's duration is `--duration`'s, which no closed form depends on: it reads
    /// back as 1 s here, and the fluid's recomputation takes it from ``duration``.
    static let arrivals = TypedColumn(
        "arrivals", "when sessions start, as --arrivals takes it: burst, uniform:WINDOW or poisson:RATE",
        CellCodec<Arrivals>(
            "which is not an arrival process", write: { ArrivalsSpec.print(.init($0)) },
            read: { ArrivalsSpec.value($0)?.arrivals(duration: .seconds(1)) }))
    static let service = TypedColumn(
        "service", "capacity: the service time, as --service takes it (empty for other servers)",
        CellCodec<ServiceTime?>(
            "which is not a service time", write: { $0.map(ServiceTimeSpec.print) ?? "" },
            read: { text in text.isEmpty ? .some(nil) : ServiceTimeSpec.value(text).map { $0 } }))
    static let layerAttempts = TypedColumn(
        "layer_attempts", "each --layer's attempts, top to bottom, x-separated, e.g. 3x2 (empty: no layer)",
        CellCodec<[Int]>(
            "not whole numbers >= 1 separated by x (e.g. 3x2)",
            write: { $0.map(String.init).joined(separator: "x") }, read: layerAttempts))
    /// The clients' per-attempt timeout: a deadline server's closed form needs it.
    static let timeout = TypedColumn(
        "timeout_s", "the clients' per-attempt timeout (--timeout), seconds (inf: none)",
        CellCodec<Duration?>(
            "which is not a positive number of seconds or inf", write: { CSVFormat.seconds($0) },
            read: { text in
                text == "inf" ? .some(nil) : (try? CellCodec<Duration>.positiveSeconds.read(text)).map { $0 }
            }, holdsNumbers: true))

    /// The capacity server's faulty hosts, as `--host-fault` takes them.
    static let hostFault = TypedColumn(
        "host_fault", "capacity: the replicas that misbehave, as --host-fault takes them (none: every host serves)",
        CellCodec<FaultyHosts?>(
            "which is not a host fault", write: { $0.map(HostFaultSpec.print) ?? "none" },
            read: { text in text == "none" ? .some(nil) : (try? HostFaultSpec.parse(text)).map { $0 } }))

    /// How the clients' retries pick a replica beyond the balancer, as `--retry-host-predicate` takes it.
    static let retryHostPredicate = TypedColumn(
        "retry_host_predicate",
        "capacity: how a retry picks its replica beyond the balancer, as --retry-host-predicate takes it (none)",
        CellCodec<RetryHostPredicate?>(
            "which is not a retry host predicate", write: { $0.map(RetryHostPredicateSpec.print) ?? "none" },
            read: { text in text == "none" ? .some(nil) : (try? RetryHostPredicateSpec.parse(text)).map { $0 } }))

    /// The replica set's outlier detection, as `--outlier-detection` takes it.
    static let outlierDetection = TypedColumn(
        "outlier_detection", "capacity: the hosts' outlier detection, as --outlier-detection takes it (none)",
        CellCodec<OutlierDetection?>(
            "which is not an outlier detection", write: OutlierDetectionSpec.print,
            read: { text in
                guard text != "none" else { return .some(nil) }
                return (try? OutlierDetectionSpec.parse(text)).flatMap { $0 }.map { $0 }
            }))

    /// The attempts of a `layer_attempts` cell, `nil` when a part is not a whole number >= 1.
    private static func layerAttempts(_ text: String) -> [Int]? {
        guard !text.isEmpty else { return [] }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        let counts = parts.compactMap { ValueParser.integer(String($0)) }.filter { $0 >= 1 }
        return counts.count == parts.count ? counts : nil
    }

    /// A whole number of at least 1.
    private static let atLeastOne = CellCodec<Int>(
        "not a whole number >= 1", write: CSVFormat.integer,
        read: { text in ValueParser.integer(text).flatMap { $0 >= 1 ? $0 : nil } }, holdsNumbers: true)
}
