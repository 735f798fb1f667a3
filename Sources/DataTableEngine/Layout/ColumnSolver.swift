/// Column widths for a container, by the SAP Fiori data-table rules. Pure and deterministic:
/// whole layout units in, whole layout units out.
///
/// - A column that sets no width takes its natural width (widest content plus padding); with
///   more than one column and no sideways scrolling, at most the maximum share (50%) of the
///   container, and narrower than its content means truncated.
/// - A width of 1 or more is points (or cells); below 1 it is a fraction of the container; -1
///   marks the one flexible column. Image columns keep a fixed width.
/// - The flexible column, else the first text column that sets no width (the title), takes the
///   space left.
/// - Without sideways scrolling (horizontal fit), a truncated column keeps at least the minimum
///   share (25%) of the container; as many columns as fit are kept, in order, the rest omitted.
///   When the kept ones are wider than the space, the filling column gives first (down to its
///   least width), then the widest of the others, level with the next widest: a short column
///   is cut only when nothing wider can give. A column gives space below the longest word of
///   its header only when nothing else can (titles are not cut while cells can be).
/// - The space left goes to the filling column up to its `maxWidth`, then to the next text
///   column without a width; what none may take stays empty after the last column.
/// - With sideways scrolling every column keeps its natural width (only an explicit `maxWidth`
///   caps it) and the total may pass the container.
public enum ColumnSolver {
    /// One column as the solver sees it.
    public struct Column: Sendable, Hashable {
        /// Widest content (header label or any cell) plus padding on both sides.
        public var natural: Int
        /// An image column: keeps its `width` (else ``Settings/imageWidth``), never shrinks, is never truncated.
        public var isImage: Bool
        /// Points or cells when 1 or more, a fraction of the container below 1, -1 flexible.
        public var width: Double?
        /// Like `width` (no -1); defaults are the settings' shares of the container.
        public var minWidth: Double?
        /// The most a column sized to content takes, read like `width` (no -1); applies even when scrolling sideways.
        public var maxWidth: Double?
        /// The longest word of the header label plus padding: a column sized to content is
        /// narrowed below it (cutting the word) only when no other column can give instead.
        public var headerWord: Int

        /// A column whose natural width is `natural`; hints left `nil` are not set.
        public init(
            natural: Int,
            isImage: Bool = false,
            width: Double? = nil,
            minWidth: Double? = nil,
            maxWidth: Double? = nil,
            headerWord: Int = 0
        ) {
            self.natural = natural
            self.isImage = isImage
            self.width = width
            self.minWidth = minWidth
            self.maxWidth = maxWidth
            self.headerWord = headerWord
        }
    }

    /// The container and the rules' numbers.
    public struct Settings: Sendable, Hashable {
        /// The container's width in layout units, accessories included.
        public var container: Int
        /// Widths of the left and right accessories (0 when there are none).
        public var leftAccessory: Int = 0
        /// Width of the right accessory (0 when there is none).
        public var rightAccessory: Int = 0
        /// Space between neighbouring columns.
        public var spacing: Int = 0
        /// Whether the container scrolls sideways: columns keep their natural widths and none is omitted.
        public var horizontalScroll: Bool = false
        /// Width of an image column that sets none.
        public var imageWidth: Int = 56
        /// Share of the container a truncated column keeps at least, unless its `minWidth` says otherwise.
        public var minShare = Settings.defaultMinShare
        /// Share of the container one of several columns takes at most without sideways scrolling.
        public var maxShare = Settings.defaultMaxShare

        /// The share a truncated column keeps when the layout names none (`minShare`): the one
        /// place this default is set.
        public static let defaultMinShare = 0.25
        /// The most share one of several columns takes when the layout names none (`maxShare`).
        public static let defaultMaxShare = 0.5

        /// Settings for a container `container` units wide, every other number at its default.
        public init(container: Int) { self.container = container }
    }

    /// Where a column goes.
    public struct Placement: Sendable, Hashable {
        /// Left edge from the container's left edge; `nil` when omitted.
        public var x: Int?
        /// 0 when omitted.
        public var width: Int
        /// Narrower than its content.
        public var truncated: Bool
        /// Left out: it did not fit without sideways scrolling.
        public var omitted: Bool
    }

