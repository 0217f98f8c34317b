import Foundation

/// Reading the JSON values of a service config: each failure names the field and the form it expects.
extension GrpcServiceConfig {
    /// The `name` list of a method config: each entry {"service": S, "method": M}, either optional.
    static func names(_ value: Any?, at path: String) throws(Invalid) -> [(
        service: String?, method: String?
    )] {
        guard let value else { return [] }
        guard let list = value as? [Any] else { throw Invalid("\(path): expected a list, got \(describe(value))") }
        var names: [(service: String?, method: String?)] = []
        for (index, entry) in list.enumerated() {
            guard let object = entry as? [String: Any] else {
                throw Invalid(
                    "\(path)[\(index)]: expected an object with service and method, got \(describe(entry))")
            }
            let service = object["service"].flatMap { $0 as? String }.flatMap { $0.isEmpty ? nil : $0 }
            let method = object["method"].flatMap { $0 as? String }.flatMap { $0.isEmpty ? nil : $0 }
            if object["service"] != nil && !(object["service"] is String) {
                throw Invalid("\(path)[\(index)].service: expected a string, got \(describe(object["service"]!))")
            }
            if object["method"] != nil && !(object["method"] is String) {
                throw Invalid("\(path)[\(index)].method: expected a string, got \(describe(object["method"]!))")
            }
            names.append((service, method))
        }
        return names
    }

    static func number(_ value: Any?, at path: String, form: String) throws(Invalid) -> Double {
        guard let value else { throw Invalid("\(path) is missing; expected \(form)") }
        guard let number = value as? NSNumber, !isBoolean(number) else {
            throw Invalid("\(path): expected \(form), got \(describe(value))")
        }
        guard number.doubleValue.isFinite else {
            throw Invalid("\(path): expected \(form), got \(describe(value))")
        }
        return number.doubleValue
    }

    static func integer(_ value: Any?, at path: String, form: String) throws(Invalid) -> Int {
        let number = try number(value, at: path, form: form)
        guard number == number.rounded(), abs(number) < 1e9 else {
            throw Invalid("\(path): expected \(form), got \(text(number))")
        }
        return Int(number)
    }

    /// A protobuf JSON duration: decimal seconds with an `s` suffix ("0.1s", "2s"), greater than 0.
    static func duration(_ value: Any?, at path: String) throws(Invalid) -> Duration {
        let form = "a duration string in seconds greater than 0, e.g. \"0.1s\""
        guard let value else { throw Invalid("\(path) is missing; expected \(form)") }
        guard let text = value as? String else {
            throw Invalid("\(path): expected \(form), got \(describe(value))")
        }
        let digits = text.dropLast()
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard text.hasSuffix("s"), (1...2).contains(parts.count), !parts[0].isEmpty,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            parts.count == 1 || (1...9).contains(parts[1].count),
            let seconds = Double(digits), seconds > 0
        else { throw Invalid("\(path): expected \(form), got \(describe(value))") }
        // Whole seconds, then at most 9 decimals: an exact number of nanoseconds, up to 2^62 (the
        // horizon of virtual time, and of every span a policy takes).
        let fraction = parts.count == 2 ? parts[1] + String(repeating: "0", count: 9 - parts[1].count) : "0"
        guard let whole = Int64(parts[0]),
            case (let nanoseconds, false) = whole.multipliedReportingOverflow(by: 1_000_000_000),
            case (let total, false) = nanoseconds.addingReportingOverflow(Int64(fraction)!), total <= 1 << 62
        else {
            throw Invalid(
                "\(path): \(describe(value)) is longer than virtual time holds, 2^62 ns (1281023h, about 146 years)")
        }
        return .nanoseconds(total)
    }

    /// retryableStatusCodes: a non-empty list of status names ("UNAVAILABLE") or codes (14).
    /// A list of status codes (names or numbers 1-16): non-empty unless `allowingEmpty`.
    static func statusCodes(_ value: Any?, at path: String, allowingEmpty: Bool = false) throws(Invalid) {
        let form =
            allowingEmpty
            ? "a list of status codes, e.g. [\"UNAVAILABLE\"]"
            : "a non-empty list of status codes, e.g. [\"UNAVAILABLE\"]"
        guard let value else { throw Invalid("\(path) is missing; expected \(form)") }
        guard let list = value as? [Any], allowingEmpty || !list.isEmpty else {
            throw Invalid("\(path): expected \(form), got \(describe(value))")
        }
        for (index, code) in list.enumerated() {
            if let name = code as? String, statusNames.contains(name.uppercased()) { continue }
            if let number = code as? NSNumber, !isBoolean(number), number.doubleValue == number.doubleValue.rounded(),
                (1...16).contains(number.intValue)
            {
                continue
            }
            throw Invalid(
                "\(path)[\(index)]: expected a status name (e.g. \"UNAVAILABLE\") or a code 1-16, got \(describe(code))"
            )
        }
    }

    /// The canonical gRPC status codes other than OK.
    static let statusNames: Set<String> = [
        "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
        "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    static func text(_ value: Double) -> String { value.decimalText }

    /// JSON's true and false, which Foundation hands over as NSNumbers of type char.
    static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    /// A JSON value as a message shows it.
    static func describe(_ value: Any) -> String {
        switch value {
        case is String: "the string \"\(value)\""
        case let number as NSNumber where isBoolean(number): "a boolean"
        case let number as NSNumber: "the number \(text(number.doubleValue))"
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        case is NSNull: "null"
        default: "\(value)"
        }
    }
}
