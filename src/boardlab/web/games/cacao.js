// Cacao in the browser: an SVG board (the checkerboard of worker and jungle tiles), villages, hand,
// display, activation choices and the final score breakdown.
//
// Contract (see ../generic.js): render(container, ctx), ctx = { view, seat, state, legal, act, lang, t }.
// Every highlight comes from ctx.legal (the legal action notations of this seat): this file never
// decides what is legal. The game's own vocabulary (terms.json, en + zh-TW) and its component data
// (components.json, with provenance) come from the server (/api/games -> renderer_data), never copied.
import { el, loadStylesheet } from "/static/common.js";
import { bracket, colon, labelled, listing, track as piece } from "/static/renderkit.js";

// -- data from the server ------------------------------------------------------------------------------
const INFO = await fetch("/api/games").then((r) => r.json()).then((g) => g.games.find((x) => x.name === "cacao"))
  .catch(() => null);
const DATA = (INFO && INFO.renderer_data) || {};
const TERMS = DATA.terms || {};
const COMP = DATA.components || null;
const OFFICIAL_SOURCE = "cacao/components.json"; // view.components.source of the packaged (official) set

await loadStylesheet("/static/games/cacao.css"); // once, before the first drawing

// Words of this screen that are not game terms (the game terms are in terms.json).
const UI = {
  en: {
    place_prompt: "Your turn: pick a worker tile from your hand, then one of the highlighted spaces.",
    spot_prompt: "Click a highlighted space to try the tile there. R (or ↻) rotates it.",
    confirm_prompt: "Turn it with R or ↻ if needed, then confirm with ✓ (or Enter, or click the tile again).",
    rebuild_hint: "Orange frames: rebuild one of your tiles (costs 1 sun token).",
    discard_prompt: "None of your tiles has a legal space: discard one.",
    fill_prompt: "Choose a jungle tile from the display, then a space marked ?",
    fill_prompt_kind: "Now click a space marked ? for the {tile}.",
    activate_prompt: "Your workers were activated. Use them edge by edge, or let “auto” pick the best order.",
    rotate: "Rotate (R)",
    confirm: "Place",
    cancel: "Cancel",
    discard: "Discard",
    use_n: "use {n}",
    skip_nothing: "nothing to do here: skip",
    your_hand: "Your hand",
    official: "Official components",
    official_detail: "all {n} component entries are the printed game (official rulebook 2015, jungle-tile overview) — nothing reconstructed",
    custom: "Custom component file",
    custom_detail: "this table does not use the packaged official set",
    source: "source",
    last_move: "last move",
    legend: "Jungle tiles",
    final: "Final scores",
    tiebreak: "tie-break",
    you: "you",
    to_move: "to move",
    edge_row: "{n} × {edge} edge of {x},{y} → {jungle}",
    storage: "{n}/{max}",
    none: "—",
    rebuilt: "rebuilt",
  },
  "zh-TW": {
    place_prompt: "輪到你：從手牌選一張工人板塊，再選一個標示的位置。",
    spot_prompt: "點選標示的位置試放。按 R（或 ↻）旋轉。",
    confirm_prompt: "需要時用 R 或 ↻ 旋轉，再按 ✓ 確認（或 Enter、或再點一次板塊）。",
    rebuild_hint: "橘色框：重建你自己的板塊（花費 1 個太陽指示物）。",
    discard_prompt: "你的板塊都沒有合法位置：請棄置一張。",
    fill_prompt: "從叢林展示區選一張叢林板塊，再點選標有 ? 的位置。",
    fill_prompt_kind: "現在點選標有 ? 的位置放 {tile}。",
    activate_prompt: "你的工人被啟動了。逐邊使用，或用「自動」取最佳順序。",
    rotate: "旋轉（R）",
    confirm: "放置",
    cancel: "取消",
    discard: "棄置",
    use_n: "使用 {n}",
    skip_nothing: "這裡無事可做：略過",
    your_hand: "你的手牌",
    official: "官方配件",
    official_detail: "全部 {n} 筆配件資料皆為實體遊戲內容（2015 官方規則書、叢林板塊一覽表）——沒有任何推測重建",
    custom: "自訂配件檔",
    custom_detail: "這一桌沒有使用內建的官方配件",
    source: "來源",
    last_move: "上一步",
    legend: "叢林板塊",
    final: "最終分數",
    tiebreak: "平手判定",
    you: "你",
    to_move: "行動中",
    edge_row: "{x},{y} {edge}側 {n} 個工人 → {jungle}",
    storage: "{n}/{max}",
    none: "—",
    rebuilt: "已重建",
  },
};

const DIRS = "NESW";
const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const S = 100; // SVG units per cell
const COLOURS = [ // red, purple, white, yellow (seat 0..3)
  { tile: "#f6d9d3", border: "#c0392b", fig: "#d2402f", stroke: "#5e1810", swatch: "#c0392b" },
  { tile: "#e7dcf2", border: "#7b4aa8", fig: "#8350b3", stroke: "#311a4c", swatch: "#7b4aa8" },
  { tile: "#fdfcf8", border: "#a9a391", fig: "#ffffff", stroke: "#3d3d3d", swatch: "#f1eee3" },
  { tile: "#fbefc4", border: "#d9a406", fig: "#f0bd1c", stroke: "#5e4600", swatch: "#e6b422" },
];

