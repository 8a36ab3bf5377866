// Cooper Island in the browser: the action island (spaces A-H with the workers on them), the sea ring with
// every ship and islet, one hex peninsula per player in SVG (terrain colour, height shading, cubes,
// buildings, statues, ruins), the player boards, and the pending decision.
//
// Contract (see ../generic.js): render(container, ctx), ctx = { view, seat, state, legal, act, lang, t }.
// Whatever can be clicked comes from ctx.legal (this seat's legal notations with the server's words): a
// space, a hex of your peninsula, a beach, a ship, a tile in hand carries the legal actions that name it;
// one action is played at once, several open a small menu; the rest are buttons of the prompt. This file
// never decides what is legal. The game's words come from terms.json via /api/games.
import { el } from "/static/common.js";
import { actionMenu, actionTarget, bracket, colon, labelled, listing, rendererData, svgEl as s, track, words } from "/static/renderkit.js";

const DATA = await rendererData("cooper_island");
const TERMS = DATA.terms || {};
const COMP = DATA.components || {};

const UI = {
  en: {
    round: "Round {n} of {of}", start: "start player", you_decide: "Your decision", waits: "{name} decides",
    spaces: "Action island", ring: "Sea ring", boards: "Peninsulas", storage: "storage", market: "market",
    hand: "tiles in hand", carto: "cartographer", anchors: "anchors", logs: "logs", boats: "boats",
    buildings: "buildings", crates: "crates", statues: "statues", workers: "workers", score: "score",
    cargo: "Cargo ships", orders: "Royal orders", bag: "bag", cancel: "Cancel", you: "you", ship_n: "ship {n}", boat_n: "boat {n}",
    note: "About the components: the rules text gives the flow of play and the action spaces A-H, but no public source has the peninsula layout, islets, income boats, building cards, royal orders or any cost. Those are RECONSTRUCTED for boardlab (docs/rules/cooper_island.md), not the printed ones.",
    final: "Final scores", side: "side", more: "other moves", normal: "normal worker", special: "special worker",
    over: "Game over", sandbank: "sandbank (no islet may cover it)",
  },
  "zh-TW": {
    round: "第 {n}/{of} 回合", start: "起始玩家", you_decide: "輪到你決定", waits: "{name} 決定中",
    spaces: "行動島", ring: "環島航道", boards: "小島", storage: "儲存區", market: "市場區",
    hand: "手上板塊", carto: "製圖師", anchors: "船錨", logs: "航海日誌", boats: "收入船",
    buildings: "建築", crates: "板條箱", statues: "雕像", workers: "工人", score: "分數",
    cargo: "貨船卡", orders: "皇家指令卡", bag: "布袋", cancel: "取消", you: "你", ship_n: "貨船 {n}", boat_n: "收入船 {n}",
    note: "關於配件：規則文提供了遊戲流程與 A-H 行動區域，但沒有任何公開來源提供小島地圖、島嶼板塊、收入船、建築卡、皇家指令卡或任何費用。這些都是為 boardlab 重建設計的（docs/rules/cooper_island.md），並非實際印刷內容。",
    final: "最終分數", side: "面", more: "其他選項", normal: "普通工人", special: "特殊工人",
    over: "遊戲結束", sandbank: "沙洲（不可被島嶼板塊遮住）",
  },
};
let lang = "en";
const { ui, term } = words(UI, TERMS, () => lang);

const PLAYER = ["#c0392b", "#2471a3", "#d4ac0d", "#7d3c98"];
const TERRAIN = { F: "#2e7d32", M: "#9ccc65", R: "#8d8d8d", S: "#d08c4a" };
const CODE = { forest: "F", meadow: "M", mountain: "R", settlement: "S" };
const CUBE = { wood: "#6d4c41", stone: "#bdbdbd", food: "#f9e79f", gold: "#f1c40f", cloth: "#e74c3c" };
const SPLITS = ((COMP.double_tiles && COMP.double_tiles.splits) || []).map((s) => [s.a, s.b]);

