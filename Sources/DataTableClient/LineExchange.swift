import DataTableProtocol
import NIOCore
import NIOExtras
import NIOPosix

/// One short conversation with the daemon: send request lines, close the sending side, read every
/// reply line until the daemon closes. This is what `socat` does, and it works for notifications
/// (no reply) and batches alike.
public enum LineExchange {
    /// Sends `lines` (each without its newline) to the socket at `path` and returns the replies.
    public static func run(socketPath path: String, lines: [String]) async throws -> [String] {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .connect(unixDomainSocketPath: path) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(isOutboundHalfClosureEnabled: true)
                    )
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            for line in lines {
                try await outbound.write(ByteBuffer(string: line + "\n"))
            }
            outbound.finish()
            var replies: [String] = []
            for try await reply in inbound {
                replies.append(String(buffer: reply))
            }
            return replies
        }
    }
}
