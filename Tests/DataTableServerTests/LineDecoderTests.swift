import DataTableServer
import NIOCore
import NIOEmbedded
import NIOTestUtils
import Testing

@Suite struct LineDecoderTests {
    private func buffer(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    @Test func linesSurviveAnySplitIntoReads() throws {
        let input = "{\"method\":\"ping\"}\n{\"id\":1}\r\n\n[1]\n"
        try ByteToMessageDecoderVerifier.verifyDecoder(
            inputOutputPairs: [
                (buffer(input), [buffer("{\"method\":\"ping\"}"), buffer("{\"id\":1}"), buffer(""), buffer("[1]")])
            ],
            decoderFactory: { JSONLineDecoder(maximumLineBytes: 64) }
        )
    }

    @Test func aLastLineWithoutNewlineIsDeliveredAtEOF() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(JSONLineDecoder(maximumLineBytes: 64)))
        try channel.writeInbound(buffer("{\"a\":1}\n{\"method\""))
        try channel.writeInbound(buffer(":\"ping\"}"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == buffer("{\"a\":1}"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        _ = try channel.finish()
        #expect(try channel.readInbound(as: ByteBuffer.self) == buffer("{\"method\":\"ping\"}"))
    }

    @Test func aLineOverTheLimitFailsEvenWhenItArrivesWhole() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(JSONLineDecoder(maximumLineBytes: 8)))
        #expect(throws: LineTooLongError(maximumLineBytes: 8)) {
            try channel.writeInbound(self.buffer("123456789\n"))
        }
    }

    @Test func aPartialLineOverTheLimitFailsWithoutWaitingForItsEnd() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(JSONLineDecoder(maximumLineBytes: 8)))
        try channel.writeInbound(buffer("ok\n1234"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == buffer("ok"))
        #expect(throws: LineTooLongError(maximumLineBytes: 8)) {
            try channel.writeInbound(self.buffer("56789"))
        }
    }

    @Test func aLineOfExactlyTheLimitIsFineWhenItsCRLFIsSplitAcrossReads() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(JSONLineDecoder(maximumLineBytes: 8)))
        try channel.writeInbound(buffer("12345678\r"))
        try channel.writeInbound(buffer("\n"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == buffer("12345678"))
    }

    @Test func aLineOfExactlyTheLimitIsFine() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(JSONLineDecoder(maximumLineBytes: 8)))
        try channel.writeInbound(buffer("12345678\r\n"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == buffer("12345678"))
    }
}
