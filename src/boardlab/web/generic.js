// The generic renderer: the seat's JSON view as a readable tree. Per-game renderers live in
// games/<game>.js and export the same function: render(container, ctx) where ctx is
// { view, seat, state (the server's state message, or a replay step), legal: [{action, text}],
//   act(notation) -> sends a move, lang, t(key) }.
// Legal moves are drawn as buttons by the shell; a renderer may also call ctx.act on clicks.
export function render(container, ctx) {
  container.replaceChildren();
  const pre = document.createElement("div");
  pre.className = "json-view";
  pre.append(tree(ctx.view));
  container.append(pre);
}

function tree(v) {
  if (v === null || typeof v !== "object") {
    const s = document.createElement("span");
    s.className = `json-${v === null ? "null" : typeof v}`;
    s.textContent = JSON.stringify(v);
    return s;
  }
  const isArr = Array.isArray(v);
  if (isArr && v.every((x) => x === null || typeof x !== "object")) {
    const s = document.createElement("span");
    s.textContent = `[${v.map((x) => JSON.stringify(x)).join(", ")}]`;
    return s;
  }
  const dl = document.createElement("dl");
  for (const [k, x] of Object.entries(v)) {
    const dt = document.createElement("dt");
    dt.textContent = isArr ? `#${k}` : k;
    const dd = document.createElement("dd");
    dd.append(tree(x));
    dl.append(dt, dd);
  }
  return dl;
}
