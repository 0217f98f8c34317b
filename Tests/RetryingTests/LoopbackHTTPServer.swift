import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 for the tests: it answers each connection, on a thread of its
/// own, with the next scripted response (after its delay), closes it, and counts what it served. Stopped by
/// ``stop()`` (and on deinit): its thread ends and its socket closes.
final class LoopbackHTTPServer: Sendable {
    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)] = []
        var body = ""
        /// How long the server waits before answering.
        var delay: Duration = .zero
    }

    let port: UInt16
    private let listener: Int32
    private let stopped = Mutex(false)
    private let script: Mutex<[Response]>
    private let served = Mutex(0)
    private let done = DispatchSemaphore(value: 0)

    /// A server answering with `responses` in order, then 500 to any request beyond them.
    init(_ responses: [Response]) throws {
        script = Mutex(responses)
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let listener = socket(AF_INET, stream, 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// The requests answered so far.
    var requests: Int { served.withLock { $0 } }

    /// Closes the listening socket and waits for the serving thread to end (once).
    func stop() {
        guard
            stopped.withLock({ stopped in
                defer { stopped = true }
                return !stopped
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        _ = done.wait(timeout: .now() + 5)
        close(listener)
    }

    private func serve() {
        defer { done.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            // Each connection on its own thread: a slow answer holds up no other request.
            let response = script.withLock { $0.isEmpty ? Response(status: 500) : $0.removeFirst() }
            Thread { [self] in answer(connection, with: response) }.start()
        }
    }

    private func answer(_ connection: Int32, with response: Response) {
        readRequest(connection)
        if response.delay > .zero { Thread.sleep(forTimeInterval: Double(response.delay.nanoseconds) / 1e9) }
        var text = "HTTP/1.1 \(response.status) Scripted\r\nContent-Length: \(response.body.utf8.count)\r\n"
        text += "Connection: close\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        text += "\r\n" + response.body
        // Counted before the answer leaves, so a client that has it sees the count.
        served.withLock { $0 += 1 }
        _ = text.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        close(connection)
    }

    /// Reads until the end of the request's headers (the tests send no body).
    private func readRequest(_ connection: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            received += buffer[..<count]
            if received.suffix(4) == [13, 10, 13, 10] { return }
        }
    }
}

extension Duration {
    fileprivate var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
