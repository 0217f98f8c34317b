/// A column's name and meaning, as help and the data dictionary show them.
struct ColumnDocumentation: Sendable, Equatable {
    let name: String
    let meaning: String
}
