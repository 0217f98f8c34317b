import Stochastics

/// `tune --constraint 'COLUMN<=VALUE'`: a bound on a numeric column of simulate.
extension SearchConstraint {
    /// `COLUMN<=VALUE` or `COLUMN>=VALUE`, with a numeric simulate column and a finite bound.
    init(parsing text: String) throws(InvalidValue) {
        let atMost = text.contains("<=")
        let parts = text.components(separatedBy: atMost ? "<=" : ">=")
        guard parts.count == 2, atMost || text.contains(">="), let bound = ValueParser.number(parts[1]),
            bound.isFinite
        else { throw InvalidValue() }
        self.init(try TuneCommand.numericColumn(parts[0]), atMost: atMost, bound: bound)
    }

    /// The constraint as `--constraint` takes it.
    var text: String { "\(measure)\(atMost ? "<=" : ">=")\(CSVFormat.number(bound))" }
}
