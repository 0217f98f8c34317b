internal import CYAML

/// A YAML (or JSON) document as a tree, read with libyaml: mappings keep their keys' order, and
/// every node knows its line, so that an error names where it is.
public indirect enum YAMLNode: Sendable, Equatable {
    /// A scalar's text as written, and whether it was quoted (a quoted `"3"` is a string).
    case scalar(String, quoted: Bool, line: Int)
    case sequence([YAMLNode], line: Int)
    /// Keys in the order written.
    case mapping([(key: String, value: YAMLNode)], line: Int)

    /// A file libyaml cannot read, or one beyond what a config file needs.
    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The deepest nesting read (a config file needs a dozen levels; a deeper one is refused rather
    /// than walked).
    public static let depthLimit = 64
    /// The most nodes a file may hold once its aliases are expanded (a "billion laughs" file
    /// expands a few lines into billions).
    public static let nodeLimit = 1_000_000

    /// The line (1-based) the node starts on.
    public var line: Int {
        switch self {
        case .scalar(_, _, let line), .sequence(_, let line), .mapping(_, let line): line
        }
    }

    /// The value under `key` of a mapping; `nil` for another node or a missing key.
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The documents of `bytes` (UTF-8 YAML, or JSON), each a tree; an empty document is omitted.
    /// - Throws: ``Malformed`` with libyaml's problem and its line, a key that is not a scalar, a
    ///   repeated key, or a file deeper or larger than ``depthLimit`` and ``nodeLimit``.
    public static func documents(_ bytes: [UInt8]) throws(Malformed) -> [YAMLNode] {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw Malformed(description: "libyaml could not start") }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeBufferPointer { buffer throws(Malformed) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = Builder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "unreadable"
                    throw Malformed(description: "line \(parser.problem_mark.line + 1): \(problem)")
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return builder.documents }
                try builder.take(event)
            }
        }
    }

    /// Builds trees from libyaml's events, without recursion.
    private struct Builder {
        /// An open sequence or mapping: its line, anchor, items, and for a mapping the key read.
        struct Open {
            let isMapping: Bool
            let line: Int
            let anchor: String?
            var items: [YAMLNode] = []
            var members: [(key: String, value: YAMLNode)] = []
            var key: String?
            var size = 1
        }

        var documents: [YAMLNode] = []
        var stack: [Open] = []
        var anchors: [String: (node: YAMLNode, size: Int)] = [:]
        var total = 0

        mutating func take(_ event: yaml_event_t) throws(Malformed) {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                guard stack.count < YAMLNode.depthLimit else {
                    throw Malformed(description: "line \(line): nested deeper than \(YAMLNode.depthLimit) levels")
                }
                let anchor =
                    event.type == YAML_SEQUENCE_START_EVENT
                    ? event.data.sequence_start.anchor.map { String(cString: $0) }
                    : event.data.mapping_start.anchor.map { String(cString: $0) }
                stack.append(Open(isMapping: event.type == YAML_MAPPING_START_EVENT, line: line, anchor: anchor))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let open = stack.removeLast()
                let node: YAMLNode =
                    open.isMapping ? .mapping(open.members, line: open.line) : .sequence(open.items, line: open.line)
                try add(node, size: open.size, anchor: open.anchor, line: open.line)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text =
                    scalar.value.map { pointer in
                        String(decoding: UnsafeBufferPointer(start: pointer, count: scalar.length), as: UTF8.self)
                    } ?? ""
                let quoted = scalar.style != YAML_PLAIN_SCALAR_STYLE && scalar.style != YAML_ANY_SCALAR_STYLE
                try add(
                    .scalar(text, quoted: quoted, line: line), size: 1,
                    anchor: scalar.anchor.map { String(cString: $0) },
                    line: line)
            case YAML_ALIAS_EVENT:
                let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                guard let anchored = anchors[name] else {
                    throw Malformed(description: "line \(line): the alias *\(name) names no anchor before it")
                }
                try add(anchored.node, size: anchored.size, anchor: nil, line: line)
            default: break
            }
        }

        /// Places a finished node in the open collection, or as a document.
        private mutating func add(_ node: YAMLNode, size: Int, anchor: String?, line: Int) throws(Malformed) {
            total += size
            guard total <= YAMLNode.nodeLimit else {
                throw Malformed(description: "line \(line): more than \(YAMLNode.nodeLimit) nodes once aliases expand")
            }
            if let anchor { anchors[anchor] = (node, size) }
            guard !stack.isEmpty else {
                if node != .scalar("", quoted: false, line: line) { documents.append(node) }
                anchors = [:]
                return
            }
            stack[stack.count - 1].size += size
            if stack[stack.count - 1].isMapping {
                if let key = stack[stack.count - 1].key {
                    guard !stack[stack.count - 1].members.contains(where: { $0.key == key }) else {
                        throw Malformed(description: "line \(line): the key '\(key)' appears twice in one mapping")
                    }
                    stack[stack.count - 1].members.append((key, node))
                    stack[stack.count - 1].key = nil
                } else {
                    guard case .scalar(let key, _, _) = node else {
                        throw Malformed(description: "line \(line): a mapping's key must be a scalar")
                    }
                    stack[stack.count - 1].key = key
                }
            } else {
                stack[stack.count - 1].items.append(node)
            }
        }
    }

    public static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a, let aq, _), .scalar(let b, let bq, _)): a == b && aq == bq
        case (.sequence(let a, _), .sequence(let b, _)): a == b
        case (.mapping(let a, _), .mapping(let b, _)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }
}
