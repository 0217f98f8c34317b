internal import CGSL

/// The one place where GSL statuses are checked and GSL's error handler is configured.
enum GSL {
    /// GSL's default error handler aborts the process. It is switched off once, before the first
    /// GSL call of this module, so that every status comes back to `check` instead.
    private static let errorHandlerDisabled: Bool = {
        gsl_set_error_handler_off()
        return true
    }()

    /// Call before the first GSL call of an object (cheap after the first time).
    static func prepare() {
        _ = errorHandlerDisabled
    }

    /// Throws when `status` is not `GSL_SUCCESS`, naming the function and GSL's reason.
    static func check(_ status: Int32, _ function: StaticString) throws(StochasticsError) {
        guard status != GSL_SUCCESS else { return }
        throw .gsl(function: "\(function)", status: status, reason: String(cString: gsl_strerror(status)))
    }
}
