// A small markdown renderer for the airline's policy text: exactly the constructs it uses (`#`
// headings, paragraphs, a pipe table, `- ` bullets), built as DOM nodes whose text is set with
// textContent, never parsed as HTML. Headings go one level down: the screen's own title is the h1.

const KINDS = [["heading", /^#{1,5}\s/], ["table", /^\|/], ["list", /^-\s/]];

export function renderMarkdown(text) {
  return blocks(String(text).split("\n")).map(render);
}

function kindOf(line) {
  return (KINDS.find(([, pattern]) => pattern.test(line)) || ["paragraph"])[0];
}

// Consecutive lines of one kind make a block; a blank line ends one, and a heading is one line.
function blocks(lines) {
  const found = [];
  let open = null;
  for (const line of lines.map((l) => l.trim())) {
    const kind = kindOf(line);
    if (!line || kind === "heading" || open?.kind !== kind) open = null;
    if (!line) continue;
    if (!open) found.push((open = { kind, lines: [] }));
    open.lines.push(line);
  }
  return found;
}

function element(tag, text) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  return el;
}

function render({ kind, lines }) {
  if (kind === "heading") {
    const [, marks, title] = /^(#+)\s+(.*)$/.exec(lines[0]);
    return element(`h${marks.length + 1}`, title);
  }
  if (kind === "list") {
    const list = element("ul");
    list.append(...lines.map((line) => element("li", line.replace(/^-\s+/, ""))));
    return list;
  }
  if (kind === "table") return table(lines.map(cells));
  return element("p", lines.join(" "));
}

function cells(line) {
  return line.replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());
}

// The row above the `| --- |` separator is the header.
function table(rows) {
  const isSeparator = (row) => row.every((cell) => /^:?-+:?$/.test(cell));
  const split = rows.findIndex(isSeparator);
  const el = element("table");
  el.append(...rows.map((row, i) => {
    if (i === split) return null;
    const tr = element("tr");
    const header = i < split;
    tr.append(...row.map((text) => {
      const cell = element(header ? "th" : "td", text);
      if (header) cell.scope = "col";
      return cell;
    }));
    return tr;
  }).filter(Boolean));
  return el;
}
