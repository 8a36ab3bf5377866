// Block and Key in the browser: the temple as an isometric SVG (height shading, turnable a quarter at a time),
// the five projections (your own side marked), the excavation site, every player's blocks and claimed keys,
// your key hand with the key patterns drawn (keys visible right now highlighted) and your Enigma colour.
//
// Contract (see ../generic.js): render(container, ctx), ctx = { view, seat, state, legal, act, lang, t }.
// Whatever can be clicked comes from ctx.legal: a site row/column button digs, a block in your supply selects
// it, then a highlighted floor cell lists the legal placements over that cell; "next" cycles them (orientation
// and height) with a preview in the temple, "place" plays it. Other decisions are buttons in the prompt bar.
// The game's words (terms.json, en + zh-TW) come from the server (/api/games -> renderer_data).
import { el, loadStylesheet } from "/static/common.js";
import { bracket, labelled, track } from "/static/renderkit.js";

const INFO = await fetch("/api/games").then((r) => r.json()).then((g) => g.games.find((x) => x.name === "block_and_key"))
  .catch(() => null);
const TERMS = ((INFO && INFO.renderer_data) || {}).terms || {};
const COMP = ((INFO && INFO.renderer_data) || {}).components || {};
await loadStylesheet("/static/games/block_and_key.css");

const UI = {
  en: {
    note: "About the components: the temple floor, the 10 block shapes, the colours, the 48 key cards and the Enigma "
      + "cards are a reconstruction designed for boardlab (no public card list exists). They are not the published game.",
    temple: "Temple", turn_view: "Turn the view ⟳", views: "Projections", yours: "your side", site: "Excavation site",
    bag: "bag: {n}", sun: "Sun {n}", moon: "Moon {n}", hand: "Your keys", enigma: "Your Enigma colour: {c} ({n} faces)",
    visible: "visible now", claimed: "claimed", blocks: "blocks", pick_block: "Click one of your blocks to place it, or dig a row or column.",
    pick_cell: "Click a highlighted floor cell.", choice: "Placement {i} of {n}: {what}", next: "Next ⟳", place: "Place",
    cancel: "Cancel", keys_n: "{n} keys · {p} pts", keys_n_one: "{n} key · {p} pts", final_round: "final round", threshold: "game ends at {n} keys",
    solo: "Solo turn {n} / {of}", ancients: "Ancients: card {card}, block {block}", rating: "Rating: {t}",
    top: "above", S: "south", E: "east", N: "north", W: "west", dig: "dig", dig_r: "dig row {n}", dig_c: "dig column {n}", views_any: "keys: any view",
    views_own: "keys: own side only",
  },
  "zh-TW": {
    note: "關於配件：神廟地板、10 種方塊形狀、顏色、48 張鑰匙卡與謎之卡皆為 boardlab 的重建設計（沒有公開的卡片清單），並非實際出版的遊戲配件。",
    temple: "神廟", turn_view: "轉動視角 ⟳", views: "投影", yours: "你這一側", site: "挖掘現場",
    bag: "袋子：{n}", sun: "日之鑰 {n}", moon: "月之鑰 {n}", hand: "你的鑰匙卡", enigma: "你的謎之卡顏色：{c}（{n} 面）",
    visible: "現在可完成", claimed: "已完成", blocks: "方塊", pick_block: "點選你的方塊來放置，或挖掘一行或一列。",
    pick_cell: "點選一個標示的地板格。", choice: "擺法 {i} / {n}：{what}", next: "下一個 ⟳", place: "放置",
    cancel: "取消", keys_n: "{n} 張鑰匙 · {p} 分", final_round: "最後一輪", threshold: "{n} 張鑰匙時結束",
    solo: "單人模式第 {n} / {of} 回合", ancients: "古人：卡片 {card}，方塊 {block}", rating: "評價：{t}",
    top: "上方", S: "南側", E: "東側", N: "北側", W: "西側", dig: "挖掘", dig_r: "挖掘第 {n} 列", dig_c: "挖掘第 {n} 行", views_any: "鑰匙：任一視角",
    views_own: "鑰匙：只限自己這一側",
  },
};
const COLOUR = { W: "#f2efe6", G: "#9a9a9a", R: "#c8452f", B: "#3566b8", "*": "#d9b23a" };
const LINES = ["r1", "r2", "r3", "c1", "c2", "c3"];
const SITE_LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8]];
let lang = "en";
const sel = { key: null, block: null, cell: null, i: 0, turn: 0, orient: null };
let current = null;

