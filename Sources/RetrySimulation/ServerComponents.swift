/// The server models declared as components: a new one is its own file and one line here.
public enum ServerComponents {
    /// Every component, in the order the help lists them (after the models not yet declared as
    /// components).
    public static let registered: [any ServerComponent.Type] = [
        RateLimit.self,
        DeadlineServer.self,
    ]

    /// The component `--server` names `name`, if any.
    public static func named(_ name: String) -> (any ServerComponent.Type)? {
        registered.first { $0.name == name }
    }
}
