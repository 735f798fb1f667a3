// Draws a window's section headers (and its grand total), keyed by their path, for the table
// and the list report alike: each header at the `y` the daemon gave (on screen, so placed at
// `y` plus the window's offset), indented by its level, with the disclosure that collapses or
// expands its group and its count. In a table each total stands under its own column; in the
// list report, which has no columns, the totals follow the title at the trailing edge.

const CELL_PADDING = 12; // layout's padding.cell, the default the page asks for
const LEVEL_INDENT = 16; // a nested group's header stands in by this much a level
const DISCLOSURE_WIDTH = 20; // the collapse/expand button before a group's title

export class SectionHeaders {
  /** Draws into `content` for `app` (which collapses and expands groups). */
  constructor(content, app) {
    this.content = content;
    this.app = app;
    this.nodes = new Map();
  }

  /** Draws `window`'s headers; `columns` true puts totals under their columns. */
  render(window, { columns }) {
    const sections = window.sections;
    const shown = [...(sections?.shown ?? [])];
    if (sections?.grandTotal) shown.push({ ...sections.grandTotal, title: "Total", grand: true });
    const top = window.viewport?.y ?? 0;
    const keep = new Set();
    for (const section of shown) {
      const key = section.grand ? "grand-total" : JSON.stringify(section.path ?? [section.title]);
      keep.add(key);
      let node = this.nodes.get(key);
      if (!node) {
        node = document.createElement("div");
        node.className = section.grand ? "section-header grand-total" : "section-header";
        node.setAttribute("role", "row");
        this.nodes.set(key, node);
        this.content.append(node);
      }
      node.style.top = `${section.y + top}px`;
      node.style.width = `${window.contentWidth}px`;
      node.style.height = `${section.height}px`;
      node.replaceChildren();
      node.dataset.level = String(section.level ?? 0);
      const indent = CELL_PADDING + (section.level ?? 0) * LEVEL_INDENT;
      if (!section.grand) node.append(this.disclosure(node, section, indent));
      const title = span("section-title");
      title.style.left = `${indent + (section.grand ? 0 : DISCLOSURE_WIDTH)}px`;
      title.textContent = section.grand ? "Total" : `${titleText(section.title)} (${section.count})`;
      node.append(title);
      if (columns) this.totalsUnderColumns(node, section, window);
      else this.totalsAtTheEnd(node, section);
    }
    for (const [key, node] of this.nodes) {
      if (!keep.has(key)) {
        node.remove();
        this.nodes.delete(key);
      }
    }
  }

  /** The button that collapses (▾) or expands (▸) the group; a collapsed group keeps its
   * header, count and totals, not its rows. */
  disclosure(node, section, indent) {
    const path = section.path ?? [section.title];
    const expanded = !section.collapsed;
    node.setAttribute("aria-expanded", String(expanded));
    const toggle = document.createElement("button");
    toggle.className = "disclosure";
    toggle.type = "button";
    toggle.setAttribute("aria-label", `${expanded ? "Collapse" : "Expand"} ${path.map(titleText).join(" › ")}`);
    toggle.textContent = expanded ? "▾" : "▸";
    toggle.style.left = `${indent}px`;
    toggle.addEventListener("click", () => this.app.collapse({ group: path }, expanded, section));
    return toggle;
  }

  totalsUnderColumns(node, section, window) {
    const columns = new Map(window.columns.map((column) => [column.key, column]));
    const shift = window.viewport?.x ?? 0;
    for (const [key, texts] of totalsByColumn(section)) {
      const column = columns.get(key);
      if (!column || column.x === undefined) continue;
      const cell = span(`section-total align-${column.align}`);
      cell.dataset.column = key;
      cell.style.left = `${column.x + shift}px`;
      cell.style.width = `${column.width}px`;
      cell.textContent = texts.join(" · ");
      node.append(cell);
    }
  }

  totalsAtTheEnd(node, section) {
    const parts = [];
    const labels = new Map(this.app.schema.columns.map((column) => [column.key, column.label]));
    for (const [key, texts] of totalsByColumn(section)) parts.push(`${labels.get(key) ?? key} ${texts.join(" · ")}`);
    if (!parts.length) return;
    const cell = span("section-total at-end");
    cell.title = parts.join(", ");
    cell.style.right = "0";
    cell.textContent = parts.join(", ");
    node.append(cell);
  }
}

/** A group's title as drawn: the empty value's group is "—". */
function titleText(title) {
  return title === "" || title === null || title === undefined ? "—" : String(title);
}

/** The section's totals' texts by column key, in the daemon's order. */
function totalsByColumn(section) {
  const byColumn = new Map();
  for (const total of section.aggregates ?? []) {
    if (!byColumn.has(total.column)) byColumn.set(total.column, []);
    byColumn.get(total.column).push(total.text ?? "");
  }
  return byColumn;
}

function span(className) {
  const node = document.createElement("span");
  node.className = className;
  return node;
}