function ui(k, p = {}) {
  const s = (UI[lang] && UI[lang][k]) || UI.en[k] || k;
  return s.replace(/\{(\w+)\}/g, (_, x) => (p[x] ?? ""));
}
function term(k, p = {}) {
  const s = (TERMS[lang] && TERMS[lang][k]) || (TERMS.en && TERMS.en[k]) || k;
  return s.replace(/\{(\w+)\}/g, (_, x) => (p[x] ?? ""));
}
function shade(hex, f) {
  const n = parseInt(hex.slice(1), 16);
  const c = [n >> 16, (n >> 8) & 255, n & 255].map((v) => Math.max(0, Math.min(255, Math.round(v * f))));
  return `rgb(${c.join(",")})`;
}

// -- the temple in isometric view ----------------------------------------------------------------------------
const A = 17, B = 9.5, C = 19;
function rot(x, y, w, d, r) { // the camera turned r quarter turns
  for (let k = 0; k < r; k++) { [x, y] = [y, w - 1 - x]; [w, d] = [d, w]; }
  return [x, y];
}
function temple(v, preview) {
  const t = v.temple;
  const W = t.width, D = t.depth, r = sel.turn;
  const dims = r % 2 ? [D, W] : [W, D];
  const pt = (x, y, z) => [(x - y) * A, -(x + y) * B - z * C];
  const cubes = [];
  const [cx, cy] = t.core;
  for (let z = 0; z < 2; z++) for (let y = cy; y < cy + 2; y++) for (let x = cx; x < cx + 2; x++) cubes.push({ x, y, z, core: true });
  for (const b of t.blocks) for (const [x, y, z] of b.cubes) cubes.push({ x, y, z, colour: b.colour, block: b.block, anc: b.by < 0 });
  for (const c of preview || []) cubes.push({ x: c[0], y: c[1], z: c[2], colour: c[3], preview: true });
  for (const c of cubes) [c.rx, c.ry] = rot(c.x, c.y, W, D, r);
  cubes.sort((a, b) => (b.rx + b.ry) - (a.rx + a.ry) || a.z - b.z || (a.preview ? 1 : 0) - (b.preview ? 1 : 0));
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  const pad = 12;
  const minX = -dims[1] * A - pad, maxX = dims[0] * A + pad, minY = -(dims[0] + dims[1]) * B - 7 * C - pad, maxY = pad;
  svg.setAttribute("viewBox", `${minX} ${minY} ${maxX - minX} ${maxY - minY}`);
  svg.setAttribute("class", "bk-iso");
  svg.dataset.core = coreSides(t).join("");
  const poly = (pts, fill, cls, explain, key) => {
    const p = document.createElementNS(NS, "polygon");
    if (key) track(p, key, fill); // moves you can follow: a placed block's faces drop in, a turned core's recolour
    p.setAttribute("points", pts.map((q) => q.join(",")).join(" "));
    p.setAttribute("fill", fill);
    if (cls) p.setAttribute("class", cls);
    if (explain) p.dataset.explain = explain; // a cube's face explains its block (explain.js)
    svg.append(p);
  };
  poly([pt(0, 0, 0), pt(dims[0], 0, 0), pt(dims[0], dims[1], 0), pt(0, dims[1], 0)], "#e3d7bd", "bk-floor");
  const sideWorld = [(0 + r) % 4, (3 + r) % 4]; // world side (S,E,N,W index) of the drawn -y and -x faces
  for (const c of cubes) {
    const { rx: x, ry: y, z } = c;
    const h = 0.78 + 0.05 * z; // height shading: higher is lighter
    let top, front, left;
    if (c.core) {
      const sides = coreSides(t);
      top = COLOUR["*"];
      front = COLOUR[sides[sideWorld[0]]];
      left = COLOUR[sides[sideWorld[1]]];
    } else top = front = left = COLOUR[c.colour];
    const cls = c.preview ? "bk-preview" : c.anc ? "bk-anc" : "";
    const what = c.core ? "core" : c.block ? `block:${c.block}` : null;
    const at = c.preview ? null : `cube:${c.x},${c.y},${c.z}`; // world place: the same key whichever way the camera turns
    poly([pt(x, y, z + 1), pt(x + 1, y, z + 1), pt(x + 1, y + 1, z + 1), pt(x, y + 1, z + 1)], shade(top, h + 0.12), cls, what, at && `${at}:t`);
    poly([pt(x, y, z), pt(x + 1, y, z), pt(x + 1, y, z + 1), pt(x, y, z + 1)], shade(front, h - 0.08), cls, what, at && `${at}:f`);
    poly([pt(x, y, z), pt(x, y + 1, z), pt(x, y + 1, z + 1), pt(x, y, z + 1)], shade(left, h - 0.22), cls, what, at && `${at}:l`);
  }
  return svg;
}

