/// How tall each row is under one layout plan: every row is ``rowHeight``, except rows with a
/// cell wider than its wrapping column, which take two lines and are ``tallHeight``.
///
/// Plans with equal rules give every row the same height, so views whose plans share a rule
/// share one ``OffsetIndex``.
public struct RowHeightRule: Sendable, Hashable {
    /// A wrapping column and the most measure units that still fit on one line of it.
    public struct Threshold: Sendable, Hashable {
        /// The column's index in the table.
        public var column: Int
        /// A cell wider than this many measure units takes two lines.
        public var units: Int
    }

    /// The identity of the measure the thresholds are in (``TextMeasure/identity``).
    public var measure: String
    /// Wrapping columns that are narrower than their widest content.
    public var thresholds: [Threshold]
    /// Height of a row whose cells all fit on one line, in layout units.
    public var rowHeight: Int
    /// Height of a row with a cell on two lines, in layout units.
    public var tallHeight: Int

    /// Whether every row has the same height, whatever its content.
    public var isUniform: Bool { thresholds.isEmpty || rowHeight == tallHeight }

    /// Whether a row's height under this rule may change when its cell in `column` does.
    func reads(_ column: Int) -> Bool {
        !isUniform && thresholds.contains { $0.column == column }
    }

    /// One height for every row.
    static func uniform(_ height: Int) -> RowHeightRule {
        RowHeightRule(measure: "", thresholds: [], rowHeight: height, tallHeight: height)
    }
}
