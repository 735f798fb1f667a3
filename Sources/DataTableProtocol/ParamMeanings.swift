// Written by scripts/generate-param-meanings from the doc comments on the request types'
// members: edit those, then run it again (a test checks that this file is current).

extension ParamsSchema {
    /// One line about each param, by method: the first sentence of the doc comment on the
    /// request type's member.
    static let meanings: [String: [String: String]] = [
        "add": [
            "table":
                "The table to add to; the peer needs write (`permission_denied`).",
            "row":
                "One row: an object of column key → value (a string, a number or `null`); give `row` or "
                + "`rows`, not both (`invalid_params`).",
            "rows":
                "A batch of row objects, added as one change; at most `maxBatchSize` (`limit_exceeded`).",
            "index":
                "Where to put the rows in an unsorted table; absent appends.",
            "upsert":
                "`true`: a row whose key is already in the table replaces that row (every value given; a "
                + "column left out becomes empty) instead of being refused as a duplicate; the rest are "
                + "added.",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
        ],
        "alter": [
            "table":
                "The table to change; the peer needs write (`permission_denied`).",
            "change":
                "New definitions of existing columns, by key, replacing each whole (label, constraints, "
                + "`editable`, picker options, layout hints): the type stays.",
            "rename":
                "Columns to rename: the key now → the new key (a label that was the key follows it).",
            "drop":
                "Keys of columns to drop: not the key column or a sort key.",
            "add":
                "Columns to add (definitions as `create` takes them), after the last column.",
            "values":
                "The value every existing row gets in an added column, by the column's key (absent: empty).",
            "readOnly":
                "The table's own read-only setting.",
            "limit":
                "The most rows the table keeps, dropping the oldest past it (0: no limit); a table above it "
                + "drops its oldest rows now, in the same change.",
            "keepAsDrafts":
                "`true`: stored values that break a column's new constraints stay, each with a draft saying "
                + "why (fixed one by one with `edit`), instead of refusing the change.",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
        ],
        "attach": [
            "table":
                "The new table's name.",
            "source":
                "The configured source's name (`hello` lists them); never a URL.",
            "relation":
                "The relation, `schema.table` or `table` (in the search path): its rows, and its changes "
                + "written back.",
            "query":
                "A query the source runs read-only: the table is read-only.",
            "key":
                "The key column: the relation's primary key by default (a query must name one).",
            "columns":
                "The columns to take, in this order (default: all of them).",
            "mode":
                "The table's mode, as `create` takes it.",
        ],
        "chmod": [
            "table":
                "The table to change; only its owner, root or the daemon's own user may "
                + "(`permission_denied`).",
            "mode":
                "Read and write bits for owner, group and others, as octal digits (\"0640\").",
            "group":
                "The table's new group id: the peer's primary group (root and the daemon's own user: any).",
            "owner":
                "The table's new owner's user id (root and the daemon's own user only).",
        ],
        "clear": [
            "table":
                "The table to clear; the peer needs write (`permission_denied`).",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
        ],
        "collapse": [
            "table":
                "The table the caller's view (with sections) looks at.",
            "group":
                "One group: its values, outermost first (a group of the second level gives two), each as "
                + "its column takes it.",
            "level":
                "Every group of a level: 0 for the outermost (`sections.columns[0]`), 1 for the next.",
            "all":
                "`true`: every group of every level.",
        ],
        "columnState": [
            "table":
                "The table; saving and deleting need write, restoring and listing read.",
            "name":
                "The arrangement's name: 1 to 128 characters, no control characters.",
            "save":
                "With `name`: the arrangement to keep under it (replacing one of that name).",
            "delete":
                "With `name`: forget the arrangement of that name.",
            "ifVersion":
                "With `save` or `delete`: only if the table is still at this version: otherwise `conflict`, "
                + "with the table's version in `data.version`, and nothing changes.",
        ],
        "copy": [
            "table":
                "The table to copy from; the peer needs read (`permission_denied`).",
            "columns":
                "The keys of the columns to copy, in this order, instead of those this connection's view "
                + "shows.",
            "view":
                "Copy as this connection's view shows the table (default true): only selected rows its "
                + "filter lets through, and its hidden columns and column order; `false` copies every "
                + "selected row in every column.",
        ],
        "create": [
            "table":
                "The new table's name: 1 to 128 characters, no control characters (`invalid_value`); a name "
                + "in use is `already_exists`.",
            "columns":
                "The columns, in order: at least one, keys unique; a bad definition is `invalid_value` with "
                + "`data.field` naming it.",
            "key":
                "The column whose values are the row ids; absent means the daemon numbers rows 1, 2, 3, …",
            "rows":
                "Rows as objects of column key → value.",
            "sort":
                "Sort keys, first key first; absent keeps rows in the table's own order (as given).",
            "readOnly":
                "Cells are read-only unless a column, row or cell says otherwise.",
            "selection":
                "`none`, `single` or `multiple` (the default).",
            "mode":
                "Who besides the owner may read and change the table, as `chmod` writes it (\"0640\"); absent "
                + "means the daemon's `--table-mode` (0660 unless set).",
            "limit":
                "The most rows the table keeps, for logs and live feeds: adding past it drops the oldest "
                + "(the first in the table's own order), and events say which; absent: no limit.",
        ],
        "delete": [
            "table":
                "The table to delete from; the peer needs write (`permission_denied`).",
            "ids":
                "Ids of the rows to delete (whole numbers or strings); an unknown id refuses the whole "
                + "request (`no_such_row`).",
            "selection":
                "`true` deletes the selected rows; give `ids` or `selection: true`, exactly one "
                + "(`invalid_params`).",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
            "view":
                "With `selection`: delete only the selected rows this connection's view shows (`filter`).",
        ],
        "describe": [
            "table":
                "The table to describe; the peer needs read (`permission_denied`)."
        ],
        "distinct": [
            "table":
                "The table.",
            "column":
                "The column whose values are listed.",
            "view":
                "Count only the rows this connection's view lets through by its search and its conditions "
                + "on other columns (default `true`; `false`: every row).",
            "prefix":
                "Only values whose text as shown starts with this, ignoring case.",
            "order":
                "`value` (default: in the order a sort by the column gives, an empty cell first) or `count` "
                + "(most rows first, then by value).",
            "limit":
                "The most values listed, 1 to 100000 (default 1000); `distinct` says how many there are.",
        ],
        "drop": [
            "table":
                "The table to drop; only its owner, root or the daemon's own user may "
                + "(`permission_denied`)."
        ],
        "edit": [
            "table":
                "The table to edit; the peer needs write (`permission_denied`).",
            "id":
                "The row of the one cell to set (a whole number or a string); absent with `edits` or "
                + "`selection: true`.",
            "column":
                "The key of the column to set, in one row or across the selection; required unless `edits` "
                + "is given.",
            "value":
                "Absent when `edits` is used; `null` empties the cell.",
            "edits":
                "Cells to set as one change, instead of `id`, `column` and `value`; at most `maxBatchSize` "
                + "(`limit_exceeded`).",
            "selection":
                "Set `column` to `value` in every selected row.",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
            "view":
                "With `selection`: edit only the selected rows this connection's view shows (`filter`).",
            "ifRowVersion":
                "With `id`: only if the row is still at this row version (its `version` in `get` or "
                + "`scroll`): otherwise `conflict`, with the row's version in `data.rowVersion`, and nothing "
                + "changes.",
        ],
        "expand": [
            "table":
                "The table the caller's view (with sections) looks at.",
            "group":
                "One group: its values, outermost first, each as its column takes it.",
            "level":
                "Every group of a level: 0 for the outermost.",
            "all":
                "`true`: every group of every level.",
        ],
        "export": [
            "table":
                "The table to export; the peer needs read (`permission_denied`).",
            "format":
                "`csv` (the default), `ndjson`, or `json` (one array of objects).",
            "selection":
                "Only the selected rows.",
            "path":
                "Write the text to this file (an absolute path) instead of the reply: a new file of mode "
                + "0600 that takes the name's place whole, or not at all.",
            "stream":
                "Send the text in `chunk` notifications ahead of the reply instead of in it (not with "
                + "`path`).",
            "view":
                "Export this connection's view of the table: only the rows its filter shows (`filter`), in "
                + "order.",
        ],
        "filter": [
            "table":
                "The table's name.",
            "where":
                "The terms, every one of which a row must meet: conditions, or groups of them (`{\"any\": "
                + "[...]}`, `{\"all\": [...]}`, `{\"not\": term}`, nested up to 8 deep); replaces the view's.",
            "search":
                "Text that the display text of one of the row's cells must contain, ignoring case; replaces "
                + "the view's.",
        ],
        "get": [
            "table":
                "The table to read; the peer needs read (`permission_denied`).",
            "ids":
                "The rows to read by id, instead of `from` and `count`; at most 10,000 (`limit_exceeded`), "
                + "and an unknown id is `no_such_row`.",
            "from":
                "First position (default 0).",
            "count":
                "How many rows (default 100, at most 10000).",
            "columns":
                "Only these columns' values (default: every column).",
            "view":
                "Read this connection's view of the table: `from`, `count` and each row's `index` count the "
                + "rows its filter shows (`filter`), and an id it leaves out is `invalid_value`.",
        ],
        "hello": [
            "version":
                "The highest protocol version the client speaks; absent means the newest the daemon has.",
            "client":
                "A name for the client, for the daemon's logs.",
            "lenientParams":
                "`true`: on this connection, params a method does not take are ignored instead of refused "
                + "(for clients written against a newer daemon that send members this one lacks).",
        ],
        "help": [
            "method":
                "Describe only this method."
        ],
        "layout": settingsMeanings.merging([
            "table":
                "The table to lay out; the layout changes nothing in it.",
            "width":
                "The container's width.",
            "view":
                "Lay out this connection's view of the table: row counts and heights of the rows its filter "
                + "shows, with its sections' headers (`filter`, `scroll`).",
        ]) { own, _ in own },
        "load": [
            "table":
                "The table to add the rows to; created when there is none (then 1–128 characters, no "
                + "control characters).",
            "format":
                "`csv`, `ndjson` or `json`; absent takes the path's extension, else the text's first "
                + "character.",
            "path":
                "A file the peer may name (see protocol.md, \"Files\").",
            "text":
                "The CSV, NDJSON or JSON text itself, in the request.",
            "upload":
                "Load the text sent for this table with `upload` on this connection.",
            "columns":
                "The schema for a new table (else types are inferred).",
            "key":
                "The key column of a new table.",
            "sort":
                "The sort of a new table.",
            "mode":
                "The mode of a new table, as `chmod` writes it (\"0640\"); absent means `--table-mode`.",
            "locale":
                "For a new table: the locale (`en-US`, `en-GB`, `de`, …) whose order of day and month reads "
                + "dates like 01/02/2024, which the values alone leave open; without it they stay text.",
            "replace":
                "`true`: the rows become exactly the loaded ones, as one change (a refresh); rows whose key "
                + "was there keep their ids, selection and drafts.",
            "ifVersion":
                "Into a table that exists: only if it is still at this version (the `version` of the reply "
                + "or event the client last saw): otherwise `conflict`, with the table's version in "
                + "`data.version`, and nothing changes.",
        ],
        "ping": [:],
        "redo": [
            "table":
                "The table's name.",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
        ],
        "revert": [
            "table":
                "The table's name.",
            "id":
                "The row whose drafts to drop; absent: every row's.",
            "column":
                "The column whose drafts to drop; absent: every column's.",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
        ],
        "scroll": scrollMeanings,
        "select": [
            "table":
                "The table's name.",
            "action":
                "`set`, `add`, `remove`, `toggle`, `all` or `none` (another is `invalid_value`); absent: "
                + "`set`, or only the mode change when `mode` comes without `ids` or `from`.",
            "ids":
                "The rows to act on, by id (not with `from`); an unknown id is `no_such_row`.",
            "from":
                "The first position, in the current order, of the rows to act on (not with `ids`); 0 to the "
                + "row count, else `invalid_value`.",
            "count":
                "How many rows from `from` (default 1); a negative count, or a range running past the last "
                + "row, is `invalid_value`.",
            "mode":
                "`none`, `single` or `multiple`: the selection mode to switch to first; another is "
                + "`invalid_value`.",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
            "view":
                "Select within this connection's view of the table: a range (`from`, `count`) counts the "
                + "rows its filter shows (`filter`), and `all` is every row it shows.",
        ],
        "selection": [
            "table":
                "The table's name."
        ],
        "sort": [
            "table":
                "The table's name.",
            "keys":
                "The sort keys, first key first; absent or empty returns to the table's own order.",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
        ],
        "stats": [:],
        "subscribe": [
            "table":
                "The table whose events to send; it must exist and the peer must be allowed to read it.",
            "events":
                "The kinds of event wanted (`TableEvent/Kind`); absent means all.",
        ],
        "tables": [:],
        "undo": [
            "table":
                "The table's name.",
            "ifVersion":
                "Only if the table is still at this version (the `version` of the reply or event the client "
                + "last saw): otherwise `conflict`, with the table's version in `data.version`, and nothing "
                + "changes.",
        ],
        "unsubscribe": [
            "table":
                "The table whose events to stop; one that does not exist (any more) is not an error."
        ],
        "unwatch": [
            "watch":
                "The watch's id.",
            "table":
                "Or the watched table.",
        ],
        "upload": [
            "table":
                "The table the text is for.",
            "text":
                "The next piece of the text (whole characters; pieces are joined as they are).",
        ],
        "watch": scrollMeanings.merging([
            "watch":
                "The id of a watch of this connection to move or reshape; absent: the watch of this table, "
                + "made when there is none.",
            "maxRate":
                "The most `window` notifications a second, 1 to 120 (default 30; absent keeps the watch's).",
            "freeze":
                "While `true`, the window keeps its rows and their order: their cells still change, and "
                + "rows added, removed or moved elsewhere are counted in `pending` and come in one delta when "
                + "`false` again (absent keeps the watch's; a new watch is not frozen).",
        ]) { own, _ in own },
    ]

