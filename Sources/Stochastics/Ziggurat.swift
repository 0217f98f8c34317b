internal import CGSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A generator GSL's ziggurat can draw from in Swift: 32-bit outputs over the full range (minimum
/// 0, maximum 2^32 − 1, as `taus2` and `mt19937` have) and uniforms that are output / 2^32.
public protocol FullRangeGenerator {
    /// The next 32-bit output, as `gsl_rng_get`.
    mutating func next() -> UInt32
    /// A uniform draw in [0, 1), as `gsl_rng_uniform`.
    mutating func uniform() -> Double
}

extension Taus2: FullRangeGenerator {}
extension MersenneTwister: FullRangeGenerator {}

/// GSL's normal draw, `gsl_ran_gaussian_ziggurat`, in Swift, so a hot loop inlines it instead of
/// calling GSL through its generator's function pointers.
///
/// The algorithm is Marsaglia and Tsang's ziggurat ("The Ziggurat Method for Generating Random
/// Variables", J. Stat. Softw. 5, 2000) as GSL shapes it: 128 strips of equal area, the base strip's
/// tail sampled from the exponential wedge exp(−R(x − R/2)) beyond R = 3.44428647676. One 32-bit
/// output picks a strip (its low 7 bits), a sign (bit 7) and a 24-bit position j; x = j·w_i is
/// accepted at once when j < k_i (inside the strip's rectangle), otherwise by comparing a height
/// y between the strip's edges y_(i+1) and y_i with exp(−x²/2), drawing one more uniform (two in
/// the base strip's tail), and drawing again on rejection.
///
/// The tables (w_i = x_(i+1)/2^24, k_i the acceptance bound, y_i = exp(−x_i²/2)) are GSL's own,
/// read from GSL's code once, through a generator whose outputs are chosen: w_i is what GSL
/// returns for j = 1 in strip i, k_i the least j that makes it draw a uniform, and y_i, y_(i+1)
/// the line through the points where its decision on a height flips. So every draw is
/// bit-identical to GSL's for the same generator state (tested on 10^7 draws of `taus2` and of
/// `mt19937`, call by call); GSL stays the reference, and every other distribution is still drawn
/// by GSL.
public struct Ziggurat: @unchecked Sendable {
    /// GSL's tables, read once.
    public static let gsl = Ziggurat(tables: tablesFromGSL())

    /// GSL's `PARAM_R`, where the base strip's rectangle ends.
    static let r = 3.44428647676

    /// The tables, in memory of their own for the draw (no bounds checks, no reference counting,
    /// a value of three pointers): allocated once per value and never freed (``gsl`` lives as long
    /// as the program).
    @usableFromInline let k: UnsafePointer<UInt32>, w: UnsafePointer<Double>
    let y: UnsafePointer<Double>

    /// The tables this draws with.
    public var tables: Tables {
        Tables(
            k: Array(UnsafeBufferPointer(start: k, count: 128)), w: Array(UnsafeBufferPointer(start: w, count: 128)),
            y: Array(UnsafeBufferPointer(start: y, count: 128)))
    }

    /// The three tables of 128 entries each, with y's 129th (the base strip's top edge repeated).
    public struct Tables: Sendable, Equatable {
        public var k: [UInt32]
        public var w: [Double]
        public var y: [Double]
    }

    init(tables: Tables) {
        precondition(tables.k.count == 128 && tables.w.count == 128 && tables.y.count == 128)
        func copy<Element>(_ values: [Element]) -> UnsafePointer<Element> {
            let memory = UnsafeMutablePointer<Element>.allocate(capacity: values.count)
            memory.initialize(from: values, count: values.count)
            return UnsafePointer(memory)
        }
        (k, w, y) = (copy(tables.k), copy(tables.w), copy(tables.y))
    }

    /// A draw of N(0, σ²) from `generator`, as `gsl_ran_gaussian_ziggurat(r, σ)` draws it. The
    /// rectangle's acceptance (about 98.8 % of draws) is inlined into the caller; the wedges and
    /// the tail are not.
    @inlinable @inline(__always)
    public func normal<Generator: FullRangeGenerator>(sigma: Double, using generator: inout Generator) -> Double {
        let word = generator.next()
        let (i, j) = (Int(word & 0x7F), (word >> 8) & 0xFF_FFFF)
        if j < k[i] { return (word & 0x80 != 0 ? sigma : -sigma) * (Double(j) * w[i]) }
        return outsideTheRectangle(word, sigma: sigma, using: &generator)
    }