// The core cube's faces (S, E, N, W) as they are, or as the hovered "turn the core cube" choice would set them:
// the first decision of the game, previewed in the temple before it is made.
function coreSides(t) {
  if (sel.orient === null) return t.core_sides;
  const shift = ((sel.orient - (t.core_turn || 0)) % 4 + 4) % 4;
  return t.core_sides.map((_, k) => t.core_sides[(k + shift) % 4]);
}
function coreSwatches(t, n) { // four swatches, south east north west, for an orient button
  const shift = ((n - (t.core_turn || 0)) % 4 + 4) % 4;
  return el("span", { class: "bk-faces", "aria-hidden": "true" }, ...["S", "E", "N", "W"].map((d, k) =>
    el("span", { class: `bk-swatch c-${t.core_sides[(k + shift) % 4]}`, title: ui(d) })));
}

// -- blocks in words and pictures -------------------------------------------------------------------------------
function colourName(c) {
  const col = (COMP.colours || []).find((x) => x.id === c);
  return col ? (col.name[lang] || col.name.en) : c;
}
function blockName(id) { // "red L-shaped four": the game's own words (terms.json), the code stays beside it
  return term("block_name", { colour: colourName(id[0]), shape: term(`shape_${id.slice(1)}`) });
}
function shapePicture(id) { // the block's cells seen from above, in its colour
  const shape = (COMP.shapes || []).find((x) => x.id === id.slice(1));
  const rows = shape ? shape.cells : ["#"];
  return el("span", { class: "bk-shape", style: `grid-template-columns:repeat(${rows[0].length},1fr)`, "aria-hidden": "true" },
    ...rows.flatMap((row) => [...row].map((ch) => el("i", { class: ch === "#" ? "on" : "" }))));
}

// -- projections, site, keys ----------------------------------------------------------------------------------
function grid(rows, cls, cellFn) {
  return el("div", { class: `bk-grid2 ${cls || ""}`, style: `grid-template-columns:repeat(${rows[0].length},1fr)` },
    ...rows.flatMap((row, r) => [...row].map((ch, c) => {
      const cell = el("span", { class: `bk-cell c-${ch === "*" ? "gold" : ch === "." ? "none" : ch}` });
      if (cellFn) cellFn(cell, r, c, ch);
      return cell;
    })));
}
function keyCard(k, extra = "") {
  return el("div", { class: `bk-key bk-${k.deck} ${extra}`, "data-key": k.id, "data-track": `key:${k.id}`, "data-explain": `key:${k.id}` },
    el("div", { class: "bk-key-head" }, el("span", {}, k.id), el("b", {}, k.points)),
    grid(k.pattern, "bk-pat"),
    el("div", { class: "bk-key-foot" }, "★".repeat(k.stars), " ", "•".repeat(k.pips)));
}
function blockChip(id, cls, onclick) {
  const name = blockName(id);
  return el("button", { class: `bk-block ${cls || ""}`, "data-block": id, "data-track": `block:${id}`, "data-explain": `block:${id}`, onclick,
    style: `--c:${COLOUR[id[0]]}`, "aria-label": `${name}${bracket(lang, id)}` }, shapePicture(id), el("span", { class: "bk-code" }, id));
}

