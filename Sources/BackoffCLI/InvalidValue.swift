/// Why a value does not parse: `detail` says what is wrong beyond the option's form, if anything.
struct InvalidValue: Error {
    let detail: String?

    init(_ detail: String? = nil) { self.detail = detail }
}
