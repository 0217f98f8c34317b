/// A value the command line reads from one argument and writes back in the same form, as
/// swift-argument-parser's `ExpressibleByArgument` does. The option, a layer's `key=value`, a CSV
/// column (``CellCodec/init(_:unreadable:)``) and `check`'s reader all go through one codec, and printing a
/// value then parsing the text gives the value back (a seeded property test for each codec).
protocol ArgumentCodec: SendableMetatype {
    associatedtype Value: Sendable

    /// The accepted form, for messages and help.
    static var form: String { get }

    /// The value `text` names.
    /// - Throws: an ``InvalidValue`` whose detail names the bad part and what it takes.
    static func parse(_ text: String) throws(InvalidValue) -> Value

    /// The value in the form ``parse(_:)`` reads.
    static func print(_ value: Value) -> String
}

extension ArgumentCodec {
    /// The value `text` names, or `nil` when it names none (not `try?`, which would flatten an
    /// optional value's `none` into a failure).
    static func value(_ text: String) -> Value? {
        do { return .some(try parse(text)) } catch { return nil }
    }
}

extension CellCodec {
    /// The cells of a column that holds values of `codec`'s, as its option takes them.
    init<Codec: ArgumentCodec>(_ codec: Codec.Type, unreadable: String) where Codec.Value == Value {
        self.init(unreadable, write: { Codec.print($0) }, read: { Codec.value($0) })
    }
}
