import HummingbirdWebSocket
import Logging
import NIOCore
import NIOExtras
import NIOPosix

/// One page's connection to the daemon: each WebSocket text message goes to the daemon's socket
/// as one line, each line the daemon sends comes back as one message (replies and
/// notifications alike, in the daemon's order). The connection is the bridge's own, so the
/// daemon serves it as the user who runs the bridge. Either side closing closes the other.
struct DaemonRelay {
    let socketPath: String
    let logger: Logger

    func carry(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let daemon: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            daemon = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            logger.warning(
                "the daemon's socket does not answer",
                metadata: ["socket": "\(socketPath)", "error": "\(error)"]
            )
            try await outbound.close(.unexpectedServerError, reason: "The daemon's socket does not answer.")
            return
        }
        try await daemon.executeThenClose { lines, writer in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await line in lines {
                        try await outbound.write(.text(String(buffer: line)))
                    }
                    try await outbound.close(.goingAway, reason: "The daemon closed the connection.")
                }
                group.addTask {
                    for try await message in inbound.messages(maxSize: WebBridge.maximumMessageBytes) {
                        guard case .text(let text) = message else {
                            try await outbound.close(.dataInconsistentWithMessage, reason: "Send JSON-RPC as text.")
                            return
                        }
                        // A line break outside a JSON string is only white space, and inside one it
                        // must be escaped: as a space it keeps the message one line.
                        var buffer = ByteBuffer()
                        buffer.reserveCapacity(text.utf8.count + 1)
                        for byte in text.utf8 {
                            buffer.writeInteger(byte == 0x0A || byte == 0x0D ? UInt8(ascii: " ") : byte)
                        }
                        buffer.writeInteger(UInt8(ascii: "\n"))
                        try await writer.write(buffer)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
