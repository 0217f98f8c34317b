/// A named set of a table's columns for `--columns @NAME`: picked by a rule on the column's name
/// (or its declaration), so that every table, a sweep's and a search's included, has the groups
/// its columns fall in.
enum ColumnGroup: String, CaseIterable, Sendable {
    /// Total waits and single waits: every column whose name holds `wait`.
    case waits
    /// Load per bucket: every column whose name holds `load` or `peak_` (a peak's time), and `bucket_s`.
    case load
    /// Closed forms: the `formula_` columns.
    case formula
    /// The fluid model's answers: the `fluid_` columns.
    case fluid
    /// Standard errors: the `se_` columns.
    case se
    /// What the row was run with (its policy, scenario, seed), as `check --baseline` matches rows:
    /// the columns declared to describe parameters, a sweep's varied options and `point_id`.
    case parameters

    /// One line for help.
    var meaning: String {
        switch self {
        case .waits: "columns whose name holds 'wait'"
        case .load: "columns whose name holds 'load' or 'peak_', and bucket_s"
        case .formula: "the formula_ columns"
        case .fluid: "the fluid_ columns"
        case .se: "the se_ (standard error) columns"
        case .parameters: "the columns that describe a row's parameters (policy, scenario, seed, point_id)"
        }
    }

    /// Whether the column `name` belongs to the group; `parameters` are the table's declared
    /// parameter columns.
    func contains(_ name: String, parameters: Set<String>) -> Bool {
        switch self {
        case .waits: name.contains("wait")
        case .load: name.contains("load") || name.contains("peak_") || name == "bucket_s"
        case .formula: name.hasPrefix("formula_")
        case .fluid: name.hasPrefix("fluid_")
        case .se: name.hasPrefix("se_")
        case .parameters: parameters.contains(name) || name.hasPrefix("sweep_") || name == "point_id"
        }
    }
}
