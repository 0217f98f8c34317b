import Stochastics

/// The layer behaviours there are: a new one is its own file and one line here.
public enum LayerBehaviours {
    /// Every layer setting, in the order a layer's behaviours are consulted.
    public static let registered: [any LayerSetting.Type] = [
        ConcurrencyCap.self,
        ConcurrencyLimit.self,
    ]

    /// The behaviours a layer's settings make, in the order of ``registered``, the k-th of layer
    /// `index` seeded with stream 2^41 + 256 `index` + k of the run's `seed` (beyond the clients'
    /// streams and the layers' own).
    static func behaviours(of layer: ServiceLayer, index: Int, seed: UInt64) -> [any LayerBehaviour] {
        layer.settings.enumerated().map { k, setting in
            setting.makeBehaviour(
                seed: SeedDerivation.streamSeed(root: seed, stream: (1 << 41) + 256 * UInt64(index) + UInt64(k)))
        }
    }
}
