internal import CGSL

/// Integrates a system of ordinary differential equations dy/dt = f(t, y) with GSL's embedded
/// Runge–Kutta–Fehlberg (4, 5) method under its adaptive step control (`gsl_odeiv2_driver`,
/// `gsl_odeiv2_step_rkf45`): each step keeps its local error within `absoluteTolerance` +
/// `relativeTolerance` |y|.
///
/// The right-hand side may jump where the model switches (a queue filling, a capacity window
/// opening): the step control shrinks its steps there. Where a jump comes at a known time, advance
/// to that time and call ``restart()``, so that no step spans it.
///
/// Not `Sendable`: one integrator, one thread. The same inputs give the same numbers.
public final class ODEIntegrator {
    /// The right-hand side: fills `derivative` (of `dimension` values) with f(t, y).
    public typealias RightHandSide = (
        _ t: Double, _ y: UnsafeBufferPointer<Double>, _ derivative: UnsafeMutableBufferPointer<Double>
    ) -> Void

    public let dimension: Int
    private let rightHandSide: RightHandSide
    private let system: UnsafeMutablePointer<gsl_odeiv2_system>
    private let driver: UnsafeMutablePointer<gsl_odeiv2_driver>
    /// Right-hand sides evaluated so far.
    public private(set) var evaluations = 0

    /// The most steps one ``advance(_:from:to:)`` may take before it gives up, unless the
    /// integrator is given its own.
    public static let maximumSteps = 10_000_000

    /// - Parameters:
    ///   - dimension: the number of equations (and of values in a state).
    ///   - absoluteTolerance: the error allowed in each value of a step, besides the relative one.
    ///   - relativeTolerance: the error allowed in each value of a step, as a share of the value.
    ///   - initialStep: the first step tried (the control adapts it at once).
    ///   - maximumSteps: the most steps one ``advance(_:from:to:)`` may take.
    ///   - rightHandSide: f(t, y), written into the derivative it is given.
    /// - Throws: ``StochasticsError/allocationFailed(_:)`` when GSL cannot allocate the driver.
    public init(
        dimension: Int, absoluteTolerance: Double, relativeTolerance: Double, initialStep: Double,
        maximumSteps: Int = ODEIntegrator.maximumSteps, _ rightHandSide: @escaping RightHandSide
    ) throws(StochasticsError) {
        precondition(dimension > 0, "a system has at least one equation")
        precondition(absoluteTolerance >= 0 && relativeTolerance >= 0 && initialStep > 0, "tolerances and step")
        GSL.prepare()
        self.dimension = dimension
        self.rightHandSide = rightHandSide
        system = .allocate(capacity: 1)
        system.initialize(
            to: gsl_odeiv2_system(function: nil, jacobian: nil, dimension: dimension, params: nil))
        guard
            let driver = gsl_odeiv2_driver_alloc_y_new(
                system, cgsl_odeiv2_rkf45(), initialStep, absoluteTolerance, relativeTolerance)
        else {
            system.deallocate()
            throw .allocationFailed("an ODE driver of \(dimension) equations")
        }
        self.driver = driver
        gsl_odeiv2_driver_set_nmax(driver, UInt(max(1, maximumSteps)))
        // The driver keeps `system`'s address: its callback finds this integrator through `params`,
        // which the integrator outlives (the driver is freed in deinit).
        system.pointee.params = Unmanaged.passUnretained(self).toOpaque()
        system.pointee.function = { t, y, derivative, parameters in
            let integrator = Unmanaged<ODEIntegrator>.fromOpaque(parameters!).takeUnretainedValue()
            integrator.evaluations += 1
            let n = integrator.dimension
            integrator.rightHandSide(
                t, UnsafeBufferPointer(start: y, count: n), UnsafeMutableBufferPointer(start: derivative, count: n))
            return Int32(GSL_SUCCESS)
        }
    }

    deinit {
        gsl_odeiv2_driver_free(driver)
        system.deallocate()
    }

    /// Advances `y`, the state at `start`, to the state at `end` (> `start`).
    /// - Throws: ``StochasticsError/gsl(function:status:reason:)`` when the step control cannot
    ///   meet the tolerances (its step fell below GSL's least) or takes more than its most steps.
    public func advance(_ y: inout [Double], from start: Double, to end: Double) throws(StochasticsError) {
        precondition(y.count == dimension, "a state of \(dimension) values")
        guard end > start else { return }
        var t = start
        let status = y.withUnsafeMutableBufferPointer { gsl_odeiv2_driver_apply(driver, &t, end, $0.baseAddress) }
        try GSL.check(status, "gsl_odeiv2_driver_apply")
    }

    /// Forgets the step history, so the next ``advance(_:from:to:)`` starts afresh: after a jump
    /// of the right-hand side at a known time, or a change of `y` made by hand.
    public func restart() {
        gsl_odeiv2_driver_reset(driver)
    }
}
