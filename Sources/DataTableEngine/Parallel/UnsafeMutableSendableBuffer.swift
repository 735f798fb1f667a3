/// A buffer handed to the threads of ``ConcurrentPieces`` (or `concurrentPerform`), each
/// writing a part no other touches.
struct UnsafeMutableSendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}

/// A buffer handed to the threads of ``ConcurrentPieces``, which only read it while it lives.
struct UnsafeSendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<Element>
    init(_ buffer: UnsafeBufferPointer<Element>) { self.buffer = buffer }
}
