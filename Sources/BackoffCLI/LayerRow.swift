import RetrySimulation

/// One row of `simulate --layer-report FILE`: one layer of one jitter mode's stack, or (layer 0)
/// the clients themselves, whose attempts go into the top layer.
struct LayerRow {
    let jitter: String
    /// 0 for the clients, k for the kth layer from the top.
    let layer: Int
    let name: String
    let tally: LayerTally
    /// Requests the clients sent: every row's amplification is per one of them.
    let clientRequests: Int

    /// The rows of one mode's run: the clients', then each layer's.
    static func rows(of row: SimulateRow) -> [LayerRow] {
        let report = row.report
        var clients = LayerTally()
        clients.requests = report.uniqueRequests
        clients.attempts = report.clientAttempts
        clients.successes = report.successes
        clients.permanentFailures = report.permanentFailures
        clients.giveUps = report.giveUps + report.budgetDenials + report.localRejections
        clients.timeouts = report.timeouts
        clients.deadlineExceeded = report.deadlineExceeded
        clients.hedgeCopies = report.clientHedgeCopies
        let jitter = row.scenario.policy.jitter.name
        return [
            LayerRow(jitter: jitter, layer: 0, name: "clients", tally: clients, clientRequests: report.uniqueRequests)
        ]
            + zip(row.scenario.layers, report.layers).enumerated().map { index, pair in
                LayerRow(
                    jitter: jitter, layer: index + 1, name: pair.0.name, tally: pair.1,
                    clientRequests: report.uniqueRequests)
            }
    }

    /// The columns of `--layer-report FILE`.
    static let columns: [Column<LayerRow>] = [
        Column("jitter", "jitter mode") { $0.jitter }.holdingText(),
        Column("layer", "0 for the clients, k for the kth layer from the top") { String($0.layer) },
        Column("name", "the layer's name (clients for layer 0)") { $0.name }.holdingText(),
        Column("requests", "requests received from the caller (layer 0: requests the clients sent)") {
            String($0.tally.requests)
        },
        Column("attempts", "attempts sent to the layer below (the bottom layer's: to the server)") {
            String($0.tally.attempts)
        },
        Column("successes", "requests answered with a success") { String($0.tally.successes) },
        Column("permanent_failures", "requests answered with a permanent error") {
            String($0.tally.permanentFailures)
        },
        Column("give_ups", "requests answered with a failure: attempts or time ran out, or a budget or breaker refused")
        {
            String($0.tally.giveUps)
        },
        Column("timeouts", "attempts it stopped waiting for at its per-try timeout (layer 0: --timeout)") {
            String($0.tally.timeouts)
        },
        Column("rejections", "requests refused at once because it held 'concurrency' requests already") {
            String($0.tally.rejections)
        },
        Column("deadline_exceeded", "requests cancelled when their deadline passed (layer 0: --deadline)") {
            String($0.tally.deadlineExceeded)
        },
        Column("amplification", "attempts sent down per request the clients sent") {
            CSVFormat.number($0.clientRequests > 0 ? Double($0.tally.attempts) / Double($0.clientRequests) : .nan)
        },
        Column("hedge_copies", "copies after the first its hedge sent (hedge-... keys; 0 without a hedge)") {
            String($0.tally.hedgeCopies)
        },
        Column("cancelled", "requests a hedge above cancelled once another copy answered (hedge-cancel)") {
            String($0.tally.cancelled)
        },
    ]
}
