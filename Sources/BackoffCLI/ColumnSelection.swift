/// `--columns a,@group,b`: which of a table's columns to print, in which order. A name picks its
/// column; `@group` picks the group's columns in the table's order (see ``ColumnGroup``); a column
/// picked twice is printed once, where it was first picked.
struct ColumnSelection: Sendable, Equatable {
    /// One item of the list.
    enum Item: Sendable, Equatable {
        case column(String)
        case group(ColumnGroup)
    }

    let items: [Item]

    /// The accepted form, quoted in errors.
    static let form =
        "a comma-separated list of column names and groups ("
        + ColumnGroup.allCases.map { "@\($0.rawValue)" }.joined(separator: ", ") + "), e.g. jitter,@waits"

    /// Reads the list; an empty item or an unknown group is an error.
    static func parse(_ text: String) throws(InvalidValue) -> ColumnSelection {
        var items: [Item] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(part)
            guard !name.isEmpty else { throw InvalidValue("a column name is empty") }
            if name.hasPrefix("@") {
                let groupName = String(name.dropFirst())
                guard !groupName.isEmpty else { throw InvalidValue("a group name after '@' is empty") }
                guard let group = ColumnGroup(rawValue: groupName) else {
                    let hint = Suggestion.closest(to: groupName, among: ColumnGroup.allCases.map(\.rawValue))
                    throw InvalidValue("no column group '\(name)'" + (hint.map { ": did you mean '@\($0)'?" } ?? ""))
                }
                items.append(.group(group))
            } else {
                items.append(.column(name))
            }
        }
        return ColumnSelection(items: items)
    }

    /// The positions in `header` of the columns picked, in the order picked.
    /// - Throws: a message naming a column `header` lacks, or a group none of its columns is in.
    func positions(in header: [String], parameters: Set<String>) throws(InvalidValue) -> [Int] {
        var positions: [Int] = []
        var picked = Set<Int>()
        func pick(_ position: Int) {
            if picked.insert(position).inserted { positions.append(position) }
        }
        for item in items {
            switch item {
            case .column(let name):
                guard let position = header.firstIndex(of: name) else {
                    let hint = Suggestion.closest(to: name, among: header).map { " (did you mean '\($0)'?)" } ?? ""
                    throw InvalidValue("the table has no column '\(name)'\(hint)")
                }
                pick(position)
            case .group(let group):
                let members = header.indices.filter { group.contains(header[$0], parameters: parameters) }
                guard !members.isEmpty else { throw InvalidValue("no column of the table is in '@\(group.rawValue)'") }
                members.forEach(pick)
            }
        }
        return positions
    }
}