let lang = "en";
function term(key) { return (TERMS[lang] && TERMS[lang][key]) ?? (TERMS.en && TERMS.en[key]) ?? key; }
function ui(key, vars = {}) {
  let s = (UI[lang] && UI[lang][key]) ?? UI.en[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}
const tileName = (id) => (/^\d+$/.test(id) ? id.split("").join("-") : id);

// -- component facts (from components.json; the tile ids are the fallback) ----------------------------------
function jungleInfo(id) {
  const j = COMP && COMP.jungle_tiles.find((x) => x.id === id);
  if (j) return { kind: j.kind, value: j.value };
  const m = id.match(/^([a-z]+?)(\d*)$/);
  return { kind: m ? m[1] : id, value: m && m[2] ? Number(m[2]) : 1 };
}
function baseEdges(tile) {
  const w = COMP && COMP.worker_tiles.find((x) => x.id === tile);
  return w ? w.edges : tile.split("").map(Number);
}
// workers facing direction d after r clockwise quarter turns: edges[(d - r) % 4] (actions.py)
const rotated = (tile, r) => [0, 1, 2, 3].map((d) => baseEdges(tile)[(d - r + 4) % 4]);
const village = () => (COMP && COMP.village) || {};

function provenance() {
  if (!COMP) return null;
  const entries = [...(COMP.worker_tiles || []), ...(COMP.jungle_tiles || []), COMP.village, COMP.temple_points]
    .filter(Boolean);
  const count = {};
  for (const e of entries) count[e.provenance] = (count[e.provenance] || 0) + 1;
  return { n: entries.length, count, about: COMP.about || "" };
}

// -- legal actions, read from their notation ---------------------------------------------------------------
function parseLegal(legal) {
  const out = { place: [], rebuild: [], discard: [], fill: [], use: [], auto: null, all: new Set() };
  for (const m of legal || []) {
    const a = m.action;
    out.all.add(a);
    let r;
    if ((r = a.match(/^(rebuild )?(\w+?)r([0-3])@(-?\d+),(-?\d+)$/))) {
      (r[1] ? out.rebuild : out.place).push({ a, text: m.text, tile: r[2], rot: +r[3], x: +r[4], y: +r[5] });
    } else if ((r = a.match(/^discard (\w+)$/))) out.discard.push({ a, text: m.text, tile: r[1] });
    else if ((r = a.match(/^fill (\w+)@(-?\d+),(-?\d+)$/))) out.fill.push({ a, text: m.text, jungle: r[1], x: +r[2], y: +r[3] });
    else if ((r = a.match(/^use (-?\d+),(-?\d+) ([NESW]) (\d+)$/))) {
      out.use.push({ a, text: m.text, x: +r[1], y: +r[2], edge: DIRS.indexOf(r[3]), count: +r[4] });
    } else if (a === "auto") out.auto = m;
  }
  return out;
}
const placeNotation = (kind, tile, rot, x, y) => `${kind === "rebuild" ? "rebuild " : ""}${tile}r${rot}@${x},${y}`;

// -- what this browser remembers between drawings ----------------------------------------------------------
const sel = { key: null, tileIdx: null, rot: 0, spot: null, fillKind: null };
const memo = new Map(); // table -> last placement and the jungle tiles filled since (for "last move")
let current = null; // { container, ctx }

function resetSelection(key) {
  sel.key = key; sel.tileIdx = null; sel.spot = null; sel.fillKind = null;
}

function trackLast(ctx) {
  const v = ctx.view, st = ctx.state || {};
  const id = st.table || "?";
  const workers = new Map(v.board.workers.map((w) => [`${w.x},${w.y}`, w.layers]));
  const jungle = new Set(v.board.jungle.map((j) => `${j.x},${j.y}`));
  if (Array.isArray(st.log)) { // the replay page: the log up to this step says it exactly
    for (let i = st.log.length - 1; i >= 0; i--) {
      const a = st.log[i].action || "";
      const r = a.match(/@(-?\d+),(-?\d+)$/);
      if (r && !a.startsWith("fill")) {
        const fills = new Set(st.log.slice(i + 1).map((e) => (e.action || "").match(/^fill \w+@(-?\d+,-?\d+)$/))
          .filter(Boolean).map((x) => x[1]));
        return { placed: `${r[1]},${r[2]}`, fills };
      }
    }
  }
  let m = memo.get(id);
  if (!m || m.players !== v.players) {
    let placed = v.placed ? `${v.placed[0]},${v.placed[1]}` : null;
    const last = st.last && st.last.action && st.last.action.match(/^(?:rebuild )?\w+r[0-3]@(-?\d+,-?\d+)$/);
    if (!placed && last) placed = last[1];
    m = { players: v.players, workers, jungle, placed, fills: new Set() };
    memo.set(id, m);
    return m;
  }
  const changed = [...workers].filter(([k, l]) => m.workers.get(k) !== l);
  const removed = [...m.workers.keys()].some((k) => !workers.has(k)) || [...m.jungle].some((k) => !jungle.has(k));
  m.fresh = new Set(); // tiles that arrived with this update (animated once): a new worker tile, new jungle tiles
  if (!removed && changed.length === 1) m.fresh.add(changed[0][0]);
  if (!removed && changed.length <= 1) for (const k of jungle) if (!m.jungle.has(k)) m.fresh.add(k);
  if (removed) { // an undo took a tile back: the frame follows the log's last placement, or goes
    const last = st.last && st.last.action && st.last.action.match(/^(?:rebuild )?\w+r[0-3]@(-?\d+,-?\d+)$/);
    m.placed = last && workers.has(last[1]) ? last[1] : null;
    m.fills = new Set([...m.fills].filter((k) => jungle.has(k)));
  } else if (changed.length === 1) { m.placed = changed[0][0]; m.fills = new Set(); }
  else if (changed.length > 1) { m.placed = null; m.fills = new Set(); } // a jump (replay): no single move
  for (const k of jungle) if (!m.jungle.has(k) && (changed.length <= 1)) m.fills.add(k);
  if (v.placed) m.placed = `${v.placed[0]},${v.placed[1]}`;
  m.workers = workers; m.jungle = jungle;
  return m;
}

// -- SVG helpers and tile art ------------------------------------------------------------------------------
const NS = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of kids.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}
const at = (x, y) => `translate(${x * S},${y * S})`;

function pod(x, y, scale = 1, angle = 0) {
  return s("g", { transform: `translate(${x},${y}) rotate(${angle}) scale(${scale})`, class: "cc-pod" },
    s("ellipse", { rx: 9, ry: 15, fill: "#d9822b", stroke: "#6e3510", "stroke-width": 2 }),
    s("path", { d: "M0,-13 L0,13 M-5,-11 Q-8,0 -5,11 M5,-11 Q8,0 5,11", stroke: "#9c4f17", "stroke-width": 1.4, fill: "none" }));
}
function coin(x, y, r, label) {
  return s("g", { transform: `translate(${x},${y})` },
    s("circle", { r, fill: "#f4c430", stroke: "#9a6f00", "stroke-width": 2.5 }),
    s("circle", { r: r - 4, fill: "none", stroke: "#c99a0a", "stroke-width": 1.2 }),
    label === undefined ? null : s("text", { class: "cc-num", "font-size": r * 1.25, y: r * 0.43, fill: "#5b3d00" }, label));
}

