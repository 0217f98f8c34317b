internal import CGSL

/// The GSL generator algorithms that can be chosen by name.
public enum GeneratorAlgorithm: String, CaseIterable, Hashable, Sendable {
    /// Mersenne Twister MT19937 (Matsumoto & Nishimura 1998), the default. Backed by `gsl_rng_mt19937`.
    case mt19937
    /// Maximally equidistributed combined Tausworthe generator (L'Ecuyer 1996): small state, fast.
    /// Backed by `gsl_rng_taus2`.
    case taus2
    /// RANLUX double precision at luxury level 2 (Lüscher 1994): slow, of the highest quality.
    /// Backed by `gsl_rng_ranlxd2`.
    case ranlxd2

    /// The documented default.
    public static let standard = GeneratorAlgorithm.mt19937

    var gslType: UnsafePointer<gsl_rng_type> {
        switch self {
        case .mt19937: cgsl_rng_mt19937()
        case .taus2: cgsl_rng_taus2()
        case .ranlxd2: cgsl_rng_ranlxd2()
        }
    }
}
