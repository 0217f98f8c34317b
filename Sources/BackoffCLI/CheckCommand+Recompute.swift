import BackoffPolicies
import EventSimulation
import RetrySimulation

extension CheckCommand {
    /// The row's closed forms recomputed from its policy (and, for simulate rows, scenario) columns,
    /// by the mean they belong to (`nil` values: no closed form), or `nil` when the columns cannot say.
    ///
    /// A simulate row's scenario is rebuilt from `server`, `clients`, `bucket_s` and, where the table
    /// has them, `arrivals`, `service`, `replicas`, `hedge`, `layer_attempts`, `timeout_s`,
    /// `host_fault` and `outlier_detection` (a missing column reads as the option's default, except
    /// that a row with layers needs `layer_attempts`). The balancer is no column: a row's share at
    /// faulty hosts is checked where its formula cell is written (a random balancer), and skipped
    /// where empty. Options
    /// that no column records (budgets, time limits, sessions) take their defaults: where one of them
    /// removed a closed form the row's formula column is empty, and ``checkFormulas`` skips it.
    /// - Throws: a ``RowPolicy/Problem`` naming the column that describes no valid policy or scenario.
    static func recompute(_ record: [String], in table: CSVReader) throws(RowPolicy.Problem) -> ClosedForms? {
        guard let policy = try RowPolicy.policy(record, in: table) else { return nil }
        guard table.column(ScenarioColumns.server.name) != nil else { return ClosedForms(policy: policy) }
        guard let scenario = try scenario(record, in: table, policy: policy) else { return nil }
        // The hedge's forms need the service time, which only the `service` column records.
        return ClosedForms(scenario: scenario, hedge: table.column(ScenarioColumns.service.name) != nil)
    }

    /// The scenario of a simulate row, or `nil` when its columns cannot say (a row with layers in a
    /// table without `layer_attempts`). Each column is read through its declaration
    /// (``ScenarioColumns``), the one its table was written with. With `shaped`, the capacity
    /// server takes its workers, queue, expired drops and degradation window from their columns,
    /// and Poisson arrivals their duration, as the fluid model needs (the closed forms do not).
    static func scenario(_ record: [String], in table: CSVReader, policy: BackoffPolicy, shaped: Bool = false)
        throws(RowPolicy.Problem) -> Scenario?
    {
        let columns = ScenarioColumns.self
        guard var server = try columns.server.read(record, in: table) else {
            throw RowPolicy.Problem(column: columns.server.name, value: "", reason: "which is not a server model")
        }
        guard let clients = try columns.clients.read(record, in: table),
            let bucketWidth = try columns.bucketWidth.read(record, in: table)
        else { return nil }
        var arrivals = try columns.arrivals.read(record, in: table) ?? .burst
        if shaped, case .poisson(let rate, _) = arrivals,
            let duration = try columns.duration.read(record, in: table) ?? nil
        {
            arrivals = .poisson(ratePerSecond: rate, duration: duration)
        }
        let replicas = try columns.replicas.read(record, in: table) ?? 1
        if case .capacity = server, let service = try columns.service.read(record, in: table) ?? nil {
            // The closed forms read neither the workers nor the queue.
            let shape =
                shaped
                ? try capacityShape(record, in: table)
                : (workers: 1, queue: 0, dropsExpired: false, degradation: nil)
            server = .capacity(
                CapacityModel(
                    workers: shape.workers, serviceTime: service, queueLimit: shape.queue,
                    degradation: shape.degradation, replicas: replicas, dropsExpired: shape.dropsExpired,
                    faultyHosts: try columns.hostFault.read(record, in: table) ?? nil,
                    outlierDetection: try columns.outlierDetection.read(record, in: table) ?? nil))
        }
        let hedging = try columns.hedge.read(record, in: table) ?? nil
        // A timeout where the server takes one (tables before timeout_s have none).
        let timeout = server.takesTimeouts ? try columns.timeout.read(record, in: table) ?? nil : nil
        guard let layers = try layers(record, in: table) else { return nil }
        do {
            return try Scenario(
                clients: clients, server: server, policy: policy, bucketWidth: bucketWidth, arrivals: arrivals,
                attemptTimeout: timeout, layers: layers, hedging: hedging)
        } catch {
            throw RowPolicy.Problem(
                column: columns.server.name, value: table.column(columns.server.name).map { record[$0] } ?? "",
                reason: "which makes no valid scenario: \(error)")
        }
    }

    /// The capacity server's workers, queue, expired drops and degradation window, from their
    /// columns (a missing cell reads as the option's default).
    private static func capacityShape(_ record: [String], in table: CSVReader) throws(RowPolicy.Problem) -> (
        workers: Int, queue: Int, dropsExpired: Bool, degradation: CapacityModel.Degradation?
    ) {
        let columns = ScenarioColumns.self
        var degradation: CapacityModel.Degradation?
        if let from = try columns.degradeFrom.read(record, in: table) ?? nil,
            let until = try columns.degradeUntil.read(record, in: table) ?? nil
        {
            degradation = CapacityModel.Degradation(
                start: VirtualTime(from), end: VirtualTime(until),
                fraction: (try columns.degradeTo.read(record, in: table) ?? nil) ?? 0.25)
        }
        let workers = (try columns.workers.read(record, in: table) ?? nil) ?? 4
        let queue = (try columns.queue.read(record, in: table) ?? nil) ?? 100
        let dropsExpired = (try columns.dropsExpired.read(record, in: table) ?? nil) ?? false
        return (workers, queue, dropsExpired, degradation)
    }

    /// The row's layers, each with its attempts (all their closed forms need), or `nil` when the
    /// row has layers and the table no `layer_attempts`.
    private static func layers(_ record: [String], in table: CSVReader) throws(RowPolicy.Problem) -> [ServiceLayer]? {
        let column = ScenarioColumns.layerAttempts
        guard let counts = try column.read(record, in: table) else {
            return (try ScenarioColumns.layers.read(record, in: table) ?? 0) == 0 ? [] : nil
        }
        // A layer's waits are not the client's: only its attempts enter the closed forms.
        var layers: [ServiceLayer] = []
        for (index, attempts) in counts.enumerated() {
            do {
                let policy = try BackoffPolicy(budget: .maxAttempts(attempts))
                layers.append(try ServiceLayer(name: "layer \(index + 1)", policy: policy))
            } catch {
                throw RowPolicy.Problem(
                    column: column.name, value: record[table.column(column.name)!],
                    reason: "which makes no valid layer: \(error)")
            }
        }
        return layers
    }
}
