import NIOCore
import NIOExtras

/// Splits a byte stream into request lines: `\n`-terminated, a trailing `\r` dropped, and a last
/// line without a newline still delivered when the peer closes its side (so
/// `printf '{"method":"ping"}' | socat …` is answered).
///
/// A line longer than `maximumLineBytes` (or a partial line that grows past it) throws
/// ``LineTooLongError``; the connection answers it once and closes, because the rest of that line
/// cannot be told apart from the next request.
///
/// When the daemon itself stops reading (graceful shutdown), the bytes after the last newline are
/// the start of a request cut off mid-way, not a last line: `isShuttingDown` says so, and they are
/// dropped.
public final class JSONLineDecoder: ByteToMessageDecoder {
    /// One request line, without its newline or the `\r` before it.
    public typealias InboundOut = ByteBuffer

    private let lines = LineBasedFrameDecoder()
    /// The longest line taken, in bytes without its newline (`maxLineBytes`).
    public let maximumLineBytes: Int
    private let isShuttingDown: @Sendable () -> Bool

    /// A decoder of lines up to `maximumLineBytes`; `isShuttingDown` tells it when the daemon has
    /// stopped reading, so that an unfinished last line is dropped.
    public init(maximumLineBytes: Int, isShuttingDown: @escaping @Sendable () -> Bool = { false }) {
        self.maximumLineBytes = maximumLineBytes
        self.isShuttingDown = isShuttingDown
    }

    /// Passes on the next whole line; throws ``LineTooLongError`` once a line, or the start of one,
    /// is longer than ``maximumLineBytes``.
    public func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let line = try nextLine(&buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    /// Passes on the lines left when input ends, then a last line without a newline, unless the
    /// daemon is shutting down.
    public func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while let line = try nextLine(&buffer) {
            context.fireChannelRead(wrapInboundOut(line))
        }
        if buffer.readableBytes > 0, !isShuttingDown() {
            // The peer closed after a final line without a newline: that line is complete.
            var last = buffer.readSlice(length: buffer.readableBytes)!
            if last.readableBytesView.last == UInt8(ascii: "\r") {
                last.moveWriterIndex(to: last.writerIndex - 1)
            }
            context.fireChannelRead(wrapInboundOut(last))
        }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }

    private func nextLine(_ buffer: inout ByteBuffer) throws -> ByteBuffer? {
        guard let line = try lines.decode(buffer: &buffer) else {
            // No newline yet: what is buffered is the start of one line (perhaps with the `\r`
            // of its `\r\n`).
            let carriageReturn = buffer.readableBytesView.last == UInt8(ascii: "\r") ? 1 : 0
            if buffer.readableBytes > maximumLineBytes + carriageReturn {
                throw LineTooLongError(maximumLineBytes: maximumLineBytes)
            }
            return nil
        }
        if line.readableBytes > maximumLineBytes {
            throw LineTooLongError(maximumLineBytes: maximumLineBytes)
        }
        return line
    }
}

/// A request line was longer than the configured maximum.
public struct LineTooLongError: Error, Hashable, Sendable {
    /// The limit the line passed, in bytes.
    public var maximumLineBytes: Int

    /// The error for a line longer than `maximumLineBytes`.
    public init(maximumLineBytes: Int) { self.maximumLineBytes = maximumLineBytes }
}