// -- legal moves ---------------------------------------------------------------------------------------------
function parseLegal(legal) {
  const L = { dig: new Map(), place: new Map(), other: [] };
  for (const m of legal || []) {
    const a = m.action, parts = a.split(" ");
    if (parts[0] === "dig") L.dig.set(parts[1], m);
    else if (parts[0] === "place" || parts[0] === "ancients") {
      const [kind, block, o, sq, lv] = parts;
      const x = "abcdefgh".indexOf(sq[0]), y = Number(sq.slice(1)) - 1, z = Number(lv) - 1;
      if (!L.place.has(block)) L.place.set(block, []);
      L.place.get(block).push({ m, kind, block, o: Number(o), x, y, z });
    } else L.other.push(m);
  }
  return L;
}
function cubesOf(v, p) {
  const shape = p.block.slice(1);
  return (v.orientations[shape] || [])[p.o].map(([dx, dy, dz]) => [p.x + dx, p.y + dy, p.z + dz, p.block[0]]);
}

function redraw() { if (current) render(current.container, current.ctx); }

// -- entry point ------------------------------------------------------------------------------------------------
export const ownsMoves = true;

export function render(container, ctx) {
  lang = ctx.lang === "zh-TW" ? "zh-TW" : "en";
  current = { container, ctx };
  const v = ctx.view, st = ctx.state || {};
  const key = `${st.table}:${st.version ?? st.step}:${ctx.seat}`;
  if (sel.key !== key) { sel.key = key; sel.cell = null; sel.i = 0; }
  const L = parseLegal(ctx.legal);
  if (sel.block && !L.place.has(sel.block)) sel.block = null;
  if (!sel.block && L.place.size === 1 && [...L.place.values()][0][0].kind === "ancients") sel.block = [...L.place.keys()][0];
  const mine = (ctx.legal || []).length > 0;
  const me = ctx.seat !== null && ctx.seat !== undefined ? v.seats[ctx.seat] : null;
  const root = el("div", { class: "bk-root", lang, "data-mine": mine ? "1" : "0", "data-over": v.scores ? "1" : "0",
    "data-version": st.version ?? st.step ?? "", "data-phase": v.phase });

  // placement choices for the selected block and cell
  const spots = sel.block ? L.place.get(sel.block) : [];
  const covering = (x, y) => spots.filter((p) => cubesOf(v, p).some((c) => c[0] === x && c[1] === y));
  const chosen = sel.cell ? covering(sel.cell[0], sel.cell[1]) : [];
  const preview = chosen.length ? cubesOf(v, chosen[sel.i % chosen.length]) : null;

  // header
  root.append(el("p", { class: "bk-note", id: "bk-provenance" }, "◇ ", ui("note")));
  const info = [ui(v.options.key_views === "any" ? "views_any" : "views_own"), ui("threshold", { n: v.threshold })];
  if (v.final_round) info.push(ui("final_round"));
  if (v.solo) info.push(ui("solo", { n: v.solo_turn, of: v.solo_turns }));
  if (v.solo && v.ancients && v.ancients.card) info.push(ui("ancients", { card: v.ancients.card, block: v.ancients.block || "—" }));
  if (v.rating) info.push(ui("rating", { t: v.rating[lang] || v.rating.en }));
  root.append(el("div", { class: "bk-info" }, ...info.map((s) => el("span", {}, s))));

  // prompt bar
  const t = v.temple;
  if (v.phase !== "orient") sel.orient = null;
  const bar = el("div", { class: "bk-bar" });
  if (mine) {
    bar.append(el("span", { class: "bk-phase" }, term(`phase_${v.phase}`)));
    for (const m of L.other) {
      const turn = /^orient (\d)$/.exec(m.action);
      const b = el("button", { "data-action": m.action, onclick: () => { sel.orient = null; ctx.act(m.action); } },
        turn ? coreSwatches(t, Number(turn[1])) : "", m.text || m.action);
      if (turn) { // hovering (or focusing) a turn of the core cube previews it in the temple
        const show = (n) => () => { if (sel.orient !== n) { sel.orient = n; redraw(); } };
        b.addEventListener("mouseenter", show(Number(turn[1])));
        b.addEventListener("focus", show(Number(turn[1])));
      }
      bar.append(b);
    }
    if (L.place.size && !sel.block) bar.append(el("span", { class: "bk-hint" }, ui("pick_block")));
    if (sel.block && !chosen.length) bar.append(el("span", { class: "bk-hint" }, ui("pick_cell")));
    if (chosen.length) {
      const p = chosen[sel.i % chosen.length];
      bar.append(el("span", { class: "bk-hint bk-choice" }, ui("choice", { i: (sel.i % chosen.length) + 1, n: chosen.length, what: p.m.text || p.m.action })),
        el("button", { class: "bk-next", onclick: () => { sel.i++; redraw(); } }, ui("next")),
        el("button", { class: "primary bk-go", "data-action": p.m.action, onclick: () => { const a = p.m.action; sel.block = null; sel.cell = null; ctx.act(a); } }, ui("place")));
    }
    if (sel.block) bar.append(el("button", { class: "bk-cancel", onclick: () => { sel.block = null; sel.cell = null; redraw(); } }, ui("cancel")));
  }
  root.append(bar);

  // temple + top view (clickable) + side views
  const topRows = t.views.top;
  const topGrid = grid(topRows, "bk-top", (cell, r, c) => {
    const y = t.depth - 1 - r, x = c;
    const h = t.heights[y][x];
    if (h) cell.textContent = h;
    track(cell, `top:${x},${y}`);
    cell.dataset.x = x; cell.dataset.y = y;
    if (sel.block && covering(x, y).length) {
      cell.classList.add("bk-target");
      cell.addEventListener("click", () => { sel.cell = [x, y]; sel.i = 0; redraw(); });
    }
    if (preview && preview.some((q) => q[0] === x && q[1] === y)) cell.classList.add("bk-prev");
  });
  const side = me ? me.side : "S";
  const views = el("div", { class: "bk-views" }, ...["top", "S", "E", "N", "W"].map((name) =>
    el("figure", { class: `bk-view ${name === side ? "bk-own" : ""}`, "data-view": name },
      name === "top" ? topGrid : grid(t.views[name], "bk-side"),
      el("figcaption", {}, ui(name), name === side ? ` · ${ui("yours")}` : ""))));
  root.append(el("section", { class: "bk-board" },
    el("div", { class: "bk-iso-box" }, el("h3", {}, ui("temple"),
      el("button", { class: "bk-turn", onclick: () => { sel.turn = (sel.turn + 1) % 4; redraw(); } }, ui("turn_view"))), temple(v, preview)),
    el("div", {}, el("h3", {}, ui("views")), views)));

  // site
  const site = el("div", { class: "bk-site", "data-zone": "site" }, ...v.site.map((b, i) => el("span", { class: "bk-site-cell", "data-site": i + 1 },
    b ? blockChip(b, "bk-static") : "·")));
  const digs = el("div", { class: "bk-digs" }, ...LINES.map((ln) => {
    const m = L.dig.get(ln);
    return el("button", { class: "bk-dig", "data-action": m ? m.action : null, disabled: !m, onclick: () => m && ctx.act(m.action) },
      ui(`dig_${ln[0]}`, { n: ln.slice(1) })); // "dig row 1", not the notation "r1" (the game's terms' words)
  }));
  root.append(el("section", { class: "bk-sitebox" }, el("h3", {}, ui("site")), site, digs,
    el("p", { class: "bk-muted" }, ui("bag", { n: v.bag }), " · ", ui("sun", { n: v.decks.sun }), " · ", ui("moon", { n: v.decks.moon }))));

  // players
  const players = el("section", { class: "bk-players" });
  v.seats.forEach((p, q) => {
    const isMe = q === ctx.seat;
    const chips = p.supply.map((b) => {
      const can = isMe && L.place.has(b);
      const ret = isMe && L.other.find((m) => m.action === `return ${b}`);
      return blockChip(b, `${can ? "bk-can" : ""} ${sel.block === b ? "bk-sel" : ""}`,
        ret ? () => ctx.act(ret.action) : can ? () => { sel.block = b; sel.cell = null; sel.i = 0; redraw(); } : null);
    });
    const box = el("div", { class: `bk-player ${isMe ? "bk-mine" : ""} ${v.current_player === q ? "bk-current" : ""}`, "data-seat": q },
      track(el("h4", {}, term("player", { n: q + 1 }), bracket(lang, ui(p.side)), " · ", ui("keys_n", { n: p.claimed.length, p: p.key_points })), `head:${q}`),
      el("div", { class: "bk-chips" }, ...chips),
      el("div", { class: "bk-claimed" }, ...p.claimed.map((k) => keyCard(k, "bk-small"))));
    if (isMe && p.hand) {
      box.append(el("p", {}, ui("enigma", { c: colourName(p.enigma), n: p.enigma_faces }), " ",
        el("span", { class: `bk-swatch c-${p.enigma}`, "data-explain": `enigma:${p.enigma}`, tabindex: "0" })));
      box.append(el("h4", {}, ui("hand")), el("div", { class: "bk-hand" },
        ...p.hand.map((k) => keyCard(k, p.matchable.includes(k.id) ? "bk-match" : ""))));
    } else if (!isMe) {
      box.append(track(el("p", { class: "bk-muted" }, labelled(lang, term("hand"), p.hand_count)), `hand:${q}`));
    }
    players.append(box);
  });
  root.append(players);
  current.confirm = chosen.length ? () => { const a = chosen[sel.i % chosen.length].m.action; sel.block = null; sel.cell = null; ctx.act(a); } : null;
  container.replaceChildren(root);
  if (ctx.drawn) ctx.drawn(); // the shell's status bar follows a block or cell chosen here
}
/** The shell's status bar: what the seat is asked, and the placement previewed in the temple to confirm. */
export function asked(ctx) { return term(`phase_${ctx.view.phase}`); }
export function confirm() { return current && current.confirm ? { run: current.confirm } : null; }

