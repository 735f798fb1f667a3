// A watched window kept current by the daemon's `window` deltas, applied as protocol.md's
// `watch` says: `set`, then `removed`, `changed`, `added`, rows in order of `index`, then
// `sections`. Applying every delta gives what a fresh `scroll` would return.

/** Applies `delta` (a `window` notification's params, or a `watch` reply's `delta`) to `window`. */
export function applyDelta(window, delta) {
  for (const [member, value] of Object.entries(delta.set ?? {})) {
    if (value === null) delete window[member];
    else window[member] = value;
  }
  if (delta.version !== undefined) window.version = delta.version;
  const removed = new Set(delta.removed ?? []);
  let rows = (window.rows ?? []).filter((row) => !removed.has(row.id));
  const byID = new Map(rows.map((row) => [row.id, row]));
  const columnIndex = new Map((window.columns ?? []).map((column, index) => [column.key, index]));
  for (const change of delta.changed ?? []) {
    const row = byID.get(change.id);
    if (!row) continue;
    for (const [member, value] of Object.entries(change)) {
      if (member === "id") continue;
      if (member === "cells" || member === "values") {
        const cells = row[member] ?? [];
        for (const [key, text] of Object.entries(value)) {
          const index = columnIndex.get(key);
          if (index !== undefined) cells[index] = text;
        }
        row[member] = cells;
      } else if (value === null) {
        delete row[member];
      } else {
        row[member] = value;
      }
    }
  }
  rows = rows.concat(delta.added ?? []);
  rows.sort((a, b) => a.index - b.index);
  window.rows = rows;
  if (delta.sections && window.sections) applySectionDelta(window.sections, delta.sections);
  return window;
}

function headerKey(header) {
  return header.path ? JSON.stringify(header.path) : JSON.stringify(header.title);
}

function applySectionDelta(sections, delta) {
  for (const [member, value] of Object.entries(delta.set ?? {})) {
    if (value === null) delete sections[member];
    else sections[member] = value;
  }
  const removed = new Set((delta.removed ?? []).map((key) => JSON.stringify(key)));
  let shown = (sections.shown ?? []).filter((header) => !removed.has(headerKey(header)));
  const byKey = new Map(shown.map((header) => [headerKey(header), header]));
  for (const change of delta.changed ?? []) {
    const header = byKey.get(headerKey(change));
    if (!header) continue;
    for (const [member, value] of Object.entries(change)) {
      if (value === null) delete header[member];
      else header[member] = value;
    }
  }
  shown = shown.concat(delta.added ?? []);
  shown.sort((a, b) => a.y - b.y || (a.level ?? 0) - (b.level ?? 0));
  sections.shown = shown;
}