    /// The rest of a draw whose first output fell outside its strip's rectangle: the wedge's
    /// height test (the base strip's tail for strip 127), and fresh outputs after a rejection.
    @usableFromInline
    func outsideTheRectangle<Generator: FullRangeGenerator>(
        _ first: UInt32, sigma: Double, using generator: inout Generator
    ) -> Double {
        let r = Self.r
        var word = first
        while true {
            let i = Int(word & 0x7F)
            let sign = word & 0x80 != 0 ? sigma : -sigma
            let j = (word >> 8) & 0xFF_FFFF
            var x = Double(j) * w[i]
            if j < k[i] { return sign * x }
            let height: Double
            if i < 127 {
                let (top, bottom) = (y[i], y[i + 1])
                height = bottom + (top - bottom) * generator.uniform()
            } else {
                let u1 = 1.0 - generator.uniform()
                let u2 = generator.uniform()
                x = r - log(u1) / r
                height = exp(-r * (x - 0.5 * r)) * u2
            }
            if height < exp(-0.5 * x * x) { return sign * x }
            word = generator.next()
        }
    }

    // MARK: Reading GSL's tables

    /// GSL's ziggurat tables, read from GSL's code through a scripted generator (see the type's
    /// documentation). A table GSL's code would not reproduce stops the program: every draw of
    /// this type would then be wrong.
    static func tablesFromGSL() -> Tables {
        GSL.prepare()
        var w = [Double](repeating: 0, count: 128)
        var k = [UInt32](repeating: 0, count: 128)
        for i in 0..<128 {
            // j = 1, positive: x = w_i, accepted at once or (strip 0, whose k is 0) by a height of
            // y_(i+1) (the uniform is 0) far below exp(−x²/2) ≈ 1.
            w[i] = GSLProbe.draw(word: 1 << 8 | 0x80 | UInt(i), uniform: 0).value
        }
        // k_i: the least j that needs a uniform, near 2^24 x_i / x_(i+1) (bisected over all j if not).
        for i in 0..<128 {
            func needsUniform(_ j: UInt) -> Bool { GSLProbe.draw(word: j << 8 | 0x80 | UInt(i), uniform: 0).calls > 1 }
            let guess = i == 0 ? 0 : UInt(0x1p24 * w[i - 1] / w[i])
            var (low, high) = (guess >= 8 ? guess - 8 : 0, min(guess + 8, (UInt(1) << 24) - 1))
            if (low > 0 && needsUniform(low - 1)) || !needsUniform(high) { (low, high) = (0, UInt(1) << 24) }
            while low < high {
                let j = (low + high) / 2
                if needsUniform(j) { high = j } else { low = j + 1 }
            }
            k[i] = UInt32(low)
        }
        // The heights: strip i's top y_i and bottom y_(i+1) from where GSL's decision flips.
        var y = [Double](repeating: 1, count: 128)
        for i in 0..<127 {
            let (top, bottom) = heights(strip: i, w: w, k: k)
            precondition(top == y[i], "GSL's ziggurat: strip \(i)'s top \(top) is not strip \(i - 1)'s bottom \(y[i])")
            y[i + 1] = bottom
        }
        return Tables(k: k, w: w, y: y)
    }

    /// `value` to 12 significant digits (as GSL tabulates its heights), as `%.12g` prints it.
    static func roundedTo12Digits(_ value: Double) -> Double { Double(GSLProbe.format12(value))! }