// -- legal actions: where each one can be clicked ------------------------------------------------------
function parseLegal(legal) {
  const targets = new Map();
  const add = (key, m) => { if (!targets.has(key)) targets.set(key, []); targets.get(key).push(m); };
  for (const m of legal || []) {
    const a = m.action;
    let r;
    if ((r = a.match(/^([A-H])( special)?$/))) add(`space:${r[1]}`, m);
    else if ((r = a.match(/^(at|top|ruin|single|cube) (\d+)\b/))) add(`hex:${r[2]}`, m);
    else if ((r = a.match(/^(pay|store) h (\d+)$/))) add(`hex:${r[2]}`, m);
    else if ((r = a.match(/^islet \d+ (\d+)$/))) add(`beach:${r[1]}`, m);
    else if ((r = a.match(/^ship ([12])$/))) add(`ship:${r[1]}`, m);
    else if ((r = a.match(/^tile ([123]) ([ab])$/))) add(`tile:${r[1]}`, m);
  }
  return targets;
}

// the component an action names, for the tooltip of its button (explain.js): "card S3" is the building S3
const NAMES = [[/^card (\S+)/, "building:$1"], [/^(?:boat|run) (\d+)/, "boat:$1"], [/^order (\d+)/, "order:$1"],
  [/^crate (\d+)/, "cargo:$1"], [/^use (\d+)/, "crate:$1"], [/^tile (\d)/, "tile:$1"], [/^islet (\d+)/, "islet:$1"],
  [/^isle p\d+ (\d+)/, "islet:$1"], [/^useboat p\d+ (\d+)/, "boat:$1"], [/^react crate (\d+)/, "crate:$1"],
  [/^(?:ability|react) (\S+)/, "building:$1"], [/^res (\w+)/, "good:$1"], [/^pay [sm] (\w+)/, "good:$1"],
  [/^cut (\w+)/, "good:$1"], [/^store m (\w+)/, "good:$1"], [/^ship (\d)/, "ship:$1"], [/^build fort/, "building:fort"],
  [/^([A-H])(?: special)?$/, "space:$1"], [/^ruin/, "ruin"], [/^statue/, "statue"]];
export function actionComponent(action) {
  for (const [re, id] of NAMES) if (re.test(action)) return action.replace(re, id).split(" ")[0];
  return null;
}

/** A small labelled component (a boat, a building card, a good, an order...) explained by its id on hover. */
function chip(id, label, attrs = {}) {
  return el("span", { class: "ci-chip", "data-explain": id, tabindex: "0", ...attrs }, label);
}

let current = null; // { container, ctx, L, used, menu }
const menuState = { key: null, open: null };

function act(action) { menuState.open = null; if (current) current.ctx.act(action); }
function redraw() { if (current) render(current.container, current.ctx); }

function target(node, key, label) {
  const acts = current.L.get(key);
  if (!acts || !acts.length) return node;
  for (const a of acts) current.used.add(a.action);
  node.dataset.menuKey = key; // its menu opens beside it (placeMenu)
  return actionTarget(node, acts, label, "ci", act, () => { menuState.open = menuState.open === key ? null : key; redraw(); });
}

function openMenu() {
  const key = menuState.open;
  const acts = key && current.L.get(key);
  if (!acts || acts.length < 2) return null;
  const menu = actionMenu("ci", acts, { play: act, close: () => { menuState.open = null; redraw(); }, closeText: ui("cancel"),
    closeClass: "ci-cancel", label: menuLabel });
  for (const b of menu.querySelectorAll("[data-action]")) {
    const id = actionComponent(b.dataset.action);
    if (id) b.dataset.explain = id;
  }
  return menu;
}

// a double tile's side in a menu: its two terrains drawn and named before the words ("takes double tile 1, side a")
function menuLabel(a) {
  const r = a.action.match(/^tile ([123]) ([ab])$/);
  const side = r && SPLITS[Number(r[1]) - 1] ? SPLITS[Number(r[1]) - 1][r[2] === "a" ? 0 : 1] : null;
  if (!side) return a.text || a.action;
  return [el("span", { class: "ci-side", "data-side": r[2] }, ...side.map((t) => el("i", { style: `background:${TERRAIN[CODE[t]]}` })),
    ` ${side.map((t) => term(t)).join(" + ")}`), " · ", a.text || a.action];
}

/** Put the open menu beside the element it belongs to (below it, or above when the window has no room below):
 * a hex low on the page gets its choices there, not at the top of the board, out of sight. */
