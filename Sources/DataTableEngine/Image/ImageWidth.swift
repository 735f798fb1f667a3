/// The fewest bytes each element of a table image takes, as ``ByteWriter`` writes it: the one
/// definition the writer's layout and the reader's checks share.
///
/// A reader checks each count it is about to loop over or allocate for against what the bytes
/// left could hold at these widths (``ByteReader/readCount(bytesEach:)``), so a damaged count
/// cannot ask for a huge allocation. A true count always passes: each width is the smallest
/// its element can be, never a typical size.
enum ImageWidth {
    /// A whole number of 32 bits: a column index, a row's place, a text's length.
    static let word = 4
    /// A whole number of 64 bits: a count, a version.
    static let longWord = 8
    /// A flag or a tag.
    static let byte = 1
    /// A text: its 32-bit length, then its UTF-8 (nothing for the empty text).
    static let text = word
    /// A row id: a tag, then a 64-bit number or a text.
    static let rowID = byte + min(longWord, text)
    /// A cell value: a tag, then nothing for an empty cell.
    static let cellValue = byte
    /// A draft: what was typed and why it was refused, two texts.
    static let draft = 2 * text
    /// A cell named by its row's place and its column's index.
    static let cellAddress = 2 * word
    /// A cell's own read-only setting: its address and a flag.
    static let readOnlyCell = cellAddress + byte
    /// A cell's draft: its address and the draft.
    static let draftCell = cellAddress + draft
    /// An undo step of format 2: its count of parts.
    static let undoStep = longWord
    /// An undo step of format 3 and on: whether its author is known, the author, its count of
    /// parts.
    static let authoredUndoStep = byte + word + longWord
    /// A part of an undo step: its tag and a count (the smallest part, cells or drafts, is a
    /// tag and a count of entries).
    static let undoPart = byte + longWord
    /// A cell set in the history: the row's id, the column, the value before and after.
    static let editedCell = rowID + word + 2 * cellValue
    /// A draft set or cleared in the history: the row's id, the column, and a flag for each of
    /// the draft before and after.
    static let draftChange = rowID + word + 2 * byte
    /// A column edit in the history: its tag and the smallest body (a flag).
    static let columnEdit = byte + byte
    /// A saved column's read-only cell: the row's place and a flag.
    static let savedReadOnly = word + byte
    /// A saved column's draft: the row's place and the draft.
    static let savedDraft = word + draft
}
