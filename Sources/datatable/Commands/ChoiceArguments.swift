import ArgumentParser
import DataTableProtocol

// Options that take one of a fixed set of names are read as the protocol's own types: a name
// outside the set is a usage error here, listing the names, before anything is sent.

extension LengthUnit: ExpressibleByArgument {}
extension TargetAlignment: ExpressibleByArgument {}
extension SelectionAction: ExpressibleByArgument {}
extension RowSelectionMode: ExpressibleByArgument {}

extension DataFileFormat: ExpressibleByArgument {
    /// The format named, in any case (as the daemon reads it).
    public init?(argument: String) { self.init(wireName: argument) }
}

extension ColumnValueType {
    /// The type a column spec (`KEY:TYPE`) names after its colon, or a usage error listing the
    /// types.
    static func named(_ name: String, in spec: String) throws -> ColumnValueType {
        guard let type = ColumnValueType(wireName: name) else {
            throw ValidationError("\(spec): the type must be one of \(names.joined(separator: ", ")).")
        }
        return type
    }
}
