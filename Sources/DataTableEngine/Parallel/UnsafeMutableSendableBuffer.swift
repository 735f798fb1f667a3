/// A buffer handed to the threads of ``ConcurrentPieces`` (or `concurrentPerform`), each
/// writing a part no other touches.
struct UnsafeMutableSendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
