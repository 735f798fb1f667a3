import DataTableVocabulary

/// Where a column's value goes in the compact list report, or the accessory it drives. (The
/// vocabulary the engine shares with the wire.)
public typealias ListBinding = ColumnBinding

extension ColumnBinding {
    /// Whether a column bound here drives an accessory rather than being drawn: such a column
    /// is not one of the layout's columns.
    public var isAccessory: Bool { self == .syncStatus || self == .drillDown }

    /// Whether the place shows an image (an image column goes there) rather than text.
    public var showsImage: Bool {
        switch self {
        case .statusImage, .substatusImage, .detailImage, .icon: true
        default: false
        }
    }

    /// Places that share one spot in the object view: only one of them can be bound.
    var group: Int? {
        switch self {
        case .status, .statusImage: 1
        case .substatus, .substatusImage: 2
        default: nil
        }
    }

    /// The most places a list report fills.
    public static let fieldLimit = 6

    /// The places of an object view in the order a reader meets them.
    static let order: [ListBinding] = [
        .headline, .subheadline, .footnote, .detailImage, .icon, .status, .statusImage, .substatus,
        .substatusImage,
    ]

    /// Binds columns to places, by explicit bindings when any column has one (only those columns
    /// are shown), else by the default rule: the first three text columns → headline,
    /// subheadline, footnote; the first image → detailImage; later text and images take the
    /// status group, then the substatus group, first come first served (a text takes status or
    /// substatus, an image statusImage or substatusImage); never the icon; at most six.
    /// Every column that is not an image counts as text: dates, numbers, durations and picker
    /// choices show their display text.
    ///
    /// `columns` are the candidates in order, each with whether it is an image and its explicit
    /// binding; the result maps places to positions in `columns`.
    static func bind(_ columns: [(isImage: Bool, binding: ListBinding?)]) -> [(ListBinding, Int)] {
        if columns.contains(where: { $0.binding.map { !$0.isAccessory } ?? false }) {
            var bound: [(ListBinding, Int)] = []
            for (index, column) in columns.enumerated() {
                if let binding = column.binding, !binding.isAccessory { bound.append((binding, index)) }
            }
            return bound.sorted { order.firstIndex(of: $0.0)! < order.firstIndex(of: $1.0)! }
        }
        var bound: [(ListBinding, Int)] = []
        var texts = [ListBinding.headline, .subheadline, .footnote][...]
        var detailImageTaken = false
        var groups = [(text: ListBinding.status, image: ListBinding.statusImage), (.substatus, .substatusImage)][...]
        for (index, column) in columns.enumerated() where column.binding == nil {
            if !column.isImage, let place = texts.popFirst() {
                bound.append((place, index))
            } else if column.isImage, !detailImageTaken {
                detailImageTaken = true
                bound.append((.detailImage, index))
            } else if let group = groups.popFirst() {
                bound.append((column.isImage ? group.image : group.text, index))
            }
            if bound.count == fieldLimit { break }
        }
        return bound.sorted { order.firstIndex(of: $0.0)! < order.firstIndex(of: $1.0)! }
    }
}
