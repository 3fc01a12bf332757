import Glibc

/// One client's socket as the data plane writes it: non-blocking sends, the bytes it has not
/// taken yet (sent on EPOLLOUT), and what epoll watches it for.
struct ClientSocket {
    let fd: Int32
    private let epoll: Epoll
    /// Accepted bytes the socket has not taken yet (a partial line first).
    private(set) var pending = PendingBytes()
    private var interest: UInt32 = Epoll.input
    /// The socket failed: nothing more goes out.
    private(set) var failed = false

    init(fd: Int32, epoll: Epoll) {
        self.fd = fd
        self.epoll = epoll
    }

    /// Sends what the socket takes now, without waiting, after anything pending; keeps the rest
    /// and watches for EPOLLOUT. Returns the bytes the socket took now.
    mutating func send(_ bytes: UnsafeRawBufferPointer) -> Int {
        var rest = bytes
        var taken = 0
        if pending.isEmpty {
            taken = Self.write(fd, rest)
            guard taken >= 0 else {
                failed = true
                return 0
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
        guard !rest.isEmpty else { return taken }
        pending.append(rest)
        watch(output: true)
        return taken
    }

    /// The socket can take more (EPOLLOUT): sends what waits, as much as it takes. Returns the
    /// bytes it took.
    mutating func sendPending() -> Int {
        var taken = 0
        let fd = fd
        while !pending.isEmpty, !failed {
            let sent = pending.send { Self.write(fd, $0) }
            if sent < 0 { failed = true }
            if sent <= 0 { break }
            taken += sent
        }
        if pending.isEmpty { watch(output: false) }
        return taken
    }

    /// Changes what epoll reports for this socket: requests to read, room to write.
    mutating func watch(input: Bool? = nil, output: Bool? = nil) {
        var wanted = interest
        if let input { wanted = input ? wanted | Epoll.input : wanted & ~Epoll.input }
        if let output { wanted = output ? wanted | Epoll.output : wanted & ~Epoll.output }
        guard wanted != interest, !failed else { return }
        interest = wanted
        epoll.modify(fd, events: wanted)
    }

    /// One non-blocking send; -1 when the socket failed.
    private static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: return -1
            }
        }
    }
}
