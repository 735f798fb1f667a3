/// Measures single lines of text in whole units of its own: terminal cells, or a font's design
/// units. Widths in units do not depend on a size, so they can be kept per table and reused for
/// every size of the same face.
public protocol TextMeasure: Sendable {
    /// Names what the units measure ("cell", or a font file and face index): equal identities,
    /// equal widths.
    var identity: String { get }
    /// Width of `text` drawn on one line, in units.
    func units(_ text: String) -> Int
    /// The design grid: units per em for a font, 1 for cells.
    var unitsPerEm: Int { get }
    /// Distance from one baseline to the next, in units (ascender − descender + line gap).
    var lineHeightUnits: Int { get }
}

/// Terminal cells: every unit is one cell (``DisplayWidth``).
public struct CellMeasure: TextMeasure {
    /// The cell measure (it has no settings).
    public init() {}
    /// Always `"cell"`.
    public var identity: String { "cell" }
    /// Terminal cells `text` takes on one line (see ``DisplayWidth``). Visible ASCII, most
    /// texts, is a cell a byte, told in one pass over the bytes.
    public func units(_ text: String) -> Int {
        var text = text
        let visibleASCII: Int? = text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
            return bytes.count
        }
        return visibleASCII ?? DisplayWidth.cells(OneLine.text(text))
    }
    /// 1: a unit is one cell.
    public var unitsPerEm: Int { 1 }
    /// 1: a line is one cell high.
    public var lineHeightUnits: Int { 1 }
}

/// A measure at a size: what layout uses. Widths come out in layout units — points for a font
/// (units × size ÷ units per em), cells for ``CellMeasure`` (size 1).
public struct TextStyle: Sendable, Equatable {
    /// What measures the text: a font face, or terminal cells.
    public let measure: any TextMeasure
    /// Points for a font; 1 for cells.
    public let size: Double

    /// `measure` at `size`: points for a font, 1 for cells.
    public init(measure: any TextMeasure, size: Double) {
        self.measure = measure
        self.size = size
    }

    /// Styles are equal when they measure alike: the same measure identity at the same size.
    public static func == (left: TextStyle, right: TextStyle) -> Bool {
        left.size == right.size && left.measure.identity == right.measure.identity
    }

    /// Cells: one cell per unit, one line per cell.
    public static let cells = TextStyle(measure: CellMeasure(), size: 1)

    /// Layout units per measure unit.
    public var scale: Double { size / Double(measure.unitsPerEm) }

    /// Width of `text` on one line, in layout units.
    public func width(_ text: String) -> Double { Double(measure.units(text)) * scale }

    /// A width in measure units as whole layout units, rounded up so the text fits.
    public func wholeWidth(units: Int) -> Int { Self.roundUp(Double(units) * scale) }

    /// Line height in whole layout units, rounded up.
    public var lineHeight: Int { Self.roundUp(Double(measure.lineHeightUnits) * scale) }

    /// Rounds up, ignoring the last bits of floating-point noise (2.0000000001 is 2).
    static func roundUp(_ value: Double) -> Int { Int((value - 1e-9).rounded(.up)) }
}