function placeMenu(root, menu) {
  const anchor = [...root.querySelectorAll("[data-menu-key]")].find((n) => n.dataset.menuKey === menuState.open);
  if (!anchor) return;
  const r = anchor.getBoundingClientRect(), base = root.getBoundingClientRect();
  menu.style.maxWidth = `${Math.min(360, base.width)}px`;
  const left = Math.max(0, Math.min(r.left - base.left, base.width - menu.offsetWidth));
  const h = menu.offsetHeight;
  const below = r.bottom + 6 + h <= window.innerHeight || r.top - 6 - h < 0;
  menu.style.left = `${left}px`;
  menu.style.top = `${below ? r.bottom - base.top + 4 : r.top - base.top - h - 4}px`;
}

function playerName(q, ctx) {
  const seats = ctx.state && ctx.state.seats;
  const base = (seats && seats[q] && seats[q].name) || term("player", { n: q + 1 });
  return q === ctx.seat ? `${base}${bracket(lang, ui("you"))}` : base;
}

// -- the action island ---------------------------------------------------------------------------------
function spacesPanel(ctx) {
  const v = ctx.view;
  const cells = "ABCDEFGH".split("").map((x) => {
    const occ = (v.spaces[x] || []).map(([q, sp]) => track(el("span", { class: sp ? "ci-worker ci-special" : "ci-worker",
      style: `background:${PLAYER[q]}`, title: playerName(q, ctx) }), `worker:${x}:${q}:${sp ? 1 : 0}`));
    const node = el("div", { class: "ci-space", "data-space": x, "data-explain": `space:${x}` },
      el("div", { class: "ci-space-head" }, x, el("span", { class: "ci-occ" }, ...occ)),
      el("div", { class: "ci-space-text" }, term(`space_${x}`).replace(/^[A-H]:\s*/, "")),
      el("div", { class: "ci-space-special" }, term(`special_${x}`)));
    return target(node, `space:${x}`, x);
  });
  return el("section", { class: "ci-panel" }, el("h3", {}, ui("spaces")), el("div", { class: "ci-spaces" }, ...cells));
}

// -- the sea ring --------------------------------------------------------------------------------------
// an invisible circle that widens what a tap on a small ring piece may hit (a beach dot was 12 px on a phone)
const hitArea = (x, y, r) => s("circle", { cx: x, cy: y, r, fill: "transparent", class: "ci-hit" });