    /// The layout settings `layout`, `scroll` and `watch` take.
    static let settingsMeanings: [String: String] = [
        "sizeClass":
            "`regular` (default) or `compact`.",
        "horizontalScroll":
            "Whether the container scrolls sideways (default false).",
        "unit":
            "`pt` (default) or `cell`.",
        "font":
            "Font of data cells (pt only): DejaVu Sans, Regular, 15 by default.",
        "headerFont":
            "Font of header labels (pt only): DejaVu Sans, Semibold (bold when the family has no "
            + "semibold), 13 by default.",
        "padding":
            "Paddings and fixed sizes; absent members keep the unit's defaults.",
        "minShare":
            "Least share of the container a truncated column keeps (default 0.25).",
        "maxShare":
            "Most share of the container one of several columns takes (default 0.5).",
        "leftAccessory":
            "`none`, `checkbox` or `syncStatus`; absent follows the table.",
        "rightAccessory":
            "`none` or `chevron`; absent: `chevron` when a column is bound to `drillDown`, else none.",
        "stickyFirstColumn":
            "Whether the first column stays in view while scrolling sideways; absent follows the "
            + "column's `sticky`.",
        "columns":
            "Layout hints replacing the table's for this layout, by column key (`hidden`, `width`, …: a "
            + "view's own column state).",
        "columnOrder":
            "The order the columns are shown in: the keys listed first, in this order, then the others "
            + "in the table's order; absent: the table's order.",
        "zone":
            "The zone datetime cells are shown in, in place of each column's `format.zone`: `UTC`, an "
            + "offset like `+02:00`, or a name like `Europe/Berlin`; absent: each column's.",
    ]

    /// What `scroll` takes, and `watch` with it.
    static let scrollMeanings: [String: String] = settingsMeanings.merging([
        "table":
            "The table the caller's view looks at; the connection keeps one view per table.",
        "viewport":
            "The part of the content to show; the first scroll of a view gives its `width` and "
            + "`height`.",
        "to":
            "A row to bring into view instead of `viewport.y`.",
        "overscan":
            "Rows to add above and below the visible ones (default 0).",
        "follow":
            "`none` (default), `top` or `bottom`: while at that edge, stay there as rows arrive.",
        "sections":
            "Divides the view into sections, one per distinct value of a column (Apple HIG), or into "
            + "groups nested by several: replaces the view's; `{}` (no `column`) ends them; absent keeps "
            + "them.",
        "values":
            "`true`: each row also carries `values`, its cells' typed values in the order of `cells`, "
            + "as `get` gives them (absent: `false`).",
    ]) { own, _ in own }
}
