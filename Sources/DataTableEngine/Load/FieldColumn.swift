/// One field of every record in a block that ``CSVFields`` split: the field at one header
/// position, record by record, read in place (the input's bytes or the splitter's scratch).
///
/// Only valid while the buffers it points into are pinned (``CSVFields/withColumns(in:rows:_:)``).
struct FieldColumn {
    let input: UnsafePointer<UInt8>?
    let scratch: UnsafePointer<UInt8>?
    let fields: UnsafeBufferPointer<CSVFields.Field>
    /// By record: the index in `fields` of its first field.
    let firsts: UnsafeBufferPointer<Int>
    /// The header position: the field's place in each record.
    let position: Int

    /// How many records.
    var count: Int { firsts.count }

    /// The bytes of record `row`'s field.
    @inline(__always)
    subscript(row: Int) -> UnsafeBufferPointer<UInt8> {
        let field = fields[firsts[row] &+ position]
        let base = field.inScratch ? scratch : input
        return UnsafeBufferPointer(start: base.map { $0 + field.start }, count: field.count)
    }
}

extension CSVFields {
    /// Calls `body` with a way to reach, for any header position, that field of each record in
    /// `rows` (each the index in ``fields`` of a record's first field); `bytes` are the input
    /// the records were split from.
    func withColumns<Result>(
        in bytes: UnsafeBufferPointer<UInt8>,
        rows: [Int],
        _ body: (_ column: (_ position: Int) -> FieldColumn) -> Result
    ) -> Result {
        scratch.withUnsafeBufferPointer { scratch in
            fields.withUnsafeBufferPointer { fields in
                rows.withUnsafeBufferPointer { firsts in
                    body { position in
                        FieldColumn(
                            input: bytes.baseAddress,
                            scratch: scratch.baseAddress,
                            fields: fields,
                            firsts: firsts,
                            position: position
                        )
                    }
                }
            }
        }
    }
}
