// The page: one table, live. It asks the daemon for the layout (fonts, roles) and watches a
// window the size of the page; each `window` delta is applied and drawn. Below 600 pt of width
// it asks for the compact size class, where the table becomes a list report.

import { Connection, RPCError } from "./rpc.js";
import { applyDelta } from "./live-window.js";
import { TableView } from "./table-view.js";
import { ListView } from "./list-view.js";
import { makeEditor } from "./editors.js";

const COMPACT_BELOW = 600;
const FRESH_MS = 2000;

class App {
  constructor() {
    this.grid = document.getElementById("grid");
    this.scroller = document.getElementById("scroller");
    this.content = document.getElementById("content");
    this.status = document.getElementById("status");
    this.window = null;
    this.watchID = null;
    this.focus = null;
    this.roles = {};
    this.pendingScroll = false;
    this.moving = 0;
    this.freshUntil = new Map();
  }

  async start() {
    const query = new URLSearchParams(location.search);
    this.rpc = await Connection.open(`ws://${location.host}/rpc`);
    this.rpc.on("window", (params) => this.receive(params));
    this.rpc.on("event", (params) => this.event(params));
    this.rpc.on("close", ({ reason }) => this.say(`Disconnected: ${reason || "the bridge closed the connection"}.`));
    await this.rpc.call("hello", { client: "datatable web" });
    this.table = query.get("table") ?? (await this.rpc.call("tables")).tables[0]?.name;
    if (!this.table) {
      this.say("There is no table you may read.");
      return;
    }
    document.title = `${this.table} — datatable`;
    document.getElementById("table-name").textContent = this.table;
    this.schema = await this.rpc.call("describe", { table: this.table });
    await this.loadFonts();
    // Rows added to the table are highlighted as they arrive (a window's `added` also holds
    // rows that only scrolled or unfolded into it).
    await this.rpc.call("subscribe", { table: this.table, events: ["added"] });
    this.bindControls();
    await this.watch({ fresh: true });
    new ResizeObserver(() => this.watch({ fresh: true })).observe(this.scroller);
    document.body.dataset.ready = "true";
  }

  say(text) {
    this.status.textContent = text;
  }

  /** The daemon's fonts, served by the bridge, as the faces the page draws with. */
  async loadFonts() {
    const layout = await this.rpc.call("layout", { table: this.table, width: Math.max(1, this.scroller.clientWidth) });
    this.roles = layout.accessibility ?? {};
    this.readOnlyHint = this.roles.readOnlyHint;
    const faces = [];
    const data = layout.fonts?.data;
    const header = layout.fonts?.header;
    const url = (file) => `url("/font?file=${encodeURIComponent(file)}")`;
    if (data?.file) faces.push(new FontFace("dt-data", url(data.file)));
    if (header?.file) faces.push(new FontFace("dt-header", url(header.file)));
    const fallbacks = [];
    (data?.fallbacks ?? []).forEach((fallback, index) => {
      faces.push(new FontFace(`dt-fallback-${index}`, url(fallback.file)));
      fallbacks.push(`"dt-fallback-${index}"`);
    });
    for (const face of faces) document.fonts.add(face);
    await Promise.all(faces.map((face) => face.load()));
    const tail = fallbacks.length ? `, ${fallbacks.join(", ")}` : "";
    document.documentElement.style.setProperty("--data-font", `"dt-data"${tail}`);
    document.documentElement.style.setProperty("--header-font", `"dt-header"${tail}`);
    document.documentElement.style.setProperty("--data-size", `${data?.size ?? 15}px`);
    document.documentElement.style.setProperty("--header-size", `${header?.size ?? 13}px`);
  }

  viewportParams() {
    const width = Math.max(1, Math.floor(this.scroller.clientWidth));
    const height = Math.max(1, Math.floor(this.scroller.clientHeight));
    return {
      sizeClass: width < COMPACT_BELOW ? "compact" : "regular",
      horizontalScroll: this.horizontalScroll ?? false,
      values: true,
      viewport: { width, height, x: Math.floor(this.scroller.scrollLeft), y: Math.floor(this.scroller.scrollTop) },
    };
  }

  /** Watches (or moves the watch to) the page's viewport; `fresh` asks for the whole window. */
  async watch({ fresh = false } = {}) {
    const params = { table: this.table, ...this.viewportParams() };
    if (this.watchID !== null && !fresh) params.watch = this.watchID;
    if (this.newSections !== undefined) params.sections = this.newSections;
    this.newSections = undefined;
    this.moving += 1;
    let reply;
    try {
      reply = await this.rpc.call("watch", params);
    } finally {
      this.moving -= 1;
    }
    this.watchID = reply.watch;
    if (reply.delta) applyDelta(this.window, reply.delta);
    else this.window = reply;
    this.draw();
  }

