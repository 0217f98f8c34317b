import RetrySimulation

/// The options of a capacity server's replica set beyond `--replicas`: how the balancer shares
/// copies, which hosts misbehave, how a retry picks its host and which hosts are ejected.
extension ScenarioOptions {
    /// Optional, so that a run without it (random) keeps every sweep point's seed as it was.
    static let balancer = Option<Balancer?>.optional(
        "balancer", "rule", form: BalancerSpec.form,
        help: "capacity, with --replicas: how the replicas share the copies sent to them: random (when not "
            + "given); round-robin; least-request[:choices=N|all] (Envoy's: N replicas drawn, default 2, the one "
            + "with the fewest copies in flight taken; all scans every replica); or p2c (least-request:choices=2).",
        parse: BalancerSpec.parse
    ).setting(.balancer).grouped(.server)
    static let hostFault = Option<FaultyHosts?>.optional(
        "host-fault", "spec", form: HostFaultSpec.form,
        help: "capacity: COUNT of the replicas misbehave: fail-fast (every attempt fails after latency, default 1ms, "
            + "holding no worker), failing:p=P (each answer fails with probability P), slow:service=DIST (its own "
            + "service time) or down:until=D[:from=D] (refuses attempts in [from, until)). Writes "
            + "faulty_host_share, the share of copies the balancer sent them.",
        parse: HostFaultSpec.parse
    ).setting(.hostFault).grouped(.server)
    static let retryHostPredicate = Option<RetryHostPredicate?>.optional(
        "retry-host-predicate", "predicate", form: RetryHostPredicateSpec.form,
        help: "capacity, with --replicas: Envoy's previous-hosts predicate: while the balancer picks a host the "
            + "request tried already for a retry, it picks again, up to N times. Writes retries_to_tried_hosts, the "
            + "share of retries that went back to a tried host, beside (a/n)^(N+1) for a random balancer; "
            + "attempts=0 measures retries without it.",
        parse: RetryHostPredicateSpec.parse
    ).setting(.retryHostPredicate).grouped(.server)
    /// Optional (none when not given), for the reason `--balancer` is; `none` names no detector, so
    /// that a sweep may compare none with one.
    static let outlierDetection = Option<OutlierDetection??>.optional(
        "outlier-detection", "detector", form: OutlierDetectionSpec.form,
        help: "capacity, with --replicas: Envoy's outlier detection: a host whose answers fail count times in a row "
            + "is ejected (the balancer sends it nothing) for base-ejection-time x the times it was ejected, back at "
            + "the next interval tick; at most max-ejection-percent of the hosts (at least one) are out at once. "
            + "Writes ejections and ejected_host_s.",
        parse: OutlierDetectionSpec.parse
    ).setting(.outlierDetection).grouped(.server)
}
