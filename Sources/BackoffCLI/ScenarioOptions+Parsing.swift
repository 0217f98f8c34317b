import BackoffPolicies
import RetrySimulation

/// The retry trigger's grammar (servers, arrivals and service times have codecs of their own:
/// ``ServerSpec``, ``ArrivalsSpec``, ``ServiceTimeSpec``).
extension ScenarioOptions {
    /// `timer`, `recovery` (the default notification delay) or `recovery:DURATION`.
    @Sendable static func parseTrigger(_ text: String) -> RetryTrigger? {
        if text == "timer" { return .timer }
        if text == "recovery" { return .recovery(notificationDelay: defaultNotificationDelay) }
        guard text.hasPrefix("recovery:"), let delay = ValueParser.duration(String(text.dropFirst(9))) else {
            return nil
        }
        return .recovery(notificationDelay: delay)
    }
}
