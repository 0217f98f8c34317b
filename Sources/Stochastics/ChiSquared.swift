internal import CGSL

/// The chi-squared distribution with k degrees of freedom: the law of a sum of k squared standard
/// normals, and of (n − 1)s²/σ² for a normal sample of n. Tests use its quantiles to check a set of
/// standard errors against the spread they claim to measure.
public enum ChiSquared {
    /// The quantile x with P(X ≤ x) = `probability`, for `degreesOfFreedom` > 0 and a probability in
    /// [0, 1]. Backed by `gsl_cdf_chisq_Pinv`.
    public static func quantile(_ probability: Double, degreesOfFreedom: Double) -> Double {
        precondition((0...1).contains(probability) && degreesOfFreedom > 0, "a probability in [0, 1] and k > 0")
        GSL.prepare()
        return gsl_cdf_chisq_Pinv(probability, degreesOfFreedom)
    }
}
