/// Where each bound field of an object view goes across a row of a list report, after
/// FUIObjectView: the icon, then the detail image, on the leading side; the status and
/// substatus (text or image) in one area on the trailing side; the headline, subheadline and
/// footnote in the width between. Each field is cut to its own width.
///
/// In points: 12 from either edge and between areas, a 16-point icon, a 45-point detail image,
/// 16-point status images, and a status area of 30% of the row. In cells: no edge, 1 cell
/// between areas, a 1-cell icon, the image-column width for the detail image and status
/// images, and the same 30% status area.
enum ObjectViewGeometry {
    /// The share of the row the status area takes when a status or substatus is bound.
    static let statusShare = 0.3

    /// The x and width of each of `bindings` in a row `options.width` wide.
    static func place(_ bindings: [ListBinding], options: LayoutOptions) -> [ListBinding: (x: Int, width: Int)] {
        let points = options.unit == .pt
        let gap = points ? options.cellPadding : max(1, options.spacing)
        let iconWidth = points ? 16 : 1
        let detailWidth = points ? 45 : options.imageWidth
        let statusImageWidth = points ? 16 : options.imageWidth
        var leading = options.cellPadding
        var trailing = max(leading, options.width - options.cellPadding)
        var places: [ListBinding: (x: Int, width: Int)] = [:]
        func takeLeading(_ binding: ListBinding, _ width: Int) {
            let width = min(width, trailing - leading)
            places[binding] = (leading, width)
            leading = min(trailing, leading + width + gap)
        }
        if bindings.contains(.icon) { takeLeading(.icon, iconWidth) }
        if bindings.contains(.detailImage) { takeLeading(.detailImage, detailWidth) }
        let statusPlaces: [ListBinding] = [.status, .statusImage, .substatus, .substatusImage]
        if bindings.contains(where: statusPlaces.contains) {
            let area = min(trailing - leading, ColumnSolver.share(statusShare, of: options.width))
            let areaX = trailing - area
            for binding in statusPlaces where bindings.contains(binding) {
                // Images sit at the area's trailing edge; texts take the whole area.
                let width = binding.showsImage ? min(area, statusImageWidth) : area
                places[binding] = (areaX + area - width, width)
            }
            trailing = max(leading, areaX - gap)
        }
        for binding in [ListBinding.headline, .subheadline, .footnote] where bindings.contains(binding) {
            places[binding] = (leading, max(0, trailing - leading))
        }
        return places
    }
}
