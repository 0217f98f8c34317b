/// Where a request's final error is caught, for clients that send several requests in sequence.
public enum GiveUpBehavior: String, Hashable, Sendable, CaseIterable {
    /// At the end of a long-lived chain: one exhausted request ends the client's session for good
    /// (the search field that stops working); its remaining requests are never sent.
    case endSession = "end-session"
    /// Inside the chain: only that request is lost; the session goes on with the next one.
    case `continue`
}
