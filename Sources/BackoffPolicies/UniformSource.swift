/// A source of independent uniform draws in [0, 1).
///
/// This is the only way randomness reaches a policy: the GSL generator of the `Stochastics` module
/// conforms to it, and tests may pass a scripted source.
public protocol UniformSource {
    /// The next draw, uniform on [0, 1).
    mutating func nextUniform() -> Double
}
