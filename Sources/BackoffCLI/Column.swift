import BackoffPolicies

/// One CSV column: its name, what it means, and how its value is written from a row's `Source`.
/// A table's header, its rows, `backoff help <command>` and the data dictionary's column table all come
/// from one list of these, so they cannot drift apart. New columns go at the end of a list.
struct Column<Source>: Sendable {
    let name: String
    /// One line for help and the data dictionary: what the column holds, with its unit.
    let meaning: String
    let value: @Sendable (Source) -> String
    /// The policy parameters whose value the column reports (a row's policy error names it).
    private(set) var policyParameters: [PolicyParameter] = []
    /// For a column declared with the kind of value it holds (``TypedColumn``): a cell read back as
    /// that value and written again, or `nil` when the cell holds no such value. A table's cells
    /// read back as themselves (tested for every command); `nil` for the other columns.
    private(set) var rewrite: (@Sendable (String) -> String?)?
    /// True for a column whose cells are words rather than numbers (`jitter`, `server`...): no
    /// objective or constraint of `tune`, and no measurement for `check`.
    private(set) var holdsText = false
    /// True for a column that describes the row's parameters (its policy, scenario or run) rather
    /// than measures something: `check --baseline` matches rows by these.
    private(set) var describesParameter = false

    init(_ name: String, _ meaning: String, _ value: @escaping @Sendable (Source) -> String) {
        self.name = name
        self.meaning = meaning
        self.value = value
    }

    /// The column as the one that reports `parameters` of a row's policy.
    func reporting(_ parameters: PolicyParameter...) -> Column { reporting(parameters) }

    /// The column as the one that reports `parameters` of a row's policy.
    func reporting(_ parameters: [PolicyParameter]) -> Column {
        var column = self
        column.policyParameters = parameters
        return column
    }

    /// The column as one that reads its cells back through `rewrite` (see ``rewrite``).
    func rereading(_ rewrite: @escaping @Sendable (String) -> String?) -> Column {
        var column = self
        column.rewrite = rewrite
        return column
    }

    /// The column as one whose cells are words rather than numbers.
    func holdingText() -> Column {
        var column = self
        column.holdsText = true
        return column
    }

    /// The column as one that describes the row's parameters.
    func parameter() -> Column {
        var column = self
        column.describesParameter = true
        return column
    }

    /// The same column over rows of another kind, each written from what `source` takes of it.
    func reading<Row>(_ source: @escaping @Sendable (Row) -> Source) -> Column<Row> {
        let value = value
        var column = Column<Row>(name, meaning) { value(source($0)) }
        (column.policyParameters, column.rewrite) = (policyParameters, rewrite)
        (column.holdsText, column.describesParameter) = (holdsText, describesParameter)
        return column
    }

    /// The column as documentation: its name and meaning.
    var documentation: ColumnDocumentation {
        ColumnDocumentation(
            name: name, meaning: meaning, describesParameter: describesParameter, holdsText: holdsText)
    }
}

extension Array {
    /// The header row of these columns.
    func header<Source>() -> [String] where Element == Column<Source> { map(\.name) }

    /// The row these columns write for `source`.
    func row<Source>(_ source: Source) -> [String] where Element == Column<Source> { map { $0.value(source) } }
}
