internal import CGSL

/// Derivative-free minimisation of a function of a few real variables with GSL's Nelder-Mead simplex
/// (`gsl_multimin_fminimizer_nmsimplex2`), for tuning a policy whose every evaluation is a simulation.
public enum SimplexMinimizer {
    /// The best point found and its value, and the evaluations made.
    public struct Result: Sendable {
        public let x: [Double]
        public let value: Double
        public let evaluations: Int
    }

    /// Minimises `f` from `start`, with an initial simplex of `step` along each axis, until the
    /// simplex's size falls below `tolerance` or `maxIterations` iterations have run. `f` should
    /// return a finite value (a large one for an infeasible point).
    public static func minimize(
        start: [Double], step: [Double], tolerance: Double = 1e-3, maxIterations: Int = 40, _ f: ([Double]) -> Double
    ) throws(StochasticsError) -> Result {
        precondition(!start.isEmpty && start.count == step.count, "one step per coordinate")
        GSL.prepare()
        let n = start.count
        return try withoutActuallyEscaping(f) { (f) throws(StochasticsError) -> Result in
            final class Box {
                let f: ([Double]) -> Double
                var evaluations = 0
                init(_ f: @escaping ([Double]) -> Double) { self.f = f }
            }
            let box = Box(f)
            let unmanaged = Unmanaged.passRetained(box)
            defer { unmanaged.release() }
            var function = gsl_multimin_function(
                f: { vector, parameters in
                    let box = Unmanaged<Box>.fromOpaque(parameters!).takeUnretainedValue()
                    let size = vector!.pointee.size
                    let x = (0..<size).map { gsl_vector_get(vector, $0) }
                    box.evaluations += 1
                    let value = box.f(x)
                    return value.isFinite ? value : .greatestFiniteMagnitude
                },
                n: n, params: unmanaged.toOpaque())
            guard let x = gsl_vector_alloc(n), let steps = gsl_vector_alloc(n),
                let minimizer = gsl_multimin_fminimizer_alloc(cgsl_multimin_nmsimplex2(), n)
            else {
                throw .gsl(
                    function: "gsl_multimin_fminimizer_alloc", status: Int32(GSL_ENOMEM), reason: "out of memory")
            }
            defer {
                gsl_multimin_fminimizer_free(minimizer)
                gsl_vector_free(x)
                gsl_vector_free(steps)
            }
            for i in 0..<n {
                gsl_vector_set(x, i, start[i])
                gsl_vector_set(steps, i, step[i])
            }
            try GSL.check(gsl_multimin_fminimizer_set(minimizer, &function, x, steps), "gsl_multimin_fminimizer_set")
            for _ in 0..<maxIterations {
                guard gsl_multimin_fminimizer_iterate(minimizer) == GSL_SUCCESS else { break }
                if gsl_multimin_test_size(gsl_multimin_fminimizer_size(minimizer), tolerance) == GSL_SUCCESS { break }
            }
            let best = (0..<n).map { gsl_vector_get(minimizer.pointee.x, $0) }
            return Result(x: best, value: minimizer.pointee.fval, evaluations: box.evaluations)
        }
    }
}
