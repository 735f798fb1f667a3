// The widget a column's type is edited with, in a cell and in the add-row form: a list of the
// options for a picker, the browser's date and time inputs for dates and times, a checkbox for a
// boolean, text otherwise (numbers, durations and instants are written as a person types them,
// which the daemon reads). Each widget's `value` is what is sent to `edit` or `add`.

/** A widget for `column` (from `describe`) holding `value` (the cell's typed value, or null)
 * and, where the typed value is not what a person would edit, `text` (the cell as shown). */
export function makeEditor(column, value, text) {
  switch (column.type) {
    case "picker": {
      const select = document.createElement("select");
      if (!column.required || value === null || value === undefined) select.append(new Option("", ""));
      for (const option of column.options ?? []) select.append(new Option(option, option));
      select.value = value ?? "";
      return widget(select, () => (select.value === "" ? null : select.value));
    }
    case "date":
      return typed("date", value, column);
    case "time": {
      const input = typed("time", value, column);
      input.step = "1";
      return input;
    }
    case "boolean": {
      const input = document.createElement("input");
      input.type = "checkbox";
      input.checked = value === true;
      return widget(input, () => input.checked);
    }
    case "number": {
      const input = document.createElement("input");
      input.inputMode = "decimal";
      input.value = value === null || value === undefined ? "" : String(value);
      return widget(input, () => (input.value === "" ? null : input.value));
    }
    default: {
      const input = document.createElement("input");
      input.value = text ?? (value === null || value === undefined ? "" : String(value));
      return widget(input, () => (input.value === "" ? null : input.value));
    }
  }
}

function typed(type, value, column) {
  const input = document.createElement("input");
  input.type = type;
  if (column.min !== undefined) input.min = String(column.min);
  if (column.max !== undefined) input.max = String(column.max);
  input.value = typeof value === "string" ? value : "";
  return widget(input, () => (input.value === "" ? null : input.value));
}

/** Gives `node` a `read()` that returns the value to send. */
function widget(node, read) {
  node.read = read;
  return node;
}
