/// The layer behaviours there are: a new one is its own file and one line here.
public enum LayerBehaviours {
    /// Every layer setting, in the order a layer's behaviours are consulted.
    public static let registered: [any LayerSetting.Type] = [
        ConcurrencyCap.self,
        ConcurrencyLimit.self,
    ]

    /// The behaviours a layer's settings make, in the order of ``registered``.
    static func behaviours(of layer: ServiceLayer) -> [any LayerBehaviour] {
        layer.settings.map { $0.makeBehaviour() }
    }
}
