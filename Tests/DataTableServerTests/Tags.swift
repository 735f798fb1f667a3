import Testing

extension Tag {
    /// Tests that take seconds: `scripts/test --quick` leaves them out (`scripts/slow-tests`).
    @Tag static var slow: Self
}