function ringPanel(ctx) {
  const v = ctx.view;
  const n = v.ring, seg = v.segment, R = 150, C = 170;
  const logs = (COMP.ring && COMP.ring.logs) || [0, 5];
  const svg = s("svg", { viewBox: "0 0 340 340", class: "ci-ring-svg", role: "img", "aria-label": ui("ring") });
  svg.append(s("circle", { cx: C, cy: C, r: 95, fill: "#f3e5ab", stroke: "#c8b273" }));
  svg.append(s("text", { x: C, y: C + 5, "text-anchor": "middle", class: "ci-ring-title" }, ui("spaces")));
  const pos = (b, r = R) => { const a = (2 * Math.PI * b) / n - Math.PI / 2; return [C + r * Math.cos(a), C + r * Math.sin(a)]; };
  for (let b = 0; b < n; b++) {
    const owner = Math.floor(b / seg), k = b % seg;
    const [x, y] = pos(b);
    // what a beach is: the harbour, a captain's log, a sandbank (shallows: no islet; from the view) or a spot for an islet
    const bank = (v.sandbanks || []).includes(b);
    const kind = k === 0 ? "harbour" : logs.includes(k) ? "log" : bank ? "sandbank" : "beach";
    const g = s("g", { class: `ci-beach ci-${kind}`, "data-beach": b, "data-explain": kind });
    if (kind === "sandbank") {
      g.append(s("ellipse", { cx: x, cy: y, rx: 10, ry: 6, fill: "#e8d9a8", stroke: "#b59f5b", "stroke-width": 1.5,
        "stroke-dasharray": "2 2" }), s("path", { d: `M${x - 6},${y + 1} q3,-3 6,0 q3,3 6,0`, fill: "none", stroke: "#7fa7c9" }));
    } else {
      g.append(s("circle", { cx: x, cy: y, r: 9, fill: k === 0 ? PLAYER[owner] : "#d6eaf8", stroke: PLAYER[owner], "stroke-width": 2 }));
    }
    if (logs.includes(k)) g.append(s("rect", { x: x - 3.5, y: y - 4.5, width: 7, height: 9, fill: "#fff", stroke: "#6c3483",
      class: "ci-log-mark" }));
    const isl = (v.islets || []).find((i) => i.beach === b);
    if (isl) {
      const [ix, iy] = pos(b, R - 22);
      g.append(s("g", { class: "ci-islet", "data-explain": `islet:${isl.islet}`, "data-track": `islet:${isl.islet}`, "data-sig": isl.owner },
        s("circle", { cx: ix, cy: iy, r: 7, fill: "#a9dfbf", stroke: PLAYER[isl.owner], "stroke-width": 2 }),
        s("text", { x: ix, y: iy + 3, "text-anchor": "middle", class: "ci-islet-no" }, String(isl.islet))));
    }
    if (owner === ctx.seat && current.L.get(`beach:${k}`)) {
      target(g, `beach:${k}`, `${ui("ring")} ${k}`);
      g.prepend(hitArea(x, y, Math.min(20, (Math.PI * R) / n - 1))); // a finger's size, not the 18-unit dot's
    }
    svg.append(g);
  }
  v.boards.forEach((bd, q) => bd.ships.forEach((b, sh) => {
    const [x, y] = pos(b, R + 16 + 7 * sh);
    const g = s("g", { class: "ci-ship", "data-ship": `${q}:${sh}`, "data-track": `ship:${q}:${sh}`, "data-explain": `ship:${sh + 1}` },
      s("path", { d: `M${x - 7},${y - 2} L${x + 7},${y - 2} L${x + 4},${y + 4} L${x - 4},${y + 4} Z`, fill: PLAYER[q], stroke: "#222" }),
      s("text", { x, y: y - 4, "text-anchor": "middle", class: "ci-ship-no" }, sh ? "↺" : "↻"));
    if (q === ctx.seat) target(g, `ship:${sh + 1}`, `${ui("ring")} ${sh + 1}`);
    svg.append(g);
  }));
  return el("section", { class: "ci-panel ci-ring" }, el("h3", {}, ui("ring")), svg);
}

