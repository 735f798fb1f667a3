/// A running total of doubles that values can be taken out of again, with the rounding error
/// of each step carried along (Neumaier's compensated summation), so that a total kept through
/// many adds and removes stays as close to the sum of what it holds as a sum made afresh.
struct CompensatedSum: Sendable, Equatable {
    private(set) var sum = 0.0
    private var compensation = 0.0

    /// The total.
    var value: Double { sum + compensation }

    mutating func add(_ value: Double) {
        let total = sum + value
        if abs(sum) >= abs(value) {
            compensation += (sum - total) + value
        } else {
            compensation += (value - total) + sum
        }
        sum = total
    }

    mutating func remove(_ value: Double) { add(-value) }
}
