// Draws a window in table mode: every box at the `x`, `y`, width and height the daemon gave, in
// CSS pixels (1 px = 1 pt), with each cell's text as the daemon cut it. Keyed by row id, so a
// row that stays keeps its element (and its focus, its editor, its fading highlight).

import { SectionHeaders } from "./section-headers.js";

const ROW_PADDING = 16; // padding.row
const HEADER_PADDING = 8; // padding.header

function element(tag, className, attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function place(node, x, y, width, height) {
  if (x !== undefined) node.style.left = `${x}px`;
  if (y !== undefined) node.style.top = `${y}px`;
  if (width !== undefined) node.style.width = `${width}px`;
  if (height !== undefined) node.style.height = `${height}px`;
}

/** How far the window's columns are scrolled sideways: their `x` is in the viewport's terms. */
function offset(window) {
  return window.viewport?.x ?? 0;
}

/** How far the window is scrolled down: rows' and headers' `y` are on screen, so they sit in
 * the scrolled content at `y` plus this. */
function top(window) {
  return window.viewport?.y ?? 0;
}

export class TableView {
  /** Draws into `content` (the scrolled box) for `app` (which edits, selects and sorts). */
  constructor(content, app) {
    this.content = content;
    this.app = app;
    this.rowNodes = new Map();
    this.sections = new SectionHeaders(content, app);
    this.header = element("div", "header", { role: "row", "aria-rowindex": "1" });
    content.append(this.header);
  }

  render(window, roles) {
    const content = this.content;
    content.style.height = `${window.contentHeight}px`;
    content.style.width = `${window.contentWidth}px`;
    this.renderHeader(window, roles);
    this.sections.render(window, { columns: true });
    this.renderRows(window, roles);
  }

  renderHeader(window, roles) {
    const header = this.header;
    header.replaceChildren();
    header.classList.toggle("shadow", Boolean(window.header?.shadow));
    place(header, undefined, undefined, window.contentWidth, window.header?.height ?? 0);
    const left = window.accessories?.left;
    if (left?.kind === "checkbox") {
      const box = element("div", "accessory left", { role: roles.header ?? "columnheader" });
      place(box, left.x + offset(window), 0, left.width, window.header.height);
      const all = element("input", "", { type: "checkbox", "aria-label": "Select all rows" });
      all.checked = window.total > 0 && window.selected === (window.shown ?? window.total);
      all.addEventListener("change", () => this.app.selectAll(all.checked));
      box.append(all);
      header.append(box);
    }
    window.columns.forEach((column, index) => {
      const cell = element("div", `hcell align-${column.align}`, {
        role: roles.header ?? "columnheader",
        "aria-colindex": String(index + 1),
        "data-column": column.key,
      });
      if (column.sort) cell.setAttribute("aria-sort", column.sort);
      if (column.readOnly) cell.setAttribute("aria-readonly", "true");
      place(cell, column.x + offset(window), 0, column.width, window.header.height);
      if (column.sticky) cell.dataset.sticky = "true";
      cell.style.paddingTop = `${HEADER_PADDING}px`;
      const label = element("span", "label");
      label.textContent = column.header.join("\n");
      cell.append(label);
      if (column.sort) {
        const mark = element("span", "sort-mark", { "aria-hidden": "true" });
        mark.textContent = column.sort === "descending" ? "▼" : "▲";
        cell.append(mark);
      }
      cell.addEventListener("click", () => this.app.sortBy(column.key, column.sort));
      header.append(cell);
    });
  }

  renderRows(window, roles) {
    const keep = new Set();
    for (const row of window.rows) {
      keep.add(row.id);
      let node = this.rowNodes.get(row.id);
      if (!node) {
        node = element("div", "row", { role: roles.row ?? "row" });
        node.dataset.id = String(row.id);
        this.rowNodes.set(row.id, node);
        this.content.append(node);
        if (this.app.isFresh(row.id)) node.classList.add("fresh");
      }
      this.renderRow(node, row, window, roles);
    }
    for (const [id, node] of this.rowNodes) {
      if (!keep.has(id)) {
        node.remove();
        this.rowNodes.delete(id);
      }
    }
  }

  renderRow(node, row, window, roles) {
    place(node, 0, row.y + top(window), window.contentWidth, row.height);
    node.setAttribute("aria-rowindex", String(row.index + 2));
    node.setAttribute("aria-selected", row.selected ? "true" : "false");
    node.classList.toggle("selected", Boolean(row.selected));
    node.classList.toggle("tall", Boolean(row.tall));
    const editing = node.querySelector("input.editor");
    if (editing) return; // the editor keeps its box until it is done
    node.replaceChildren();
    const left = window.accessories?.left;
    if (left?.kind === "checkbox") {
      const box = element("div", "accessory left", { role: roles.cell ?? "cell" });
      place(box, left.x + offset(window), 0, left.width, row.height);
      const check = element("input", "", { type: "checkbox", "aria-label": `Select row ${row.index + 1}` });
      check.checked = Boolean(row.selected);
      check.addEventListener("change", () => this.app.select(row.id, check.checked));
      box.append(check);
      node.append(box);
    }
    if (left?.kind === "syncStatus") {
      const box = element("div", "accessory left sync-status", { role: roles.cell ?? "cell" });
      place(box, left.x + offset(window), 0, left.width, row.height);
      box.textContent = row.syncStatus ?? "";
      box.title = row.syncStatus ?? "";
      node.append(box);
    }
    const right = window.accessories?.right;
    if (right?.kind === "chevron" && row.drillDown) {
      const box = element("div", "accessory right", { role: roles.cell ?? "cell", "aria-label": "Show details" });
      place(box, right.x + offset(window), 0, right.width, row.height);
      box.textContent = "›";
      node.append(box);
    }
    const readOnly = new Set(row.readOnly ?? []);
    window.columns.forEach((column, index) => {
      const cell = element("div", `cell align-${column.align}`, {
        role: roles.cell ?? "cell",
        "aria-colindex": String(index + 1),
        "data-column": column.key,
        id: `cell-${row.id}-${column.key}`,
      });
      place(cell, column.x + offset(window), 0, column.width, row.height);
      if (column.sticky) cell.dataset.sticky = "true";
      cell.style.paddingTop = row.tall ? `${ROW_PADDING}px` : "";
      if (column.readOnly || readOnly.has(column.key)) {
        cell.setAttribute("aria-readonly", "true");
        cell.dataset.readOnly = "true";
      }
      const draft = row.drafts?.[column.key];
      const text = element("span", "text");
      // The cell already shows the draft's text; its reason goes under the cell.
      text.textContent = row.cells[index] ?? "";
      cell.append(text);
      if (draft) {
        cell.classList.add("draft");
        const message = element("div", "draft-message", { role: "alert" });
        message.textContent = draft.error;
        cell.append(message);
      }
      if (this.app.focus?.id === row.id && this.app.focus?.column === column.key) cell.classList.add("focused");
      cell.addEventListener("click", () => this.app.focusCell(row.id, column.key));
      cell.addEventListener("dblclick", () => this.app.edit(row.id, column.key));
      node.append(cell);
    });
  }

  /** The drawn row of `id`, if any. */
  rowNode(id) {
    return this.rowNodes.get(id);
  }

  /** The box of the cell of row `id` and column `key`, if drawn. */
  cell(id, key) {
    return this.rowNodes.get(id)?.querySelector(`[data-column="${CSS.escape(key)}"]`);
  }

  /** Keeps the sticky parts (the left accessory, the sticky first column, which the daemon has
   * already narrowed for the window's horizontal offset) where the window put them while the
   * content scrolls sideways to `x`, until the next window arrives. */
  stick(window, x) {
    const shift = x - offset(window);
    for (const node of this.content.querySelectorAll(".accessory.left, .accessory.right, [data-sticky]")) {
      node.style.transform = shift ? `translateX(${shift}px)` : "";
      node.classList.toggle("stuck", Boolean(window.horizontalScroll ?? offset(window)));
    }
  }
}