// -- a peninsula ---------------------------------------------------------------------------------------
function peninsula(ctx, q) {
  const bd = ctx.view.boards[q];
  const size = 22;
  const pts = bd.hexes.map((h) => [size * Math.sqrt(3) * (h.q + h.r / 2), size * 1.5 * h.r]);
  const minx = Math.min(...pts.map((p) => p[0])) - size - 2, miny = Math.min(...pts.map((p) => p[1])) - size - 2;
  const maxx = Math.max(...pts.map((p) => p[0])) + size + 2, maxy = Math.max(...pts.map((p) => p[1])) + size + 2;
  const svg = s("svg", { viewBox: `${minx} ${miny} ${maxx - minx} ${maxy - miny}`, class: "ci-pen", role: "img",
    "aria-label": `${ui("boards")} ${playerName(q, ctx)}` });
  bd.hexes.forEach((h, i) => {
    const [cx, cy] = pts[i];
    const corners = [...Array(6)].map((_, k) => {
      const a = (Math.PI / 3) * k + Math.PI / 6;
      return `${(cx + (size - 1) * Math.cos(a)).toFixed(1)},${(cy + (size - 1) * Math.sin(a)).toFixed(1)}`;
    }).join(" ");
    const top = h.tiles ? h.tiles[h.tiles.length - 1] : "";
    const fill = h.ruin ? "#5d4037" : top ? TERRAIN[top] : "#fdf6e3";
    const g = s("g", { class: "ci-hex", "data-hex": h.id, "data-height": h.height,
      "data-explain": h.ruin ? "ruin" : top ? `terrain:${top}` : "hex",
      "data-explain-now": `#${h.id} · ▲${h.height}${h.cube ? ` · ${term(h.cube)} ×${h.height}` : ""}`,
      "data-track": `hex:${q}:${h.id}`, "data-sig": JSON.stringify([h.tiles, h.height, h.ruin, h.cube, h.occ, h.road]) });
    g.append(s("polygon", { points: corners, fill, stroke: h.road ? "#000" : "#7f8c8d",
      "stroke-width": 1 + h.height * 0.9, "fill-opacity": h.height ? Math.min(1, 0.55 + 0.15 * h.height) : 1 }));
    g.append(s("text", { x: cx - 11, y: cy - 6, class: "ci-hex-id" }, String(h.id)));
    if (h.height) g.append(s("text", { x: cx + 5, y: cy - 6, class: "ci-hex-h" }, `▲${h.height}`));
    if (h.ruin) g.append(s("path", { d: `M${cx - 7},${cy + 9} L${cx - 7},${cy} L${cx - 3},${cy + 3} L${cx},${cy - 3} L${cx + 4},${cy + 2} L${cx + 7},${cy - 1} L${cx + 7},${cy + 9} Z`,
      fill: "#a1887f", stroke: "#3e2723", class: "ci-ruin", "data-explain": "ruin" }));
    if (h.cube) g.append(s("rect", { x: cx - 6, y: cy - 1, width: 12, height: 12, rx: 2, fill: CUBE[h.cube], stroke: "#333",
      class: "ci-cube", "data-cube": h.cube, "data-explain": `good:${h.cube}`, "data-track": `cube:${q}:${h.id}`, "data-sig": h.cube }));
    if (h.occ === "statue") g.append(s("g", { class: "ci-statue", "data-explain": "statue" }, s("rect", { x: cx - 5, y: cy + 6, width: 10, height: 4, fill: "#555" }),
      s("circle", { cx, cy: cy + 1, r: 4, fill: "#ecf0f1", stroke: "#333" })));
    else if (h.occ) g.append(s("g", { class: "ci-building", "data-card": h.occ, "data-explain": `building:${h.occ}`, "data-track": `bld:${q}:${h.id}` },
      s("path", { d: `M${cx - 8},${cy + 10} L${cx - 8},${cy + 1} L${cx},${cy - 6} L${cx + 8},${cy + 1} L${cx + 8},${cy + 10} Z`,
        fill: h.occ === "fort" ? "#34495e" : h.occ[0] === "L" ? "#922b21" : "#f5cba7", stroke: "#222" }),
      s("text", { x: cx, y: cy + 8, "text-anchor": "middle", class: "ci-bld-id" }, h.occ === "fort" ? "F" : h.occ)));
    if (q === ctx.seat) target(g, `hex:${h.id}`, `#${h.id}`);
    svg.append(g);
  });
  return svg;
}

function goods(d) {
  const e = Object.entries(d || {});
  return e.length ? e.map(([g, k]) => chip(`good:${g}`, `${term(g)} ${k}`)) : ["—"];
}

const CARD_NAME = Object.fromEntries([...(COMP.small_buildings || []), ...(COMP.large_buildings || [])]
  .map((c) => [c.id, c.name]));
function cardName(id) {
  if (id === "fort") return term("x_fort");
  const n = CARD_NAME[id];
  return n ? `${id} ${n[lang] || n.en}` : id;
}
const ORDER_WHAT = Object.fromEntries((COMP.royal_orders || []).map((o) => [o.id, o.what]));