  receive(delta) {
    if (delta.watch !== this.watchID || !this.window) return;
    if (delta.ended) {
      this.say(`The watch ended: ${delta.ended}.`);
      return;
    }
    applyDelta(this.window, delta);
    this.draw();
    if (delta.set?.viewport && !this.moving) this.followViewport();
  }

  /** An event of the table: rows it added fade from a highlight wherever they are drawn. */
  event(params) {
    if (params.table !== this.table || params.kind !== "added") return;
    const until = Date.now() + FRESH_MS;
    for (const id of params.ids ?? []) {
      this.freshUntil.set(id, until);
      this.view?.rowNode?.(id)?.classList.add("fresh");
    }
    setTimeout(() => {
      for (const [id, time] of this.freshUntil) if (time <= Date.now()) this.freshUntil.delete(id);
    }, FRESH_MS + 50);
  }

  /** Whether row `id` was added in the last two seconds. */
  isFresh(id) {
    return (this.freshUntil.get(id) ?? 0) > Date.now();
  }

  /** Scrolls the page to where the daemon moved the view (anchoring keeps the rows a person was
   * looking at in place as rows come and go above them). Not while the page is moving the view
   * itself: a delta then may still carry the place the page has left. */
  followViewport() {
    const { x = 0, y = 0 } = this.window.viewport ?? {};
    if (Math.abs(this.scroller.scrollTop - y) < 1 && Math.abs(this.scroller.scrollLeft - x) < 1) return;
    // The view is already there: the scroll this causes is not a move to send (which would
    // count as looking, and end the "new rows above" the daemon is counting).
    this.followed = { x, y };
    this.scroller.scrollTop = y;
    this.scroller.scrollLeft = x;
  }

  draw() {
    const window = this.window;
    const mode = window.mode === "list" ? "list" : "table";
    if (!this.view || this.viewMode !== mode) {
      this.content.replaceChildren();
      this.view = mode === "list" ? new ListView(this.content, this) : new TableView(this.content, this);
      this.viewMode = mode;
    }
    this.grid.dataset.mode = mode;
    this.grid.setAttribute("aria-rowcount", String((window.shown ?? window.total) + 1));
    this.grid.setAttribute("aria-colcount", String(window.columns.length));
    this.view.render(window, this.roles);
    this.view.stick(window, this.scroller.scrollLeft);
    this.drawBars();
  }

  drawBars() {
    const window = this.window;
    const pill = document.getElementById("new-rows");
    pill.hidden = !(window.newAbove > 0);
    pill.textContent = window.newAbove === 1 ? "1 new row above" : `${window.newAbove} new rows above`;
    const errors = document.getElementById("errors");
    errors.hidden = !(window.errors > 0);
    errors.textContent = window.errors === 1 ? "1 error" : `${window.errors} errors`;
    const bar = document.getElementById("filter-bar");
    bar.hidden = !window.filter;
    document.getElementById("filter-text").textContent = window.filter
      ? `Filtered by ${window.filter}: ${window.shown} of ${window.total} rows`
      : "";
    this.drawSectionIndex(window);
    document.getElementById("count").textContent = `${window.total} rows · ${window.selected} selected`;
  }