/** The lobby card and How-to-play page: the gold-topped core with a few coloured blocks stacked against it, drawn
 * in this renderer's colours and isometric projection. */
export function cover() {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "-80 -102 160 120");
  svg.setAttribute("class", "bk-cover");
  const pt = (x, y, z) => [(x - y) * A, -(x + y) * B - z * C];
  const cubes = [[1, 1, 0, "*"], [2, 1, 0, "*"], [1, 2, 0, "*"], [2, 2, 0, "*"], [0, 1, 0, "R"], [0, 0, 0, "R"], [3, 1, 0, "B"],
    [3, 2, 0, "B"], [3, 2, 1, "B"], [1, 0, 0, "W"], [2, 0, 0, "W"], [2, 0, 1, "G"], [1, 1, 1, "*"], [2, 1, 1, "*"]];
  cubes.sort((a, b) => (b[0] + b[1]) - (a[0] + a[1]) || a[2] - b[2]);
  const face = (pts, fill) => {
    const p = document.createElementNS(NS, "polygon");
    p.setAttribute("points", pts.map((q) => q.join(",")).join(" "));
    p.setAttribute("fill", fill);
    p.setAttribute("stroke", "rgba(0,0,0,.35)");
    svg.append(p);
  };
  for (const [x, y, z, c] of cubes) {
    const col = COLOUR[c];
    face([pt(x, y, z + 1), pt(x + 1, y, z + 1), pt(x + 1, y + 1, z + 1), pt(x, y + 1, z + 1)], shade(col, 0.95));
    face([pt(x, y, z), pt(x + 1, y, z), pt(x + 1, y, z + 1), pt(x, y, z + 1)], shade(col, 0.75));
    face([pt(x, y, z), pt(x, y + 1, z), pt(x, y + 1, z + 1), pt(x, y, z + 1)], shade(col, 0.6));
  }
  return svg;
}