const EMBLEM = {
  plantation(v) {
    const g = s("g", {}, s("circle", { r: 31, fill: "#dcefb5", stroke: "#8fb35a", "stroke-width": 2 }));
    if (v >= 2) g.append(pod(-10, 1, 1.05, -14), pod(10, 1, 1.05, 14));
    else g.append(pod(0, 1, 1.3));
    return g;
  },
  market(v) {
    const stripes = [];
    for (let i = 0; i < 5; i++) {
      stripes.push(s("path", { d: `M${-25 + i * 10},-22 h10 v8 a5,5 0 0,1 -10,0 Z`, fill: i % 2 ? "#fff7e6" : "#c23b22" }));
    }
    return s("g", {}, s("circle", { r: 31, fill: "#f3e4bd", stroke: "#c7a461", "stroke-width": 2 }),
      ...stripes, pod(-16, 8, 0.62),
      s("path", { d: "M-8,8 h7 m-3,-4 l4,4 l-4,4", stroke: "#6e3510", "stroke-width": 2.2, fill: "none", "stroke-linecap": "round" }),
      coin(13, 8, 14, v));
  },
  gold(v) {
    const g = s("g", {}, s("circle", { r: 31, fill: "#5d5346", stroke: "#3a332a", "stroke-width": 2 }),
      s("path", { d: "M-26,14 L-10,-14 L0,-2 L10,-20 L27,14 Z", fill: "#8a7d6b" }));
    if (v >= 2) g.append(coin(-9, 12, 11, 2), coin(10, 10, 11));
    else g.append(coin(0, 10, 13, v));
    return g;
  },
  water() {
    return s("g", {}, s("circle", { r: 31, fill: "#3d95d4", stroke: "#1f5f8f", "stroke-width": 2 }),
      s("path", { d: "M-20,-8 q5,-5 10,0 t10,0 t10,0 t10,0 M-22,4 q5,-5 10,0 t10,0 t10,0 t10,0 M-16,16 q5,-5 10,0 t10,0 t10,0",
        stroke: "#e8f6ff", "stroke-width": 3, fill: "none", "stroke-linecap": "round" }));
  },
  sun() {
    const rays = [];
    for (let i = 0; i < 12; i++) rays.push(s("path", { d: "M-4,-19 L0,-29 L4,-19 Z", transform: `rotate(${i * 30})`, fill: "#f08c00" }));
    return s("g", {}, s("circle", { r: 31, fill: "#fff1b8", stroke: "#e0a800", "stroke-width": 2 }), ...rays,
      s("circle", { r: 15, fill: "#ffd23f", stroke: "#e08a00", "stroke-width": 2.5 }));
  },
  temple() {
    return s("g", {}, s("circle", { r: 31, fill: "#e9e1cc", stroke: "#a69a7c", "stroke-width": 2 }),
      s("path", { d: "M-26,20 h52 v-8 h-6 v-8 h-7 v-8 h-7 v-8 h-12 v8 h-7 v8 h-7 v8 h-6 Z", fill: "#a89a78", stroke: "#5f553f", "stroke-width": 2, "stroke-linejoin": "round" }),
      s("rect", { x: -5, y: 8, width: 10, height: 12, fill: "#5f553f" }),
      s("path", { d: "M-20,12 h40 M-14,4 h28 M-7,-4 h14", stroke: "#5f553f", "stroke-width": 1.2 }));
  },
};

function jungleArt(id, title = true) {
  const { kind, value } = jungleInfo(id);
  const g = s("g", { class: `cc-jungle cc-k-${kind}` },
    s("rect", { x: -47, y: -47, width: 94, height: 94, rx: 10, class: "cc-jbase" }));
  for (const [cx, cy, r] of [[-33, -33, 135], [33, -33, 225], [33, 33, 315], [-33, 33, 45]]) {
    g.append(s("path", { d: "M0,0 Q8,-11 0,-22 Q-8,-11 0,0 Z", transform: `translate(${cx},${cy}) rotate(${r})`, class: "cc-leaf" }));
  }
  g.append((EMBLEM[kind] || EMBLEM.temple)(value));
  if (title) g.append(s("title", {}, term(id)));
  return g;
}

function meeple(fill, stroke) {
  return s("g", { class: "cc-meeple" },
    s("path", { d: "M-8.5,9 L-3.5,0.5 L-9,-1 Q-10.5,-4.5 -4.5,-4.5 L4.5,-4.5 Q10.5,-4.5 9,-1 L3.5,0.5 L8.5,9 Q0,6.5 -8.5,9 Z",
      fill, stroke, "stroke-width": 1.6, "stroke-linejoin": "round" }),
    s("circle", { cy: -9.5, r: 5, fill, stroke, "stroke-width": 1.6 }));
}

function workerArt(owner, edges, layers = 1, { title } = {}) {
  const c = COLOURS[owner] || COLOURS[0];
  const g = s("g", { class: `cc-worker cc-owner${owner}` },
    s("rect", { x: -47, y: -47, width: 94, height: 94, rx: 10, fill: c.tile, stroke: c.border, "stroke-width": 5 }));
  if (layers > 1) {
    g.append(s("rect", { x: -38, y: -38, width: 76, height: 76, rx: 6, fill: "none", stroke: c.border, "stroke-width": 2.5, "stroke-dasharray": "6 4" }));
  }
  g.append(s("circle", { r: 9, fill: c.border, opacity: 0.28 }));
  edges.forEach((n, d) => {
    for (let i = 0; i < n; i++) {
      const t = (i - (n - 1) / 2) * 25;
      const [x, y] = [[t, -29], [29, t], [t, 29], [-29, t]][d];
      const m = meeple(c.fig, c.stroke);
      m.setAttribute("transform", `translate(${x},${y}) rotate(${d * 90}) scale(1.18)`);
      g.append(m);
    }
  });
  if (layers > 1) g.append(s("text", { class: "cc-num cc-layer", "font-size": 15, y: 5 }, "×2"));
  if (title) g.append(s("title", {}, title));
  return g;
}

function tileSvg(art, size, cls = "") {
  return s("svg", { viewBox: "-50 -50 100 100", width: size, height: size, class: `cc-mini ${cls}`, "aria-hidden": "true" }, art);
}

