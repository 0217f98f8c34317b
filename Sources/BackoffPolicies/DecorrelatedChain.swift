/// The four decorrelated chains: the window's floor (b, or the previous wait) and the cap rule.
struct DecorrelatedChain: Hashable {
    /// The window's floor is b (AWS); otherwise the previous wait (Finagle's monotone mode).
    let floorsAtBase: Bool
    /// The draw is clamped to c (`clamp`); otherwise the window's top is capped (`nominal`).
    let clamps: Bool

    /// The 2015 post's chain, min(c, U(b, r s)).
    static let awsClamped = DecorrelatedChain(floorsAtBase: true, clamps: true)
}