  /** The section index down the right edge: a section's title scrolls to it. */
  drawSectionIndex(window) {
    const nav = document.getElementById("section-index");
    const entries = window.sections?.index ?? [];
    nav.hidden = entries.length === 0;
    const key = JSON.stringify(entries);
    if (nav.dataset.entries === key) return;
    nav.dataset.entries = key;
    nav.replaceChildren();
    for (const entry of entries) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = String(entry.title);
      button.addEventListener("click", () => {
        this.scroller.scrollTop = entry.y; // the viewport.y that brings the section to the top
      });
      nav.append(button);
    }
  }

  bindControls() {
    this.scroller.addEventListener("scroll", () => {
      if (this.window) this.view?.stick(this.window, this.scroller.scrollLeft);
      const followed = this.followed;
      this.followed = null;
      if (followed && Math.floor(this.scroller.scrollTop) === followed.y && Math.floor(this.scroller.scrollLeft) === followed.x) return;
      if (this.pendingScroll) return;
      this.pendingScroll = true;
      requestAnimationFrame(() => {
        this.pendingScroll = false;
        this.watch().catch((error) => this.say(error.message));
      });
    });
    document.getElementById("new-rows").addEventListener("click", () => this.scroller.scrollTo({ top: 0 }));
    document.getElementById("clear-filter").addEventListener("click", () => this.filter({ where: [], search: "" }));
    const search = document.getElementById("search");
    search.addEventListener("change", () => this.filter({ search: search.value }));
    document.getElementById("sideways").addEventListener("change", (event) => {
      this.horizontalScroll = event.target.checked;
      this.watch({ fresh: true });
    });
    document.getElementById("add-row").addEventListener("click", () => this.openAddForm());
    const groupBy = document.getElementById("group-by");
    const thenBy = document.getElementById("then-by");
    for (const column of this.schema.columns) {
      if (["image", "boolean"].includes(column.type)) continue;
      groupBy.append(new Option(column.label, column.key));
      thenBy.append(new Option(column.label, column.key));
    }
    const regroup = () => {
      // Groups by the first column (and within them by the second), each with the sums of the
      // number and duration columns, and a grand total pinned at the bottom; none ends them.
      const columns = [groupBy.value, thenBy.value].filter((key, index, all) => key && all.indexOf(key) === index);
      if (!groupBy.value) columns.length = 0;
      thenBy.disabled = !groupBy.value;
      document.getElementById("group-actions").hidden = columns.length === 0;
      const sums = {};
      for (const column of this.schema.columns) if (["number", "duration"].includes(column.type)) sums[column.key] = "sum";
      this.newSections = columns.length ? { columns, aggregates: sums, grandTotal: "pinnedBottom", index: true } : {};
      this.watch({ fresh: true }).catch((error) => this.say(error.message));
    };
    groupBy.addEventListener("change", regroup);
    thenBy.addEventListener("change", regroup);
    document.getElementById("collapse-all").addEventListener("click", () => this.collapse({ all: true }, true));
    document.getElementById("expand-all").addEventListener("click", () => this.collapse({ all: true }, false));
    this.grid.addEventListener("keydown", (event) => this.key(event));
    document.addEventListener("copy", (event) => this.copy(event));
  }

  async run(method, params) {
    try {
      const result = await this.rpc.call(method, params);
      this.say("");
      return result;
    } catch (error) {
      this.say(error.message);
      if (!(error instanceof RPCError)) throw error;
      return null;
    }
  }

  /** Collapses (or, `collapse` false, expands) groups of the view: `{group: path}`, `{level}` or
   * `{all: true}`. The watch follows by itself. */
  async collapse(which, collapse, header) {
    const done = await this.run(collapse ? "collapse" : "expand", { table: this.table, ...which });
    // The group's own rows come and go below its header: keep the header where it was on
    // screen, rather than the row the view was anchored on (a header stuck at the top has lost
    // rows above the view: there the daemon's anchoring decides).
    if (done && header && !header.sticky) await this.watch();
  }

  filter(params) {
    return this.run("filter", { table: this.table, ...params }).then(() => this.watch({ fresh: true }));
  }

  sortBy(column, current) {
    const keys = current === "ascending" ? [{ column, descending: true }] : current === "descending" ? [] : [{ column }];
    return this.run("sort", { table: this.table, keys });
  }

  select(id, on) {
    return this.run("select", { table: this.table, ids: [id], action: on ? "add" : "remove" });
  }

  selectAll(on) {
    return this.run("select", { table: this.table, action: on ? "all" : "none", view: on ? true : undefined });
  }

  focusCell(id, column) {
    this.focus = { id, column };
    this.grid.focus();
    for (const node of this.content.querySelectorAll(".cell.focused")) node.classList.remove("focused");
    const cell = this.view.cell?.(id, column);
    if (cell) {
      cell.classList.add("focused");
      this.grid.setAttribute("aria-activedescendant", cell.id);
      if (cell.dataset.readOnly && this.readOnlyHint) this.say(this.readOnlyHint);
    }
  }

  key(event) {
    if (event.target.classList?.contains("editor")) return;
    const window = this.window;
    if (!window || window.mode === "list") return;
    const rows = window.rows;
    const columns = window.columns.filter((column) => column.x !== undefined);
    if (!this.focus && rows.length) this.focus = { id: rows[0].id, column: columns[0].key };
    if (!this.focus) return;
    let rowIndex = rows.findIndex((row) => row.id === this.focus.id);
    let columnIndex = columns.findIndex((column) => column.key === this.focus.column);
    const row = rows[rowIndex];
    switch (event.key) {
      case "ArrowDown": rowIndex = Math.min(rows.length - 1, rowIndex + 1); break;
      case "ArrowUp": rowIndex = Math.max(0, rowIndex - 1); break;
      case "ArrowRight": columnIndex = Math.min(columns.length - 1, columnIndex + 1); break;
      case "ArrowLeft": columnIndex = Math.max(0, columnIndex - 1); break;
      case " ": if (row) this.select(row.id, !row.selected); event.preventDefault(); return;
      case "Enter": case "F2": if (row) this.edit(row.id, this.focus.column); event.preventDefault(); return;
      default: return;
    }
    event.preventDefault();
    const target = rows[Math.max(0, rowIndex)];
    if (target) {
      this.focusCell(target.id, columns[Math.max(0, columnIndex)].key);
      // The row's y is on screen: bring it out from under the header or up from the bottom.
      const base = window.viewport?.y ?? 0;
      const header = window.header?.height ?? 0;
      if (target.y + target.height > this.scroller.clientHeight) {
        this.scroller.scrollTop = base + target.y + target.height - this.scroller.clientHeight;
      } else if (target.y < header) {
        this.scroller.scrollTop = Math.max(0, base + target.y - header);
      }
    }
  }

  /** The column of `key` as `describe` gave it. */
  column(key) {
    return this.schema.columns.find((column) => column.key === key);
  }

  /** The typed value and shown text of row `id`'s cell in column `key`, from the window. */
  cellValue(id, key) {
    const row = this.window?.rows.find((row) => row.id === id);
    const index = this.window?.columns.findIndex((column) => column.key === key) ?? -1;
    if (!row || index < 0) return { value: null, text: "" };
    // A draft (a value the column refused) is edited as it was typed.
    const draft = row.drafts?.[key];
    if (draft) return { value: draft.text, text: draft.text };
    return { value: row.values?.[index] ?? null, text: row.cells[index] ?? "" };
  }

  /** Opens the column's editor over the cell (a boolean is toggled at once). Enter, or leaving
   * the editor with a changed value, commits through `edit`; Escape leaves it unchanged. */
  edit(id, key) {
    const cell = this.view.cell?.(id, key);
    if (!cell || cell.dataset.readOnly) {
      if (this.readOnlyHint) this.say(this.readOnlyHint);
      return;
    }
    const column = this.column(key);
    const { value, text } = this.cellValue(id, key);
    if (column?.type === "boolean") {
      this.run("edit", { table: this.table, id, column: key, value: value !== true });
      return;
    }
    const editor = makeEditor(column ?? { key, type: "text" }, value, text);
    editor.classList.add("editor");
    editor.setAttribute("aria-label", `Edit ${column?.label ?? key}`);
    cell.append(editor);
    editor.focus();
    editor.select?.();
    const initial = editor.read();
    let done = false;
    const finish = async (commit) => {
      if (done) return;
      done = true;
      const next = editor.read();
      if (commit && next !== initial) await this.run("edit", { table: this.table, id, column: key, value: next });
      editor.remove();
      this.draw();
      this.focusCell(id, key);
    };
    editor.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        finish(false);
      } else if (event.key === "Enter") {
        event.preventDefault();
        finish(true);
      }
    });
    if (editor.tagName === "SELECT") editor.addEventListener("change", () => finish(true));
    editor.addEventListener("blur", () => finish(true));
  }

  /** A form asking every column, the required ones marked; `add` on submit. */
  openAddForm() {
    const dialog = document.getElementById("add-dialog");
    const fields = document.getElementById("add-fields");
    fields.replaceChildren();
    for (const column of this.schema.columns) {
      if (column.computed || column.readOnly) continue;
      const label = document.createElement("label");
      label.textContent = column.label + (column.required ? " *" : "");
      const input = makeEditor(column, null, "");
      input.name = column.key;
      input.required = Boolean(column.required);
      label.append(input);
      fields.append(label);
    }
    document.getElementById("add-error").textContent = "";
    dialog.showModal();
    const form = document.getElementById("add-form");
    form.onsubmit = async (event) => {
      event.preventDefault();
      if (event.submitter?.value === "cancel") {
        dialog.close();
        return;
      }
      const row = {};
      for (const input of fields.querySelectorAll("[name]")) {
        const value = input.read();
        if (value !== null) row[input.name] = value;
      }
      try {
        await this.rpc.call("add", { table: this.table, row });
        dialog.close();
      } catch (error) {
        document.getElementById("add-error").textContent = error.message;
      }
    };
  }

  /** Copies the selection as the daemon shows it (`copy`): TSV, plain text and HTML. */
  async copy(event) {
    if (!this.window || this.window.selected === 0 || event.target.classList?.contains("editor")) return;
    event.preventDefault();
    try {
      const copied = await this.rpc.call("copy", { table: this.table });
      const items = { "text/plain": new Blob([copied.tsv], { type: "text/plain" }), "text/html": new Blob([copied.html], { type: "text/html" }) };
      await navigator.clipboard.write([new ClipboardItem(items)]);
      this.say(`Copied ${copied.rows} rows.`);
    } catch (error) {
      this.say(error.message);
    }
  }
}

const app = new App();
globalThis.datatableApp = app;
app.start().catch((error) => {
  document.getElementById("status").textContent = error.message;
});