    /// Strip `i`'s top and bottom heights as GSL's code holds them. In the strip's wedge GSL
    /// accepts x = j·w_i when y = y_(i+1) + (y_i − y_(i+1))·U < exp(−x²/2): at two positions j the
    /// uniform U at which it starts to reject is bracketed by bisection to 2^-46, which puts the
    /// line through (U, exp(−x²/2)) to within 1e-15; the two points give y_i and y_(i+1), rounded
    /// to GSL's 12 digits (a grid coarser than that error everywhere: its unit is 1e-14 at the
    /// smallest height), and both must decide as GSL does on each side of its bracket.
    static func heights(strip i: Int, w: [Double], k: [UInt32]) -> (top: Double, bottom: Double) {
        let span = (UInt(1) << 24) - UInt(k[i])
        let points: [(accepts: Double, rejects: Double, curve: Double)] = [span / 4, 3 * span / 4].map {
            let j = UInt(k[i]) + $0
            let x = Double(j) * w[i]
            // Where the line of the heights exp(−x_i²/2), exp(−x_(i+1)²/2) meets the curve: within
            // 1e-7 of GSL's flip, the 12-digit w's errors being about 1e-11 of a height.
            let (top, bottom) = (exp(-0.5 * pow(i == 0 ? 0 : w[i - 1] * 0x1p24, 2)), exp(-0.5 * pow(w[i] * 0x1p24, 2)))
            let (accepts, rejects) = gslFlip(
                strip: i, position: j, near: (exp(-0.5 * x * x) - bottom) / (top - bottom))
            return (accepts, rejects, exp(-0.5 * x * x))
        }
        let (a, b) = (points[0], points[1])
        let (ua, ub) = ((a.accepts + a.rejects) / 2, (b.accepts + b.rejects) / 2)
        let slope = (a.curve - b.curve) / (ua - ub)
        let bottom = roundedTo12Digits(a.curve - slope * ua)
        let top = i == 0 ? 1 : roundedTo12Digits(a.curve - slope * ua + slope)
        for point in points {
            let decides =
                bottom + (top - bottom) * point.rejects >= point.curve
                && bottom + (top - bottom) * point.accepts < point.curve
            precondition(decides, "GSL's ziggurat: strip \(i)'s heights do not decide as GSL's")
        }
        return (top, bottom)
    }

    /// A bracket [accepts, rejects] of width below 2^-46 around the uniform at which GSL starts to
    /// reject the height for position `j` of strip `i` (it accepts at the first, rejects at the
    /// second), bisected from 1e-7 around `guess` (from [0, 1) when the flip is not there).
    static func gslFlip(strip i: Int, position j: UInt, near guess: Double) -> (accepts: Double, rejects: Double) {
        let word = j << 8 | 0x80 | UInt(i)
        func rejects(_ u: Double) -> Bool { GSLProbe.draw(word: word, uniform: u).calls > 2 }
        var (low, high) = (max(0, guess - 1e-7), min(1.0.nextDown, guess + 1e-7))
        if rejects(low) || !rejects(high) { (low, high) = (0, 1.0.nextDown) }
        precondition(!rejects(low) && rejects(high), "GSL's ziggurat: no flip in strip \(i) at \(j)")
        while high - low > 0x1p-46 {
            let middle = (low + high) / 2
            if rejects(middle) { high = middle } else { low = middle }
        }
        return (low, high)
    }
}

/// One call of GSL's `gsl_ran_gaussian_ziggurat` (σ = 1) on a scripted generator.
enum GSLProbe {
    /// What GSL returns when its first output is `word` and its first uniform `uniform` (then 0,
    /// and 0.5), and how many outputs and uniforms it took (a rejected draw takes another word).
    static func draw(word: UInt, uniform: Double) -> (value: Double, calls: Int) {
        var (word, uniform) = (word, uniform)
        return withUnsafePointer(to: &word) { word in
            withUnsafePointer(to: &uniform) { uniform in
                var state = cgsl_script_state(
                    words: word, word_count: 1, next_word: 0, doubles: uniform, double_count: 1, next_double: 0,
                    calls: 0)
                return withUnsafeMutablePointer(to: &state) { state in
                    var generator = gsl_rng(type: cgsl_rng_script(), state: UnsafeMutableRawPointer(state))
                    let value = gsl_ran_gaussian_ziggurat(&generator, 1)
                    return (value, Int(state.pointee.calls))
                }
            }
        }
    }

    /// `value` printed with `%.12g`.
    static func format12(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([value]) { vsnprintf(&buffer, 64, "%.12g", $0) }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
