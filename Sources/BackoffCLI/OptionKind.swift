import RetrySimulation

/// The kind of text an option takes.
enum OptionKind: Sendable, Equatable {
    /// No value: on when given.
    case flag
    /// A duration with a unit (a sweep writes it in seconds, `none` as `inf`, and ranges it).
    case duration
    /// A decimal number (a sweep ranges it).
    case number
    /// A whole number (a sweep ranges it).
    case count
    /// A server model (a sweep writes its canonical text).
    case serverModel
    /// Anything else: a name, a list, a file, a spec.
    case text
}

extension OptionKind {
    /// The kind of a layer setting's key, so that a search ranges it as an option of that kind.
    init(_ kind: LayerValueKind) {
        switch kind {
        case .count: self = .count
        case .number: self = .number
        case .duration: self = .duration
        case .text: self = .text
        }
    }
}