function playerBoard(ctx, q) {
  const v = ctx.view, bd = v.boards[q], w = bd.workers;
  const score = (ctx.view.scores && ctx.view.scores[q]) ? ctx.view.scores[q].total : null;
  const tiles = [];
  bd.hand.forEach((k, i) => {
    for (let j = 0; j < k; j++) {
      const sp = SPLITS[i] || [[], []];
      const tile = el("span", { class: "ci-tile", "data-split": i + 1, "data-explain": `tile:${i + 1}`, "data-track": `tile:${q}:${i + 1}` },
        ...sp[0].map((t) => el("i", { style: `background:${TERRAIN[CODE[t]]}` })), "/",
        ...sp[1].map((t) => el("i", { style: `background:${TERRAIN[CODE[t]]}` })));
      tiles.push(q === ctx.seat && j === 0 ? target(tile, `tile:${i + 1}`, ui("hand")) : tile);
    }
  });
  const mark = v.current_player === q ? "▶ " : "";
  return el("section", { class: q === ctx.seat ? "ci-player ci-me" : "ci-player", "data-seat": q, style: `border-color:${PLAYER[q]}` },
    el("h3", {}, mark, el("span", { class: "ci-swatch", style: `background:${PLAYER[q]}` }), playerName(q, ctx),
      score !== null ? el("span", { class: "ci-score" }, ` ${ui("score")} ${score}`) : null),
    el("div", { class: "ci-stats", "data-track": `stats:${q}` },
      el("span", {}, `${ui("workers")} ${w.idle_normal}/${w.normal} + ${w.idle_special}/${w.special}`),
      el("span", {}, `${ui("carto")} ${bd.cartographer}`), el("span", {}, `${ui("anchors")} ${bd.anchors}`),
      el("span", {}, `${ui("logs")} ${bd.logs}`), el("span", {}, `${ui("crates")} ${bd.crates}`),
      el("span", {}, `${ui("statues")} ${bd.statues}`)),
    el("div", { class: "ci-stats", "data-track": `owned:${q}` }, el("span", {}, `${ui("boats")}${colon(lang)}`,
      ...(bd.boats.length ? bd.boats.map((k) => chip(`boat:${k}`, ui("boat_n", { n: k }))) : ["—"])),
    el("span", {}, `${ui("buildings")}${colon(lang)}`, ...(bd.buildings.length || bd.fort
      ? [...bd.buildings.map((c) => chip(`building:${c}`, cardName(c))), bd.fort ? chip("building:fort", cardName("fort")) : null]
      : ["—"]))),
    el("div", { class: "ci-stats", "data-track": `goods:${q}` }, el("span", {}, `${ui("storage")}${bracket(lang, term("storage_cap", { n: bd.storage_cap }))}${colon(lang)}`, ...goods(bd.storage)),
      el("span", {}, `${ui("market")}${colon(lang)}`, ...goods(bd.market))),
    el("div", { class: "ci-hand" }, `${ui("hand")}${colon(lang)}`, ...(tiles.length ? tiles : ["—"])),
    peninsula(ctx, q));
}

function infoStrip(ctx) {
  const v = ctx.view;
  const d = v.decision;
  // each cargo ship with the crates still on it (player colours); each royal order with what it counts and its worker
  const cargo = (v.cargo || []).map((c) => chip(`cargo:${c.card}`, [`${ui("ship_n", { n: c.card })}${c.turned ? " ↷" : ""} `,
    ...c.crates.map((q) => el("i", { class: "ci-crate", style: `background:${PLAYER[q]}` }))],
  { "data-cargo": c.card, "data-track": `cargo:${c.card}`, "data-sig": JSON.stringify([c.turned, c.crates]) }));
  const orders = (v.orders || []).map((o) => chip(`order:${o.order}`, [`#${o.order} ${term(`w_${ORDER_WHAT[o.order]}`)}`,
    o.worker !== null && o.worker !== undefined ? el("i", { class: "ci-crate", style: `background:${PLAYER[o.worker]}` }) : null],
  { "data-order": o.order, "data-track": `order:${o.order}`, "data-sig": String(o.worker ?? "") }));
  return el("div", { class: "ci-info" },
    el("strong", {}, ui("round", { n: Math.min(v.round, v.rounds), of: v.rounds })), " · ", term(`phase_${v.phase}`),
    " · ", labelled(lang, ui("start"), playerName(v.start_player, ctx)), " · ", `${ui("bag")} ${v.bag}`,
    el("div", { class: "ci-stats" }, el("span", {}, `${ui("cargo")}${colon(lang)}`, ...cargo)),
    el("div", { class: "ci-stats" }, el("span", {}, `${ui("orders")}${colon(lang)}`, ...orders)),
    d ? el("div", { class: "ci-decision" }, d.player === ctx.seat ? ui("you_decide") : ui("waits", { name: playerName(d.player, ctx) }),
      " — ", term(`step_${d.step}`)) : el("div", { class: "ci-decision" }, ui("over")));
}

function finalPanel(ctx) {
  const v = ctx.view;
  if (!v.scores) return null;
  return el("section", { class: "ci-panel ci-final" }, el("h3", {}, ui("final")),
    ...v.scores.map((sc, q) => el("div", {}, labelled(lang, playerName(q, ctx), sc.total),
      bracket(lang, Object.entries(sc.breakdown).map(([k, x]) => `${term(`score_${k}`)} ${x}`).join(listing(lang))))));
}

