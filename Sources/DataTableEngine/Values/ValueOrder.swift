/// How cell values sort: numbers numerically, dates, times, durations and instants by value,
/// `false` before `true`, text
/// case-insensitively (ties broken by the exact text, so the order is total), pickers in the
/// order of their options. Empty values come first.
public enum ValueOrder {
    /// Negative, zero or positive as `left` sorts before, with, or after `right`.
    public static func compare(_ left: CellValue, _ right: CellValue) -> Int {
        switch (left, right) {
        case (.empty, .empty): return 0
        case (.empty, _): return -1
        case (_, .empty): return 1
        case (.number(let a), .number(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.date(let a), .date(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.time(let a), .time(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.duration(let a), .duration(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.picker(let a), .picker(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.boolean(let a), .boolean(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.datetime(let a), .datetime(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.text(let a), .text(let b)), (.image(let a), .image(let b)): return compareText(a, b)
        default: return kindRank(left) - kindRank(right)
        }
    }

    /// Case-insensitive, then by the exact bytes, so that `"apple" < "Banana"` and the order is total.
    public static func compareText(_ a: String, _ b: String) -> Int {
        TextKey.compare(a, b)
    }

    private static func kindRank(_ value: CellValue) -> Int {
        switch value {
        case .empty: 0
        case .number: 1
        case .date: 2
        case .time: 3
        case .duration: 4
        case .picker: 5
        case .text: 6
        case .image: 7
        case .boolean: 8
        case .datetime: 9
        }
    }
}
