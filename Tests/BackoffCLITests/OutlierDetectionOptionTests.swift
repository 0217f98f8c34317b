import Testing

@testable import BackoffCLI

/// `--outlier-detection`: Envoy's consecutive-5xx ejection, its columns, and its refusals.
@Suite struct OutlierDetectionOptionTests {
    static let blackHole =
        "sweep simulate --server capacity --replicas 10 --workers 1 --service exp:50ms --queue 100000 "
        + "--arrivals poisson:150 --duration 10s --max-attempts 3 --jitter full --host-fault 1:fail-fast "
        + "--balancer least-request:choices=all --seed 2015"

    /// A sweep of none against a detector: the detector's row ejects the failing host, which then
    /// draws almost nothing; the row without one has no ejection cells.
    @Test func aSweepComparesNoneWithADetector() throws {
        let run = Invocation(Self.blackHole + " --outlier-detection none,consecutive-5xx:interval=1s")
        #expect(run.status == 0, "\(run.stderr)")
        let table = CSVReader(text: run.stdout)
        let column = { (name: String) in table.header.firstIndex(of: name)! }
        #expect(table.records.count == 2)
        let (none, ejecting) = (table.records[0], table.records[1])
        #expect(none[column("outlier_detection")] == "none" && none[column("ejections")] == "")
        #expect(
            ejecting[column("outlier_detection")]
                == "consecutive-5xx:count=5:interval=1s:base-ejection-time=30s:max-ejection-percent=10")
        #expect(Int(ejecting[column("ejections")]) == 1)
        let shares = [none, ejecting].map { Double($0[column("faulty_host_share")])! }
        #expect(shares[0] > 0.3 && shares[1] < 0.01, "\(shares)")
    }

    @Test(arguments: [
        ("", "unknown kind ''"), ("consecutive-5xx:count=0", "count takes a whole number from 1"),
        ("consecutive-5xx:interval=0s", "interval takes a duration greater than 0"),
        ("consecutive-5xx:base-ejection-time=-1s", "greater than 0"),
        ("consecutive-5xx:max-ejection-percent=101", "from 0 to 100"),
        ("consecutive-5xx:max-ejection-percent=nan", "from 0 to 100"), ("none:count=1", "'none' takes no parameters"),
        ("consecutive-5xx:count=5:count=6", "given twice"), ("consecutive-500", "unknown kind"),
    ])
    func malformedDetectorsAreRefusedWithTheForm(value: String, reason: String) {
        let result = Invocation(["simulate", "--server", "capacity", "--replicas", "2", "--outlier-detection", value])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(value): \(result.stderr)")
        #expect(
            result.stderr.contains("'--outlier-detection <detector>'") && result.stderr.contains(reason),
            "\(result.stderr)")
    }
}