/** The shell's status bar: what the player deciding now is asked. */
export function asked(ctx) { const d = ctx.view.decision; return d ? term(`step_${d.step}`) : ""; }

export const ownsMoves = true;
export const ownsScores = true; // finalPanel draws the breakdown (the shell's wide table would not fit a phone)

export function seatMark(i) {
  const c = PLAYER[i];
  return c ? el("span", { class: "ci-swatch", style: `background:${c}` }) : null;
}

export function render(container, ctx) {
  lang = ctx.lang === "zh-TW" ? "zh-TW" : "en";
  const v = ctx.view;
  const st = ctx.state || {};
  const key = `${st.table}:${st.version ?? st.step}:${ctx.seat}`;
  if (menuState.key !== key) { menuState.key = key; menuState.open = null; }
  current = { container, ctx, L: parseLegal(ctx.legal), used: new Set() };
  const mine = (ctx.legal || []).length > 0;
  const root = el("div", { class: "ci-root", lang, "data-mine": mine ? "1" : "0", "data-over": v.scores ? "1" : "0",
    "data-version": st.version ?? st.step ?? "" });
  root.addEventListener("click", () => { if (menuState.open) { menuState.open = null; redraw(); } });
  const order = [];
  if (ctx.seat !== null && ctx.seat !== undefined && v.boards[ctx.seat]) order.push(ctx.seat);
  for (let q = 0; q < v.boards.length; q++) if (q !== ctx.seat) order.push(q);
  const mid = el("div", { class: "ci-mid" }, spacesPanel(ctx), ringPanel(ctx));
  const players = el("div", { class: "ci-players" }, ...order.map((q) => playerBoard(ctx, q)));
  const rest = (ctx.legal || []).filter((m) => !current.used.has(m.action));
  const bar = el("div", { class: "ci-bar" }, ...rest.map((m) => el("button", { "data-action": m.action,
    "data-explain": actionComponent(m.action),
    onclick: (ev) => { ev.stopPropagation(); act(m.action); } }, m.text || m.action)));
  const menu = openMenu();
  root.append(...[infoStrip(ctx), finalPanel(ctx), rest.length ? bar : null, mid, players,
    el("p", { class: "ci-note", id: "ci-provenance" }, "◇ ", ui("note")), menu].filter(Boolean));
  container.replaceChildren(root);
  if (menu) placeMenu(root, menu);
}

/** The lobby card and How-to-play page: a corner of a peninsula (stacked terrain, a cube, a building) with a ship on
 * the sea, drawn with this renderer's own colours. */
export function cover() {
  const svg = s("svg", { viewBox: "-100 -70 200 140", class: "ci-cover", role: "img", "aria-label": "Cooper Island" });
  svg.append(s("rect", { x: -100, y: -70, width: 200, height: 140, fill: "#aed6f1" }));
  const size = 24;
  const cells = [[0, 0, "S", 2], [1, 0, "F", 1], [-1, 0, "M", 1], [0, -1, "R", 3], [1, -1, "F", 2], [-1, 1, "M", 1], [0, 1, "R", 1]];
  for (const [q, r, terr, h] of cells) {
    const cx = size * Math.sqrt(3) * (q + r / 2), cy = size * 1.5 * r;
    const pts = [...Array(6)].map((_, k) => { const a = (Math.PI / 3) * k + Math.PI / 6;
      return `${(cx + (size - 1) * Math.cos(a)).toFixed(1)},${(cy + (size - 1) * Math.sin(a)).toFixed(1)}`; }).join(" ");
    svg.append(s("polygon", { points: pts, fill: TERRAIN[terr], stroke: "#5d4d2e", "stroke-width": 1 + h * 0.9,
      "fill-opacity": Math.min(1, 0.55 + 0.15 * h) }));
  }
  svg.append(s("rect", { x: -6, y: -42, width: 12, height: 12, rx: 2, fill: CUBE.gold, stroke: "#333" }),
    s("path", { d: "M-8,10 L-8,1 L0,-6 L8,1 L8,10 Z", fill: "#922b21", stroke: "#222" }),
    s("path", { d: "M62,40 L88,40 L82,50 L68,50 Z", fill: PLAYER[0], stroke: "#222" }),
    s("path", { d: "M75,40 L75,22 L85,36 Z", fill: "#fdfefe", stroke: "#222" }));
  return svg;
}
