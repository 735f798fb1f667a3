// Draws a window in list mode (the list report of compact width): each row one object view,
// each bound field at its own `x` and width, headline, subheadline and footnote one line each
// below the row's padding, status and substatus in the trailing area.

import { SectionHeaders } from "./section-headers.js";

const ROW_PADDING = 16;

export class ListView {
  constructor(content, app) {
    this.content = content;
    this.app = app;
    this.rowNodes = new Map();
    this.sections = new SectionHeaders(content, app);
  }

  render(window, roles) {
    this.content.style.height = `${window.contentHeight}px`;
    this.content.style.width = `${window.contentWidth}px`;
    this.sections.render(window, { columns: false });
    const lineHeight = 18;
    const keep = new Set();
    for (const row of window.rows) {
      keep.add(row.id);
      let node = this.rowNodes.get(row.id);
      if (!node) {
        node = document.createElement("div");
        node.className = "row list-row";
        node.setAttribute("role", roles.row ?? "row");
        node.dataset.id = String(row.id);
        if (this.app.isFresh(row.id)) node.classList.add("fresh");
        this.rowNodes.set(row.id, node);
        this.content.append(node);
      }
      node.style.top = `${row.y + (window.viewport?.y ?? 0)}px`; // y is on screen
      node.style.height = `${row.height}px`;
      node.style.width = `${window.contentWidth}px`;
      node.setAttribute("aria-rowindex", String(row.index + 1));
      node.setAttribute("aria-selected", row.selected ? "true" : "false");
      node.replaceChildren();
      const stacked = { headline: 0, subheadline: 1, footnote: 2, status: 0, substatus: 1 };
      window.columns.forEach((column, index) => {
        if (!column.binding || !(column.binding in stacked)) return;
        const field = document.createElement("div");
        field.className = `field ${column.binding} align-${column.binding === "status" || column.binding === "substatus" ? "trailing" : "leading"}`;
        field.setAttribute("role", roles.cell ?? "cell");
        field.dataset.column = column.key;
        field.style.left = `${column.x}px`;
        field.style.width = `${column.width}px`;
        field.style.top = `${ROW_PADDING + stacked[column.binding] * lineHeight}px`;
        field.style.height = `${lineHeight}px`;
        field.textContent = row.cells[index] ?? "";
        node.append(field);
      });
    }
    for (const [id, node] of this.rowNodes) {
      if (!keep.has(id)) {
        node.remove();
        this.rowNodes.delete(id);
      }
    }
  }

  stick() {}

  /** The drawn row of `id`, if any. */
  rowNode(id) {
    return this.rowNodes.get(id);
  }
}