    /// Places `columns` in a container.
    public static func solve(_ columns: [Column], _ settings: Settings) -> [Placement] {
        guard !columns.isEmpty else { return [] }
        let container = settings.container
        let available = max(0, container - settings.leftAccessory - settings.rightAccessory)
        let spacing = settings.spacing
        let capped = columns.count > 1 && !settings.horizontalScroll
        let defaultMax = capped ? share(settings.maxShare, of: container) : Int.max
        let defaultMin = share(settings.minShare, of: container)

        var preferred: [Int] = []
        var least: [Int] = []
        // The least widths that keep every header word whole.
        var wordLeast: [Int] = []
        for column in columns {
            if column.isImage {
                let width = column.width.flatMap { $0 > 0 ? length($0, of: container) : nil } ?? settings.imageWidth
                preferred.append(width)
                least.append(width)
            } else if let width = column.width, width > 0 {
                preferred.append(length(width, of: container))
                least.append(preferred.last!)
            } else {
                let most = column.maxWidth.map { length($0, of: container) } ?? defaultMax
                let width = min(column.natural, most)
                preferred.append(width)
                least.append(min(width, column.minWidth.map { length($0, of: container) } ?? defaultMin))
            }
            wordLeast.append(max(least.last!, min(preferred.last!, column.headerWord)))
        }
        // The column that takes the space left: the one marked -1 (an image too), else the
        // first text column that sets no width (the title).
        let fill =
            columns.firstIndex { $0.width == -1 }
            ?? columns.firstIndex { $0.width == nil && !$0.isImage }

        var widths = preferred
        var kept = columns.count
        if !settings.horizontalScroll {
            // Keep columns in order while their least widths fit.
            var used = 0
            kept = 0
            for index in columns.indices {
                let need = least[index] + (kept > 0 ? spacing : 0)
                if kept > 0 && used + need > available { break }
                used += need
                kept += 1
            }
            let preferredTotal = preferred[..<kept].reduce(0, +) + spacing * (kept - 1)
            if preferredTotal > available {
                let keptFill = fill.flatMap { $0 < kept ? $0 : nil }
                // First with every header word kept whole; then, for what is still too wide,
                // down to the least widths.
                widths = shrink(
                    Array(preferred[..<kept]),
                    least: Array(wordLeast[..<kept]),
                    fill: keptFill,
                    by: preferredTotal - available
                )
                let still = widths.reduce(0, +) + spacing * (kept - 1) - available
                if still > 0 {
                    widths = shrink(widths, least: Array(least[..<kept]), fill: keptFill, by: still)
                }
                if used > available { widths[0] = max(0, widths[0] - (used - available)) }
            }
        }
        let total = widths[..<kept].reduce(0, +) + spacing * (kept - 1)
        if total < available {
            // The space left goes to the filling column up to its maxWidth, then to the next
            // text column that sets no width, and so on; what none may take stays empty at the end.
            var left = available - total
            let takers =
                (fill.map { [$0] } ?? [])
                + columns.indices.filter { $0 != fill && columns[$0].width == nil && !columns[$0].isImage }
            for index in takers where index < kept && left > 0 {
                let most = columns[index].maxWidth.map { length($0, of: container) } ?? Int.max
                let given = min(left, max(0, most - widths[index]))
                widths[index] += given
                left -= given
            }
        }

        var placements: [Placement] = []
        var x = settings.leftAccessory
        for (index, column) in columns.enumerated() {
            guard index < kept else {
                placements.append(Placement(x: nil, width: 0, truncated: false, omitted: true))
                continue
            }
            placements.append(
                Placement(
                    x: x,
                    width: widths[index],
                    truncated: !column.isImage && widths[index] < column.natural,
                    omitted: false
                )
            )
            x += widths[index] + spacing
        }
        return placements
    }

    /// The width of a sticky first column whose natural width is `width` once the content has
    /// scrolled `offset` units to the left: it shrinks with the scroll until it reaches `least`
    /// (the sticky panel width), and a column narrower than that never shrinks.
    public static func stickyWidth(width: Int, least: Int, offset: Int) -> Int {
        max(min(width, least), width - max(0, offset))
    }

    /// `widths` made `excess` narrower in all, by the seed's order: the filling column (the
    /// title) gives first, down to its least width; then the widest of the others, brought down
    /// level with the next widest, and so on, each no lower than its least. A short column (a
    /// number) is cut only when nothing wider can give.
    static func shrink(_ widths: [Int], least: [Int], fill: Int?, by excess: Int) -> [Int] {
        var widths = widths
        var excess = excess
        if let fill {
            let given = min(excess, max(0, widths[fill] - least[fill]))
            widths[fill] -= given
            excess -= given
        }
        while excess > 0 {
            let able = widths.indices.filter { $0 != fill && widths[$0] > least[$0] }
            guard let widest = able.map({ widths[$0] }).max() else { break }
            let group = able.filter { widths[$0] == widest }
            let next = able.map { widths[$0] }.filter { $0 < widest }.max() ?? 0
            // Each of the widest may come down to the next widest (or its least).
            let room = group.map { widest - max(next, least[$0]) }
            let total = min(excess, room.reduce(0, +))
            var taken = 0
            for (position, index) in group.enumerated() {
                let share = min(room[position], total / group.count)
                widths[index] -= share
                taken += share
            }
            for (position, index) in group.enumerated() where taken < total {
                let more = min(room[position] - (widest - widths[index]), total - taken)
                widths[index] -= more
                taken += more
            }
            excess -= taken
        }
        return widths
    }

    /// `least` widths grown by `extra` toward `preferred`, in proportion to what each lacks;
    /// whole units left over go one each to the first columns that still lack some.
    static func grow(least: [Int], toward preferred: [Int], by extra: Int) -> [Int] {
        var widths = least
        let lacking = zip(preferred, least).map { max(0, $0 - $1) }
        let totalLacking = lacking.reduce(0, +)
        guard extra > 0, totalLacking > 0 else { return widths }
        var given = 0
        for index in widths.indices {
            let share = extra * lacking[index] / totalLacking
            widths[index] += share
            given += share
        }
        var index = 0
        while given < extra, index < widths.count {
            if widths[index] < preferred[index] {
                widths[index] += 1
                given += 1
            }
            index += 1
        }
        return widths
    }

    /// A width hint in whole units: a fraction of the container below 1, else itself.
    static func length(_ hint: Double, of container: Int) -> Int {
        hint < 1 ? share(hint, of: container) : Int(hint)
    }

    static func share(_ fraction: Double, of container: Int) -> Int {
        Int((Double(container) * fraction + 1e-9).rounded(.down))
    }
}
