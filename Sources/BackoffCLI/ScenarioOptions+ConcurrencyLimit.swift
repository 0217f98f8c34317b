import RetrySimulation

/// `--limit`: the clients' adaptive concurrency limit, in the form a layer's `limit=` takes.
extension ScenarioOptions {
    /// Optional (none when not given), so that a run without it keeps every sweep point's seed.
    static let limit = Option<ConcurrencyLimit?>.optional(
        "limit", "algorithm", form: ConcurrencyLimit.form,
        help: "An adaptive concurrency limit on the clients' attempts in flight, shared by every client as one "
            + "client library's limiter (Netflix concurrency-limits' AIMD, Gradient2 or Vegas, as a layer's limit= "
            + "takes them): an attempt that finds the limit reached fails at once (local_rejections); a timeout is a "
            + "drop, any other answer a latency sample. The timeline's concurrency_limit follows it.",
        parse: { text throws(InvalidValue) in
            do throws(LayerSettingError) {
                return try ConcurrencyLimit(parsing: text)
            } catch {
                throw InvalidValue(error.detail)
            }
        }
    ).setting(.concurrencyLimit).grouped(.limits)
}
