import BackoffPolicies

/// A column declared once with the kind of value it holds (its ``CellCodec``): the writer of every
/// table that has it, `check`'s reader, help and the data dictionary all come from this one
/// declaration. Each describes a row's parameters (a policy's or a scenario's), which
/// `check --baseline` matches rows by.
struct TypedColumn<Value>: Sendable {
    let name: String
    /// One line for help and the data dictionary: what the column holds, with its unit.
    let meaning: String
    let codec: CellCodec<Value>
    /// The policy parameters whose value the column reports (a row's policy error names it).
    let policyParameters: [PolicyParameter]

    init(_ name: String, _ meaning: String, _ codec: CellCodec<Value>, reporting parameters: PolicyParameter...) {
        self.name = name
        self.meaning = meaning
        self.codec = codec
        policyParameters = parameters
    }

    /// The column of a table whose rows are `Source`s, writing `value` of each.
    func column<Source>(_ value: @escaping @Sendable (Source) -> Value) -> Column<Source> {
        let (write, read) = (codec.write, codec.read)
        let column = Column(name, meaning) { write(value($0)) }.reporting(policyParameters)
            .rereading { text in (try? read(text)).map(write) }.parameter()
        return codec.holdsNumbers ? column : column.holdingText()
    }

    /// The value in `record`, or `nil` when `table` has no such column.
    /// - Throws: a ``RowPolicy/Problem`` naming the column when its cell holds no value of its kind.
    func read(_ record: [String], in table: CSVReader) throws(RowPolicy.Problem) -> Value? {
        guard let index = table.column(name) else { return nil }
        do {
            return try codec.read(record[index])
        } catch {
            throw RowPolicy.Problem(column: name, value: record[index], reason: error.reason)
        }
    }
}
