#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a reader/writer lock: any number of readers at once, or one writer.
///
/// Waiting writers go before new readers (glibc's writer-preferring kind), so a steady stream
/// of readers cannot keep a change out. Readers get the value borrowed in place, not copied:
/// for a table, a copy would retain and release each of its arrays, from every reader's
/// thread at once.
final class ReadWriteLocked<Value: Sendable>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)

    init(_ initial: Value) {
        value.initialize(to: initial)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        let status = pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        precondition(status == 0, "pthread_rwlock_init failed: \(status)")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, alongside any other readers.
    ///
    /// `body` borrows the value where it lies. (Handed over as `value.pointee`, Swift would copy
    /// it first, since memory behind a pointer might change during the call; a table's copy
    /// retains and releases each of its buffers, a large share of a small read. Reached through
    /// an `inout` access it is borrowed in place; readers never write to it.)
    func withReadLock<Result>(_ body: (borrowing Value) throws -> Result) rethrows -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        func borrow(_ value: inout Value) throws -> Result { try body(value) }
        return try borrow(&value.pointee)
    }

    /// Runs `body` on the value in place, alone.
    func withWriteLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value.pointee)
    }
}