// -- the board ------------------------------------------------------------------------------------------
function boardSvg(ctx, L, mine, last) {
  const v = ctx.view;
  const cells = [...v.board.jungle, ...v.board.workers, ...v.to_fill.map(([x, y]) => ({ x, y })),
    ...L.place, ...L.fill];
  const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
  const x0 = Math.min(...xs) - 1, x1 = Math.max(...xs) + 1, y0 = Math.min(...ys) - 1, y1 = Math.max(...ys) + 1;
  const cols = x1 - x0 + 1, rows = y1 - y0 + 1;
  const svg = s("svg", {
    class: "cc-board", viewBox: `${(x0 - 0.5) * S} ${(y0 - 0.5) * S} ${cols * S} ${rows * S}`,
    role: "group", "aria-label": term("game"),
  });
  svg.style.width = `min(100%, ${cols * 92}px, calc(66vh * ${cols / rows}))`;
  svg.style.minWidth = `${cols * 36}px`;
  const bg = s("g", { class: "cc-bg" });
  bg.append(s("rect", { x: (x0 - 0.5) * S, y: (y0 - 0.5) * S, width: cols * S, height: rows * S, class: "cc-ground" }));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      bg.append(s("rect", { x: x * S - 48, y: y * S - 48, width: 96, height: 96, rx: 12,
        class: (x + y) % 2 === 0 ? "cc-cell-j" : "cc-cell-w" }));
    }
  }
  for (let x = x0; x <= x1; x++) { // coordinates, as the log names the spaces
    bg.append(s("text", { x: x * S, y: (y0 - 0.5) * S + 13, class: "cc-axis" }, x));
  }
  for (let y = y0; y <= y1; y++) bg.append(s("text", { x: (x0 - 0.5) * S + 9, y: y * S + 5, class: "cc-axis cc-axis-y" }, y));
  svg.append(bg);

  const tiles = s("g", { class: "cc-tiles" });
  for (const j of v.board.jungle) {
    const fresh = last && last.fresh && last.fresh.has(`${j.x},${j.y}`);
    const g = s("g", { transform: at(j.x, j.y), "data-cell": `${j.x},${j.y}`, class: "cc-jcell", "data-explain": `jungle:${j.tile}`,
      "aria-label": `${term(j.tile)}${bracket(lang, `${j.x},${j.y}`)}`, "data-track": `jungle:${j.x},${j.y}`, "data-sig": j.tile },
    s("g", { class: fresh ? "cc-arrive" : null }, jungleArt(j.tile, false)));
    tiles.append(g);
  }
  for (const w of v.board.workers) {
    const title = `${term(`colour${w.owner}`)} ${tileName(w.tile)}${bracket(lang, `${w.x},${w.y}`)}${w.layers > 1 ? ` ${ui("rebuilt")}` : ""}`;
    const fresh = last && last.fresh && last.fresh.has(`${w.x},${w.y}`);
    tiles.append(s("g", { transform: at(w.x, w.y), "data-cell": `${w.x},${w.y}`, "data-owner": w.owner, class: "cc-worker-tile",
      "data-explain": `worker:${w.tile}`, "aria-label": title, "data-track": `worker:${w.x},${w.y}`, "data-sig": `${w.owner}:${w.layers}` },
    s("g", { class: fresh ? "cc-arrive" : null }, workerArt(w.owner, w.edges, w.layers))));
  }
  svg.append(tiles);

  // jungle spaces waiting for a tile
  const marks = s("g", { class: "cc-marks" });
  const fillTargets = new Set(L.fill.filter((f) => !sel.fillKind || f.jungle === sel.fillKind).map((f) => `${f.x},${f.y}`));
  for (const [x, y] of v.to_fill) {
    const key = `${x},${y}`;
    const target = mine && fillTargets.has(key);
    const g = s("g", { transform: at(x, y), class: `cc-tofill${target ? " cc-target" : ""}`, "data-cell": key, "data-explain": "to_fill" },
      s("rect", { x: -44, y: -44, width: 88, height: 88, rx: 10 }),
      s("text", { class: "cc-num", "font-size": 46, y: 16 }, "?"));
    if (target) g.addEventListener("click", () => chooseFillCell(x, y));
    marks.append(g);
  }

  // last move
  if (last) {
    for (const k of last.fills) {
      const [x, y] = k.split(",").map(Number);
      marks.append(s("rect", { x: x * S - 49, y: y * S - 49, width: 98, height: 98, rx: 12, class: "cc-last-fill" }));
    }
    if (last.placed) {
      const [x, y] = last.placed.split(",").map(Number);
      marks.append(s("rect", { x: x * S - 50, y: y * S - 50, width: 100, height: 100, rx: 12, class: "cc-last" },
        s("title", {}, ui("last_move"))));
    }
  }

  // activated edges (everyone's): a badge on the border between the worker tile and the jungle tile
  for (const [owner, list] of Object.entries(v.pending || {})) {
    const o = Number(owner);
    for (const e of list) {
      const [dx, dy] = STEPS[e.edge];
      const cx = (e.x + dx * 0.5) * S, cy = (e.y + dy * 0.5) * S;
      const horiz = dy !== 0;
      const c = COLOURS[o] || COLOURS[0];
      marks.append(s("g", { class: `cc-pend${o === ctx.seat ? " cc-pend-mine" : ""}`, "data-edge": `${e.x},${e.y},${e.edge}` },
        s("line", { x1: cx - (horiz ? 34 : 0), y1: cy - (horiz ? 0 : 34), x2: cx + (horiz ? 34 : 0), y2: cy + (horiz ? 0 : 34), class: "cc-pend-line" }),
        s("circle", { cx, cy, r: 14, fill: c.border, class: "cc-pend-dot" }),
        s("text", { x: cx, y: cy + 6, class: "cc-num cc-pend-n", "font-size": 17, fill: o === 2 ? "#222" : "#fff" }, e.workers),
        s("title", {}, ui("edge_row", { n: e.workers, edge: term(DIRS[e.edge]), x: e.x, y: e.y, jungle: term(e.jungle) }))));
    }
  }
  svg.append(marks);

  // placement: legal spaces for the chosen tile (all tiles before one is chosen), the tentative tile
  if (mine && (L.place.length || L.rebuild.length)) {
    const spots = s("g", { class: "cc-spots" });
    const tile = selectedTile(ctx);
    for (const kind of ["place", "rebuild"]) {
      const list = L[kind].filter((p) => !tile || p.tile === tile);
      const seen = new Set();
      for (const p of list) {
        const key = `${p.x},${p.y}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const chosen = sel.spot && sel.spot.x === p.x && sel.spot.y === p.y && sel.spot.kind === kind;
        const g = s("g", { transform: at(p.x, p.y), class: `cc-spot cc-spot-${kind}${tile ? " cc-armed" : ""}${chosen ? " cc-chosen" : ""}`,
          "data-cell": key, "data-kind": kind, tabindex: 0, role: "button",
          "aria-label": `${kind === "rebuild" ? term("rebuild") : ""} ${key}` },
          s("rect", { x: -45, y: -45, width: 90, height: 90, rx: 11 }));
        g.addEventListener("click", () => chooseSpot(p.x, p.y, kind));
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); chooseSpot(p.x, p.y, kind); }
        });
        g.addEventListener("mouseenter", () => hoverGhost(svg, p.x, p.y, kind));
        g.addEventListener("mouseleave", () => hoverGhost(svg, null));
        spots.append(g);
      }
    }
    svg.append(spots);
    const ghost = s("g", { class: "cc-ghost", visibility: "hidden", "pointer-events": "none" });
    svg.append(ghost);
    if (sel.spot && tile) {
      const t = s("g", { transform: at(sel.spot.x, sel.spot.y), class: "cc-tentative", role: "button",
        "aria-label": ui("confirm") }, workerArt(ctx.seat, rotated(tile, sel.rot), sel.spot.kind === "rebuild" ? 2 : 1),
      s("rect", { x: -50, y: -50, width: 100, height: 100, rx: 12, class: "cc-tentative-frame" }));
      t.addEventListener("click", confirmPlace);
      svg.append(t);
    }
  }
  return svg;
}

function hoverGhost(svg, x, y) {
  const ghost = svg.querySelector(".cc-ghost");
  if (!ghost) return;
  const tile = current && selectedTile(current.ctx);
  if (x === null || !tile || sel.spot) { ghost.setAttribute("visibility", "hidden"); return; }
  ghost.replaceChildren(workerArt(current.ctx.seat, rotated(tile, sel.rot)));
  ghost.setAttribute("transform", at(x, y));
  ghost.setAttribute("visibility", "visible");
}

// -- interaction ---------------------------------------------------------------------------------------
function selectedTile(ctx) {
  const hand = ctx.view.hand || [];
  return sel.tileIdx !== null && hand[sel.tileIdx] ? hand[sel.tileIdx] : null;
}

function rotationsFor(L, tile, spot) {
  const list = spot ? L[spot.kind].filter((p) => p.x === spot.x && p.y === spot.y) : [...L.place, ...L.rebuild];
  return [...new Set(list.filter((p) => p.tile === tile).map((p) => p.rot))].sort((a, b) => a - b);
}

function fixRotation(L, tile) {
  const rots = rotationsFor(L, tile, sel.spot);
  if (rots.length && !rots.includes(sel.rot)) sel.rot = rots[0];
}

function chooseTile(i) {
  const { ctx } = current;
  const L = parseLegal(ctx.legal);
  const hand = ctx.view.hand || [];
  if (!hand[i] || !L.place.concat(L.rebuild).some((p) => p.tile === hand[i])) return;
  sel.tileIdx = i;
  if (sel.spot && !L[sel.spot.kind].some((p) => p.tile === hand[i] && p.x === sel.spot.x && p.y === sel.spot.y)) sel.spot = null;
  fixRotation(L, hand[i]);
  redraw();
}

function chooseSpot(x, y, kind) {
  const { ctx } = current;
  const L = parseLegal(ctx.legal);
  if (sel.spot && sel.spot.x === x && sel.spot.y === y && sel.spot.kind === kind) { confirmPlace(); return; }
  if (selectedTile(ctx) === null) { // no tile chosen yet: the first hand tile that may go there
    const hand = ctx.view.hand || [];
    const i = hand.findIndex((t) => L[kind].some((p) => p.tile === t && p.x === x && p.y === y));
    if (i < 0) return;
    sel.tileIdx = i;
  }
  sel.spot = { x, y, kind };
  fixRotation(L, selectedTile(ctx));
  redraw();
}

function rotate(step = 1) {
  if (!current) return;
  const { ctx } = current;
  const L = parseLegal(ctx.legal);
  const tile = selectedTile(ctx);
  if (!tile) return;
  const rots = rotationsFor(L, tile, sel.spot);
  if (rots.length < 2) return;
  const i = rots.indexOf(sel.rot);
  sel.rot = rots[((i < 0 ? 0 : i) + step + rots.length) % rots.length];
  redraw();
}

function confirmPlace() {
  if (!current) return;
  const { ctx } = current;
  const tile = selectedTile(ctx);
  if (!tile || !sel.spot) return;
  const a = placeNotation(sel.spot.kind, tile, sel.rot, sel.spot.x, sel.spot.y);
  if (!parseLegal(ctx.legal).all.has(a)) return;
  resetSelection(null);
  ctx.act(a);
}

function cancel() { sel.spot = null; sel.tileIdx = null; redraw(); }

function chooseFillKind(kind) {
  const { ctx } = current;
  const L = parseLegal(ctx.legal);
  const options = L.fill.filter((f) => f.jungle === kind);
  if (!options.length) return;
  if (options.length === 1) { ctx.act(options[0].a); return; }
  sel.fillKind = sel.fillKind === kind ? null : kind;
  redraw();
}

function chooseFillCell(x, y) {
  const { ctx } = current;
  const L = parseLegal(ctx.legal);
  const options = L.fill.filter((f) => f.x === x && f.y === y && (!sel.fillKind || f.jungle === sel.fillKind));
  const kinds = [...new Set(options.map((f) => f.jungle))];
  if (kinds.length === 1) { ctx.act(options.find((f) => f.jungle === kinds[0]).a); return; }
  // several display tiles could go there and none is chosen: ask for the tile
  const box = current.container.querySelector(".cc-display");
  if (box) { box.classList.remove("cc-attention"); void box.offsetWidth; box.classList.add("cc-attention"); }
}

document.addEventListener("keydown", (e) => {
  if (!current || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target && e.target.closest && e.target.closest("input, select, textarea")) return;
  if (!document.body.contains(current.container)) return;
  const L = parseLegal(current.ctx.legal);
  if (!L.place.length && !L.rebuild.length) return;
  if (e.key === "r" || e.key === "R") { rotate(e.shiftKey ? -1 : 1); e.preventDefault(); }
  else if (e.key === "Enter" && sel.spot) { confirmPlace(); e.preventDefault(); }
  else if (e.key === "Escape") cancel();
  else if (/^[1-9]$/.test(e.key)) chooseTile(Number(e.key) - 1);
});

function redraw() { if (current) render(current.container, current.ctx); }

// -- panels --------------------------------------------------------------------------------------------
function seatLabel(ctx, i) {
  const seats = ctx.state && ctx.state.seats;
  const colour = term(`colour${i}`);
  const name = seats && seats[i] ? seats[i].name : "";
  return name ? `${colour} · ${name}` : colour;
}

function villagesPanel(ctx) {
  const v = ctx.view, comp = village();
  const track = comp.water_track || null;
  return el("div", { class: "cc-villages" }, ...v.villages.map((vil, i) => {
    const c = COLOURS[i];
    const slots = (n, max, cls, art) => el("span", { class: `cc-slots ${cls}` },
      ...Array.from({ length: max }, (_, k) => el("span", { class: `cc-slot${k < n ? " on" : ""}` }, k < n ? art() : null)));
    const water = track
      ? el("span", { class: "cc-water" }, ...track.map((val, k) => el("span", {
        class: `cc-wstep${k === vil.water ? " on" : ""}${k < vil.water ? " past" : ""}`, title: String(val) }, val > 0 ? `+${val}` : String(val))))
      : el("strong", {}, vil.water_value > 0 ? `+${vil.water_value}` : String(vil.water_value));
    const badges = [];
    if (ctx.seat === i) badges.push(el("span", { class: "cc-badge cc-you" }, ui("you")));
    if (v.current_player === i) badges.push(el("span", { class: "cc-badge cc-tomove" }, ui("to_move")));
    return el("div", { class: `cc-village${v.current_player === i ? " cc-current" : ""}`, "data-seat": i, style: `--pc:${c.border};--pt:${c.tile}` },
      el("div", { class: "cc-vhead" }, el("span", { class: "cc-swatch", style: `background:${c.swatch}` }),
        el("span", { class: "cc-vname" }, seatLabel(ctx, i)), ...badges),
      el("div", { class: "cc-vstats" },
        piece(el("span", { class: "cc-stat", "data-explain": "gold" }, tileSvg(coin(0, 0, 40), 20), el("b", { class: "cc-gold" }, vil.gold),
          el("span", { class: "cc-lbl" }, term("gold"))), `gold:${i}`),
        el("span", { class: "cc-stat", "data-explain": "fruit", "aria-label": `${term("fruit")} ${ui("storage", { n: vil.fruit, max: comp.storage ?? "?" })}` },
          piece(slots(vil.fruit, comp.storage || vil.fruit, "cc-fruit", () => tileSvg(pod(0, 0, 2.6), 14)), `fruit:${i}`, vil.fruit),
          el("span", { class: "cc-lbl" }, term("fruit"))),
        el("span", { class: "cc-stat", "data-explain": "sun_tokens", "aria-label": `${term("sun_tokens")} ${ui("storage", { n: vil.sun, max: comp.sun_max ?? "?" })}` },
          piece(slots(vil.sun, comp.sun_max || vil.sun, "cc-sun", () => tileSvg(s("circle", { r: 34, fill: "#ffd23f", stroke: "#e08a00", "stroke-width": 10 }), 14)),
            `sun:${i}`, vil.sun),
          el("span", { class: "cc-lbl" }, term("sun_tokens")))),
      el("div", { class: "cc-vwater", "data-explain": "water_track" },
        tileSvg(s("path", { d: "M0,-40 C18,-14 32,2 32,16 A32,32 0 0,1 -32,16 C-32,2 -18,-14 0,-40 Z", fill: "#3d95d4", stroke: "#1f5f8f", "stroke-width": 6 }), 14),
        el("span", { class: "cc-lbl" }, term("water_track")), piece(water, `water:${i}`, vil.water ?? vil.water_value)),
      piece(el("div", { class: "cc-vfoot muted" }, `${term("hand")} ${vil.hand} · ${term("pile")} ${vil.pile}`), `pile:${i}`));
  }));
}

function trayPanel(ctx, L, mine) {
  const v = ctx.view;
  const tray = el("div", { class: "cc-tray" });
  if (v.hand) {
    const tile = selectedTile(ctx);
    const canPlace = L.place.length || L.rebuild.length;
    const discardable = new Set(L.discard.map((d) => d.tile));
    const hand = el("div", { class: "cc-hand" }, ...(v.hand.length ? [] : [el("span", { class: "muted" }, ui("none"))]), ...v.hand.map((t, i) => {
      const usable = L.place.concat(L.rebuild).some((p) => p.tile === t);
      const chosen = sel.tileIdx === i;
      const rots = chosen ? rotationsFor(L, t, sel.spot) : [];
      const r = chosen ? sel.rot : (rotationsFor(L, t, null)[0] ?? 0);
      const btn = el("button", { type: "button", class: `cc-hand-tile${chosen ? " cc-selected" : ""}`, disabled: !usable,
        "aria-pressed": chosen ? "true" : "false", "aria-label": `${term("worker_tile")} ${tileName(t)}${rots.length > 1 ? ` (r${sel.rot})` : ""}`,
        "data-explain": `worker:${t}`,
        "data-tile": t, onclick: () => chooseTile(i) },
      tileSvg(workerArt(ctx.seat ?? 0, rotated(t, r)), 64), el("span", { class: "cc-cap" }, tileName(t)));
      const wrap = el("div", { class: "cc-hand-slot" }, btn);
      if (discardable.has(t)) {
        wrap.append(el("button", { type: "button", class: "cc-discard", onclick: () => ctx.act(`discard ${t}`) }, ui("discard")));
      }
      return wrap;
    }));
    const controls = el("div", { class: "cc-controls" });
    if (canPlace) {
      const rots = tile ? rotationsFor(L, tile, sel.spot) : [];
      controls.append(
        el("button", { type: "button", class: "cc-rotate", disabled: rots.length < 2, onclick: () => rotate(1), title: ui("rotate") }, "↻ ", ui("rotate")),
        el("button", { type: "button", class: "primary cc-confirm", disabled: !(tile && sel.spot), onclick: confirmPlace,
          "data-action": tile && sel.spot ? placeNotation(sel.spot.kind, tile, sel.rot, sel.spot.x, sel.spot.y) : null }, "✓ ", ui("confirm")),
        el("button", { type: "button", class: "cc-cancel", disabled: !(tile || sel.spot), onclick: cancel, title: ui("cancel"),
          "aria-label": ui("cancel") }, "✕"));
    }
    tray.append(el("div", { class: "cc-tray-box cc-hand-box" },
      el("div", { class: "cc-tray-title" }, ctx.seat === null ? term("hand") : ui("your_hand")), hand, controls));
  }
  const fillMode = mine && L.fill.length > 0;
  const kinds = new Set(L.fill.map((f) => f.jungle));
  const display = el("div", { class: `cc-display${fillMode ? " cc-filling" : ""}` }, ...(v.display.length ? v.display.map((j) => {
    const ok = fillMode && kinds.has(j);
    return el("button", { type: "button", class: `cc-display-tile${ok ? " cc-selectable" : ""}${sel.fillKind === j ? " cc-selected" : ""}`,
      disabled: !ok, "data-jungle": j, "data-explain": `jungle:${j}`, onclick: () => chooseFillKind(j) },
    tileSvg(jungleArt(j, false), 56), el("span", { class: "cc-cap" }, term(j)));
  }) : [el("span", { class: "muted" }, ui("none"))]));
  const pile = el("div", { class: "cc-pile", "data-explain": "jungle_pile" },
    el("span", { class: "cc-pile-stack" }, el("b", {}, v.jungle_pile)), el("span", { class: "cc-cap" }, term("jungle_pile")));
  tray.append(el("div", { class: "cc-tray-box" }, el("div", { class: "cc-tray-title" }, term("display")),
    el("div", { class: "cc-display-row" }, display, pile)));
  return tray;
}

function activationPanel(ctx, L) {
  // gather before you sell: plantations first, markets last (the order the edges are listed in is
  // the order a player resolves them, and the rules let them choose it)
  const rank = (j) => (j.startsWith("plantation") ? 0 : j.startsWith("market") ? 2 : 1);
  const mineEdges = [...((ctx.view.pending || {})[String(ctx.seat)] || [])].sort((a, b) => rank(a.jungle) - rank(b.jungle));
  const rows = mineEdges.map((e) => {
    let uses = L.use.filter((u) => u.x === e.x && u.y === e.y && u.edge === e.edge).sort((a, b) => a.count - b.count);
    const top = uses.length ? uses[uses.length - 1].count : 0;
    const nothing = uses.length === 1 && uses[0].count === 0; // e.g. a market and no fruit to sell
    if (nothing) uses = uses.map((u) => ({ ...u, label: ui("skip_nothing") }));
    const row = el("div", { class: "cc-act-row", "data-edge": `${e.x},${e.y},${e.edge}` },
      el("span", { "data-explain": `jungle:${e.jungle}` }, tileSvg(jungleArt(e.jungle, false), 34)),
      el("span", { class: "cc-act-text" }, ui("edge_row", { n: e.workers, edge: term(DIRS[e.edge]), x: e.x, y: e.y, jungle: term(e.jungle) })),
      el("span", { class: "cc-act-buttons" }, ...uses.map((u) => el("button", {
        type: "button", class: `cc-use${u.count === top ? " cc-use-max" : ""}`, title: u.text, "data-action": u.a,
        onclick: () => ctx.act(u.a) }, u.label || ui("use_n", { n: u.count })))));
    const mark = (on) => ctx && current && current.container.querySelectorAll(`.cc-pend[data-edge="${e.x},${e.y},${e.edge}"]`)
      .forEach((g) => g.classList.toggle("cc-hot", on));
    row.addEventListener("mouseenter", () => mark(true));
    row.addEventListener("mouseleave", () => mark(false));
    return row;
  });
  return el("div", { class: "cc-activation" },
    el("div", { class: "cc-tray-title" }, term("activations")),
    el("p", { class: "cc-act-auto" }, el("button", { type: "button", class: "primary cc-auto", title: L.auto.text,
      onclick: () => ctx.act("auto") }, "⚡ ", term("auto"))),
    ...rows);
}

function finalPanel(ctx) {
  const v = ctx.view;
  const scores = v.scores || (ctx.state && ctx.state.scores) || [];
  const winners = v.winners || (ctx.state && ctx.state.winners) || [];
  const cats = scores[0] ? Object.keys(scores[0].breakdown) : [];
  const label = { gold: term("gold"), temples: term("temples"), sun: term("sun_tokens"), water: term("water_track") };
  const head = el("tr", {}, el("th", {}, term("player")), ...cats.map((c) => el("th", {}, label[c] || c)),
    el("th", {}, term("total")), el("th", { class: "muted" }, labelled(lang, ui("tiebreak"), term("fruit"))));
  const order = scores.map((_, i) => i).sort((a, b) => scores[b].total - scores[a].total || (scores[b].tiebreak[0] ?? 0) - (scores[a].tiebreak[0] ?? 0));
  const best = Math.max(1, ...scores.map((x) => x.total));
  const body = order.map((i) => {
    const sc = scores[i];
    const win = winners.includes(i);
    return el("tr", { class: win ? "cc-winner" : "", "data-seat": i, style: `--pc:${COLOURS[i].border}` },
      el("td", { class: "cc-fname" }, el("span", { class: "cc-swatch", style: `background:${COLOURS[i].swatch}` }),
        win ? crown() : null, seatLabel(ctx, i)),
      ...cats.map((c) => el("td", { class: "cc-part", "data-cat": c }, String(sc.breakdown[c]))),
      el("td", { class: "cc-total" }, el("strong", {}, String(sc.total)),
        el("span", { class: "cc-bar", style: `width:${Math.max(0, (sc.total / best) * 100)}%` })),
      el("td", { class: "muted" }, String(sc.tiebreak[0] ?? "")));
  });
  const names = winners.map((w) => seatLabel(ctx, w)).join(listing(lang));
  return el("div", { class: "cc-final" },
    el("h3", {}, ui("final")),
    el("p", { class: "cc-winners" }, `${winners.length > 1 ? term("winners") : term("winner")}${colon(lang)}`, el("strong", {}, names)),
    el("div", { class: "cc-final-scroll" }, el("table", {}, el("thead", {}, head), el("tbody", {}, ...body))));
}

function crown() {
  const svg = s("svg", { viewBox: "0 0 24 18", width: 18, height: 14, class: "cc-crown", "aria-label": term("winner") },
    s("path", { d: "M2,15 L1,4 L7,9 L12,1 L17,9 L23,4 L22,15 Z", fill: "#f4c430", stroke: "#9a6f00", "stroke-width": 1.6, "stroke-linejoin": "round" }),
    s("rect", { x: 2, y: 15, width: 20, height: 2.4, fill: "#c99a0a" }));
  return svg;
}

function provenancePanel(ctx) {
  const src = (ctx.view.components && ctx.view.components.source) || "?";
  const p = provenance();
  if (src === OFFICIAL_SOURCE && p && Object.keys(p.count).every((k) => k === "official")) {
    return el("div", { class: "cc-prov cc-prov-ok", title: p.about },
      el("strong", {}, "✓ ", ui("official")), " — ", ui("official_detail", { n: p.n }), " · ",
      el("span", { class: "muted" }, `${ui("source")}${colon(lang)}`), el("code", {}, src));
  }
  return el("div", { class: "cc-prov cc-prov-custom" }, el("strong", {}, "⚠ ", ui("custom")), " — ", ui("custom_detail"),
    " · ", el("span", { class: "muted" }, `${ui("source")}${colon(lang)}`), el("code", {}, src));
}

function legendPanel() {
  const ids = COMP ? COMP.jungle_tiles.map((j) => j.id)
    : ["plantation1", "plantation2", "market2", "market3", "market4", "gold1", "gold2", "water", "sun", "temple"];
  return el("details", { class: "cc-legend" }, el("summary", {}, ui("legend")),
    el("div", { class: "cc-legend-grid" }, ...ids.map((id) => el("span", { class: "cc-legend-item" }, tileSvg(jungleArt(id, false), 30), term(id)))));
}

function promptText(ctx, L, mine) {
  const v = ctx.view;
  if (v.phase === "over") return null;
  if (!mine) return null;
  if (L.discard.length && !L.place.length && !L.rebuild.length) return ui("discard_prompt");
  if (L.place.length || L.rebuild.length) {
    let p = !selectedTile(ctx) ? ui("place_prompt") : sel.spot ? ui("confirm_prompt") : ui("spot_prompt");
    if (L.rebuild.length) p += ` ${ui("rebuild_hint")}`;
    return p;
  }
  if (L.fill.length) return sel.fillKind ? ui("fill_prompt_kind", { tile: term(sel.fillKind) }) : ui("fill_prompt");
  if (L.auto || L.use.length) return ui("activate_prompt");
  return null;
}

// -- entry point ------------------------------------------------------------------------------------------
/** The shell's status bar: what the seat is asked now, and the placement to confirm once a tile and a space are chosen. */
export function asked(ctx) { return promptText(ctx, parseLegal(ctx.legal), (ctx.legal || []).length > 0) || ""; }
export function confirm(ctx) { return selectedTile(ctx) && sel.spot ? { run: confirmPlace } : null; }

export const ownsMoves = true; // the shell may fold its list of move buttons: everything is playable here
export const ownsScores = true; // the final panel below is the breakdown: the shell shows no second table

export function seatMark(i, l) { // the shell's log and seat list: the player's colour
  lang = l || lang;
  const c = COLOURS[i];
  return c ? el("span", { class: "cc-swatch", title: term(`colour${i}`), style: `background:${c.swatch}` }) : null;
}

export function cover() { // the lobby card and How-to-play page: a corner of a jungle, drawn with the game's own art
  const svg = s("svg", { viewBox: "-50 -50 300 200", class: "cc-cover", role: "img", "aria-label": term("game") });
  const cells = [
    [0, 0, jungleArt("plantation2", false)], [1, 0, workerArt(0, [1, 2, 0, 1])], [2, 0, jungleArt("market3", false)],
    [0, 1, workerArt(1, [1, 0, 1, 2])], [1, 1, jungleArt("sun", false)], [2, 1, workerArt(2, [0, 1, 3, 0])],
  ];
  for (const [x, y, art] of cells) svg.append(s("g", { transform: `translate(${x * S},${y * S})` }, art));
  return svg;
}

export function highlight(container, action) { // the shell's log: hovering an entry marks its spaces
  container.querySelectorAll(".cc-hl").forEach((e) => e.remove());
  const marks = container.querySelector(".cc-board .cc-marks");
  if (!action || !marks) return;
  for (const m of String(action).matchAll(/(-?\d+),(-?\d+)/g)) {
    const x = Number(m[1]), y = Number(m[2]);
    marks.append(s("rect", { x: x * S - 52, y: y * S - 52, width: 104, height: 104, rx: 14, class: "cc-hl" }));
  }
}

export function render(container, ctx) {
  lang = ctx.lang === "zh-TW" ? "zh-TW" : "en";
  const v = ctx.view;
  const key = `${ctx.state && ctx.state.table}:${ctx.state && ctx.state.version}:${ctx.seat}:${v.move}`;
  if (sel.key !== key) resetSelection(key);
  const prevWrap = container.querySelector(".cc-board-wrap");
  const scroll = prevWrap ? [prevWrap.scrollLeft, prevWrap.scrollTop] : null;
  current = { container, ctx };
  const L = parseLegal(ctx.legal);
  const mine = (ctx.legal || []).length > 0;
  const last = trackLast(ctx);

  const root = el("div", { class: `cc-root cc-phase-${v.phase}`, "data-phase": v.phase, "data-mine": mine ? "1" : "0",
    "data-version": ctx.state && ctx.state.version !== undefined ? ctx.state.version : v.move, lang });
  if (v.phase === "over") root.append(finalPanel(ctx));
  const prompt = promptText(ctx, L, mine);
  if (prompt) root.append(el("div", { class: `cc-prompt${mine ? " cc-prompt-mine" : ""}`, role: "status" }, prompt));
  root.append(villagesPanel(ctx));
  const wrap = el("div", { class: "cc-board-wrap" }, boardSvg(ctx, L, mine, last));
  root.append(wrap);
  // the dock stays in view under the board on wide screens: the decision at hand (activations) or the tray
  const activating = mine && (L.auto || L.use.length);
  // the hand and display dock is for playing: not over the final board, not in replays
  if (v.phase !== "over" && !ctx.replay) {
    root.append(el("div", { class: "cc-dock" }, activating ? activationPanel(ctx, L) : trayPanel(ctx, L, mine)));
    if (activating) root.append(trayPanel(ctx, L, mine));
  } else if (ctx.replay && v.phase !== "over") root.append(trayPanel(ctx, L, false));
  root.append(el("div", { class: "cc-foot" }, legendPanel(), provenancePanel(ctx)));
  container.replaceChildren(root);
  if (ctx.drawn) ctx.drawn(); // the shell's status bar follows a tile or space chosen here
  if (scroll) { wrap.scrollLeft = scroll[0]; wrap.scrollTop = scroll[1]; }
  else if (wrap.scrollWidth > wrap.clientWidth) wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
}
