import BackoffPolicies

extension Scenario {
    /// Bytes held per client of an event-ordered run: its state (48), its generator's state (24), its
    /// start time (8) and about two queued events (32 each).
    static let bytesPerClient = 144.0

    /// The sessions the arrivals bring: the clients, or for a Poisson process its mean plus six
    /// standard deviations (a bound the count exceeds with probability below 1e-9).
    public var expectedSessions: Double {
        meanSessions + (isPoisson ? 6 * meanSessions.squareRoot() + 1 : 0)
    }

    /// The sessions the arrivals bring on average: the clients, or a Poisson process's rate times
    /// its duration.
    public var meanSessions: Double {
        switch arrivals {
        case .burst, .uniform: Double(clients)
        case .poisson(let rate, let duration): rate * duration.nanoseconds / 1e9
        }
    }

    private var isPoisson: Bool {
        if case .poisson = arrivals { true } else { false }
    }

    /// The memory one run of this scenario needs, from its parameters: the clients, a slot per
    /// request for its total wait, and the load timeline's buckets (up to ``maximumBuckets``).
    public var memoryEstimate: MemoryEstimate {
        let sessions = expectedSessions
        let sessionParameter: String
        let sessionText: String
        switch arrivals {
        case .poisson(let rate, let duration):
            sessionParameter = "--arrivals poisson:\(MemoryEstimate.count(rate)) over --duration \(duration.unitText)"
            sessionText = "up to \(MemoryEstimate.count(sessions)) clients"
        case .burst, .uniform:
            sessionParameter = "--clients \(clients)"
            sessionText = "\(MemoryEstimate.count(sessions)) clients"
        }
        // The timeline spans the arrivals, each client's requests (their waits, think times and
        // timeouts) and the server's trigger; it grows bucket by bucket up to its limit.
        let arrivalSpan: Double =
            switch arrivals {
            case .burst: 0
            case .uniform(let window): window.nanoseconds
            case .poisson(_, let duration): duration.nanoseconds
            }
        // A layer's request lasts its waits and its attempts (each its timeout, or the request of
        // the layer below); as for the clients, a server's answer counts no time.
        let layerRequest = layers.reversed().reduce(0.0) { below, layer in
            let attempt = layer.timeout?.nanoseconds ?? below
            return layer.policy.totalWaitRange.upperBound * 1e9 + Double(layer.policy.maxAttempts) * attempt
        }
        // Without a timeout, a capacity server's attempt lasts its wait in the FIFO queue and its
        // service: up to (queue + workers) / workers services, the queue holding at most its places
        // or every client's attempt (40,000 clients before one worker of 1,000 s services keep the
        // timeline growing for 4 x 10^7 s).
        let sojourn: Double =
            if case .capacity(let model) = server {
                (min(Double(model.queueLimit), sessions * Double(activeHedge?.copies ?? 1)) + Double(model.workers))
                    / Double(model.workers) * model.serviceTime.mean.nanoseconds
            } else { 0 }
        let perRequest =
            policy.totalWaitRange.upperBound * 1e9 + thinkTime.nanoseconds
            + Double(policy.maxAttempts) * (attemptTimeout?.nanoseconds ?? max(layerRequest, sojourn))
        let horizon = arrivalSpan + Double(requestsPerClient) * perRequest + Double(triggerEnd?.nanoseconds ?? 0)
        let buckets = min(Double(Self.maximumBuckets), horizon / bucketWidth.nanoseconds + 1)
        // Reused slots: the sessions that arrive while one lasts (its requests, and its last
        // attempt's wait in the queue), six standard deviations more, held up to twice while grown.
        let inFlight = sessions / max(1, arrivalSpan) * (Double(requestsPerClient) * perRequest + sojourn)
        let heldSessions =
            recyclesClients && arrivalSpan > 0
            ? min(sessions, 2 * (inFlight + 6 * inFlight.squareRoot() + 1024)) : sessions
        let bucketBytes = Double(MemoryLayout<LoadTimeline.Bucket>.stride)
        let componentParts: [MemoryEstimate.Item] =
            if case .component(let component) = server { component.base.memory(in: self) } else { [] }
        let limitBytes = LimitsInForce.bytesPerClient(limits)
        let limitParts: [MemoryEstimate.Item] =
            limitBytes == 0
            ? []
            : [
                .init(
                    parameter: "--budget, --throttle",
                    what:
                        "the shared limits' state of \(MemoryEstimate.count(heldSessions)) clients, \(limitBytes) bytes each",
                    bytes: heldSessions * Double(limitBytes))
            ]
        // Each client's request holds a call in each layer, and each call about two queued events
        // (its next attempt or timeout, its deadline); orphaned calls add to it. A hedge above a
        // layer (the clients', or a layer's) makes each of its attempts a call per copy there.
        let callBytes = Double(MemoryLayout<ServiceCall>.stride + 2 * 32)
        let callsPerRequest = layers.reduce(into: (calls: 0.0, copies: Double(hedging?.copies ?? 1))) { sum, layer in
            sum.calls += sum.copies
            sum.copies *= Double(layer.hedging?.copies ?? 1)
        }.calls
        let layerParts: [MemoryEstimate.Item] =
            layers.isEmpty
            ? []
            : [
                .init(
                    parameter: "--layer (\(layers.count))",
                    what: (callsPerRequest > Double(layers.count)
                        ? "\(MemoryEstimate.count(sessions * callsPerRequest)) calls in the layers if every "
                            + "hedge sends all its copies"
                        : "at least \(MemoryEstimate.count(sessions * callsPerRequest)) calls in the layers")
                        + ", \(Int(callBytes)) bytes each (orphaned work holds more)",
                    bytes: sessions * callsPerRequest * callBytes)
            ]
        // A hedged request's response time is kept for exact quantiles (grown by doubling, then a
        // sorted copy and the summary's): up to 4 x 8 bytes a request. Its call and copies are freed
        // as they end.
        let requests = sessions * Double(requestsPerClient)
        let hedgeParts: [MemoryEstimate.Item] =
            runsReplicaSet
            ? [
                .init(
                    parameter: hedging == nil ? "--replicas \(replicas)" : "--hedge",
                    what: "\(MemoryEstimate.count(requests)) response times, 32 bytes each while summarised",
                    bytes: requests * 32)
            ] : []
        // Clients that do not interact run one after the other: a start time each (none in a burst).
        let clientBytes: Double =
            if !runsClientByClient { Self.bytesPerClient } else if case .burst = arrivals { 0 } else { 8 }
        let clientWhat =
            if runsClientByClient && clientBytes == 0 {
                "\(sessionText), run one after the other: nothing kept per client"
            } else if heldSessions < sessions {
                "\(sessionText), of which up to \(MemoryEstimate.count(heldSessions)) held at once "
                    + "(a slot passes to a new session when one ends), \(Int(clientBytes)) bytes each"
            } else {
                "\(sessionText), \(Int(clientBytes)) bytes each"
            }
        // Total waits kept one by one for exact quantiles, or streamed into a sketch (nanoseconds
        // from 1 to 2^63: 63 binades of 512 buckets, 8 bytes each, at most; one per thread).
        let totalWaits: MemoryEstimate.Item =
            requests <= Double(Self.exactQuantileLimit)
            ? .init(
                parameter: "--requests-per-client \(requestsPerClient)",
                what:
                    "\(MemoryEstimate.count(sessions)) clients x \(MemoryEstimate.count(Double(requestsPerClient))) requests, 8 bytes each",
                bytes: requests * 8)
            : .init(
                parameter: sessionParameter,
                what: "total waits streamed into a quantile sketch per thread, up to 252 KiB each (4 charged)",
                bytes: 4 * 252 * 1024)
        return MemoryEstimate(
            [
                .init(parameter: sessionParameter, what: clientWhat, bytes: heldSessions * clientBytes),
                totalWaits,
                // Grown by doubling, then copied once into the report: up to three times the buckets.
                .init(
                    parameter: "--bucket \(bucketWidth.unitText)",
                    what:
                        "\(MemoryEstimate.count(buckets)) load buckets, \(Int(bucketBytes)) bytes each (held up to 3 times while grown)",
                    bytes: 3 * buckets * bucketBytes),
            ] + limitParts + layerParts + hedgeParts + componentParts)
    }
}
