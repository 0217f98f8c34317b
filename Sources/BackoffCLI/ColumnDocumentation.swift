/// A column's name and meaning, as help and the data dictionary show them, and whether it
/// describes a row's parameters (what `check --baseline` matches rows by) rather than measures.
struct ColumnDocumentation: Sendable, Equatable {
    let name: String
    let meaning: String
    var describesParameter = false
    /// Whether its cells are words rather than numbers (JSON writes them as strings).
    var holdsText = false
}
