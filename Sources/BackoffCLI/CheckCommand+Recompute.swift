import BackoffPolicies
import RetrySimulation

extension CheckCommand {
    /// The row's closed forms recomputed from its policy (and, for simulate rows, scenario) columns,
    /// by the mean they belong to (`nil` values: no closed form), or `nil` when the columns cannot say.
    ///
    /// A simulate row's scenario is rebuilt from `server`, `clients`, `bucket_s` and, where the table
    /// has them, `arrivals`, `service`, `replicas`, `hedge` and `layer_attempts` (a missing column
    /// reads as the option's default, except that a row with layers needs `layer_attempts`). Options
    /// that no column records (budgets, time limits, sessions) take their defaults: where one of them
    /// removed a closed form the row's formula column is empty, and ``checkFormulas`` skips it.
    /// - Throws: a ``RowPolicy/Problem`` naming the column that describes no valid policy or scenario.
    static func recompute(_ record: [String], in table: CSVReader) throws(RowPolicy.Problem) -> RecomputedForms? {
        guard let policy = try RowPolicy.policy(record, in: table) else { return nil }
        guard table.column("server") != nil else {
            return RecomputedForms([.meanTotalWait: policy.totalWaitMoments?.mean])
        }
        guard let scenario = try scenario(record, in: table, policy: policy) else { return nil }
        let form = scenario.closedForm
        var forms: [CheckedMean: Double?] = [
            .attemptsPerClient: form?.attemptsPerClient, .meanTotalWait: form?.meanTotalWait,
            .successes: form.map { $0.successFraction * Double(scenario.clients) },
        ]
        // The hedge's forms need the service time, which only the `service` column records.
        if table.column("service") != nil {
            let hedge = scenario.hedgeClosedForm
            forms[.copiesPerRequest] = hedge?.copies
            forms[.meanResponse] = hedge?.meanResponse
            forms[.workPerRequest] = hedge?.work
        }
        return RecomputedForms(forms)
    }

    /// The scenario of a simulate row, or `nil` when its columns cannot say (a row with layers in a
    /// table without `layer_attempts`).
    private static func scenario(_ record: [String], in table: CSVReader, policy: BackoffPolicy)
        throws(RowPolicy.Problem) -> Scenario?
    {
        func field(_ name: String) -> String? { table.column(name).map { record[$0] } }
        let serverText = field("server") ?? ""
        guard var server = ServerSpec.model(serverText) else {
            throw RowPolicy.Problem(column: "server", value: serverText, reason: "which is not a server model")
        }
        guard let clientsText = field("clients"), let bucketText = field("bucket_s") else { return nil }
        guard let clients = ValueParser.integer(clientsText), clients >= 1 else {
            throw RowPolicy.Problem(column: "clients", value: clientsText, reason: "not a whole number >= 1")
        }
        guard let seconds = ValueParser.number(bucketText), seconds > 0, seconds < 9e9 else {
            throw RowPolicy.Problem(column: "bucket_s", value: bucketText, reason: "not a positive number of seconds")
        }
        let arrivalsText = field("arrivals") ?? "burst"
        guard let arrivals = ScenarioText.arrivals(arrivalsText) else {
            throw RowPolicy.Problem(column: "arrivals", value: arrivalsText, reason: "which is not an arrival process")
        }
        let replicasText = field("replicas") ?? "1"
        guard let replicas = ValueParser.integer(replicasText), replicas >= 1 else {
            throw RowPolicy.Problem(column: "replicas", value: replicasText, reason: "not a whole number >= 1")
        }
        if case .capacity = server, let serviceText = field("service") {
            guard let service = ScenarioOptions.serviceTime(serviceText) else {
                throw RowPolicy.Problem(column: "service", value: serviceText, reason: "which is not a service time")
            }
            server = .capacity(
                CapacityModel(workers: 1, serviceTime: service, queueLimit: 0, replicas: replicas))
        }
        let hedgeText = field("hedge") ?? "none"
        let hedging: Hedging?
        do {
            hedging = try LimitSpec.parseHedge(hedgeText)
        } catch {
            throw RowPolicy.Problem(column: "hedge", value: hedgeText, reason: "which is not a hedge")
        }
        guard let layers = try layers(field) else { return nil }
        do {
            return try Scenario(
                clients: clients, server: server, policy: policy,
                bucketWidth: .nanoseconds(Int64((seconds * 1e9).rounded())), arrivals: arrivals, layers: layers,
                hedging: hedging)
        } catch {
            throw RowPolicy.Problem(
                column: "server", value: serverText, reason: "which makes no valid scenario: \(error)")
        }
    }

    /// The row's layers, each with its attempts (all their closed forms need), or `nil` when the
    /// row has layers and the table no `layer_attempts`.
    private static func layers(_ field: (String) -> String?) throws(RowPolicy.Problem) -> [ServiceLayer]? {
        guard let text = field("layer_attempts") else {
            let count = field("layers") ?? "0"
            return count == "0" ? [] : nil
        }
        guard let counts = ScenarioText.layerAttempts(text) else {
            throw RowPolicy.Problem(
                column: "layer_attempts", value: text, reason: "not whole numbers >= 1 separated by x (e.g. 3x2)")
        }
        // A layer's waits are not the client's: only its attempts enter the closed forms.
        var layers: [ServiceLayer] = []
        for (index, attempts) in counts.enumerated() {
            do {
                let policy = try BackoffPolicy(budget: .maxAttempts(attempts))
                layers.append(try ServiceLayer(name: "layer \(index + 1)", policy: policy))
            } catch {
                throw RowPolicy.Problem(
                    column: "layer_attempts", value: text, reason: "which makes no valid layer: \(error)")
            }
        }
        return layers
    }
}
