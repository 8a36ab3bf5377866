// Petrichor in the browser: the field as an SVG grid (crop, sprout threshold, growth, drops as coloured dots,
// clouds white or dark with their drops), the vote board, the harvest dice, every player's tracks, this seat's
// hand, the pending question and a log of what each weather did.
//
// Contract (see ../generic.js): render(container, ctx), ctx = { view, seat, state, legal, act, lang, t }.
// Whatever can be clicked comes from ctx.legal (this seat's legal notations): a field cell, a card of the
// hand, a weather of the vote board or a die carries the legal actions that name it; one action is played at
// once, several open a small menu; the rest (pass, end, done) are buttons of the prompt. This file never
// decides what is legal. The game's words (terms.json, en + zh-TW) and the components (components.json, with
// provenance) come from the server (/api/games -> renderer_data), never copied here.
import { el } from "/static/common.js";
import { actionMenu, actionTarget, bracket, labelled, listing, rendererData, svgEl as svg, track, words } from "/static/renderkit.js";

const DATA = await rendererData("petrichor");
const TERMS = DATA.terms || {};
const COMP = DATA.components || {};

const WEATHERS = ["frost", "sun", "wind", "rain"];
const LETTER = "FSWR";
const ICON = { frost: "❄", sun: "☀", wind: "≋", rain: "☂" };
const PLAYER = [
  { fill: "#d64541", stroke: "#7d1f1c" }, { fill: "#2f74c0", stroke: "#173f6b" },
  { fill: "#e6b422", stroke: "#7a5c00" }, { fill: "#3f9b4f", stroke: "#1d5227" },
];
const CROP_FILL = { wheat: "#f1dd9a", cotton: "#f4f1ea", grass: "#b9dc8f", potato: "#d9b48c", coffee: "#b58c6d",
  rice: "#cfe8d6", corn: "#f4cf6a" };
const DIRS = { N: "↑", S: "↓", E: "→", W: "←" };
const TILE = new Map((COMP.tiles || []).map((x) => [x.id, x]));

const UI = {
  en: {
    round: "Round {n} of {m}", start: "start player", you: "you", decides: "{name} decides", your_turn: "Your decision",
    field: "Field", votes: "Vote board", dice: "Harvest dice", wheat_face: "wheat", hand: "Your hand",
    players: "Players", log: "What happened", none: "—", cards: "cards", deck: "deck {n} · discard {d}",
    rec_chip: "reconstructed components", rec_note: "Reconstructed for boardlab (no public source gives them): {list}. "
      + "Counts, card mix and the scoring tables come from the published game and the rules text.",
    rec_items: "the sprout threshold of each crop tile, the Voting-Wins track values, rice's grown-stage scoring, "
      + "the grid for 1-4 players (from a beta review), the solo South Wind deck and its d6 rule",
    threshold: "sprouts at {n} drops", rec_thr: "reconstructed", sprouted: "sprouted", grown: "grown", dark: "dark cloud", white: "white cloud",
    drops_of: "{n} drops of {p}", drops_of_one: "{n} drop of {p}", markers: "markers", supply: "supply", vw: "voting wins", vp: "VP", wheat: "wheat",
    hand_n: "hand", value: "worth {v}", passed: "passed", close: "Close", south_wind: "South Wind: card {c}, d6 {d}",
    h_turn: "Click a card of your hand to play it (or pay two as another), or pass.",
    h_vote: "Vote: click a weather on the vote board, or a harvest die to advance it.",
    h_cell: "Click a highlighted field.", h_pay: "Click the card you pay.", h_limit: "Click a card to discard it.",
    h_tie: "Click the weather that resolves.", h_second: "Second action: click a card, or end your turn.",
    k_play: "Play it", k_play2: "Pay two cards as this", k_again: "Second action: two of these",
    k_again4: "Second action: four cards as this", k_pay: "Pay this card", k_discard: "Discard this card",
    k_vote: "Vote for it", k_choose: "Resolve it",
    resolving: "resolving",
  },
  "zh-TW": {
    round: "第 {n} / {m} 輪", start: "起始玩家", you: "你", decides: "{name} 決定中", your_turn: "輪到你決定",
    field: "田地", votes: "投票板", dice: "收穫骰", wheat_face: "小麥", hand: "你的手牌",
    players: "玩家", log: "發生了什麼", none: "—", cards: "張", deck: "牌堆 {n}・棄牌 {d}",
    rec_chip: "重建的配件", rec_note: "以下為 boardlab 重建（沒有公開資料）：{list}。數量、卡片組成與計分表來自實體遊戲與規則原文。",
    rec_items: "每塊農作物版塊的發芽門檻、投票勝利軌的分數、稻米生長階段的計分、1-4 人的田地大小（來自測試版評論）、單人模式南風牌組與骰子規則",
    threshold: "{n} 點水氣發芽", rec_thr: "重建", sprouted: "發芽", grown: "生長", dark: "烏雲", white: "白雲",
    drops_of: "{p} 的水氣 {n} 點", markers: "投票標記", supply: "供應區", vw: "投票勝利", vp: "勝利點數", wheat: "小麥",
    hand_n: "手牌", value: "值 {v} 分", passed: "已 Pass", close: "關閉", south_wind: "南風：卡片 {c}，骰子 {d}",
    h_turn: "點選手牌打出（或把 2 張當作另一張），或 Pass。",
    h_vote: "投票：點選投票板上的天氣，或點選收穫骰推進。",
    h_cell: "點選標示的田地。", h_pay: "點選要支付的卡片。", h_limit: "點選要棄掉的卡片。",
    h_tie: "點選要執行的天氣。", h_second: "第二個行動：點選卡片，或結束回合。",
    k_play: "打出", k_play2: "打出 2 張當作這張", k_again: "第二個行動：2 張這種牌",
    k_again4: "第二個行動：4 張當作這張", k_pay: "支付這張", k_discard: "棄掉這張",
    k_vote: "投票", k_choose: "執行",
    resolving: "執行中",
  },
};

let lang = "en";
const { ui, term } = words(UI, TERMS, () => lang);

// -- legal actions, read from their notation ----------------------------------------------------------------
// target keys: cell:<B2>, card:<F>, weather:<F>, die:<0..2>; the rest (pass, end, done) are prompt buttons
function parseLegal(legal) {
  const targets = new Map();
  const bar = [];
  const add = (key, m, kind) => {
    if (!targets.has(key)) targets.set(key, []);
    targets.get(key).push({ action: m.action, text: m.text, kind });
  };
  for (const m of legal || []) {
    const a = m.action;
    let r;
    if ((r = a.match(/^(cloud|frost|sun|reclaim|shine|wind|rain|blow) ([A-D][1-4])\b/))) add(`cell:${r[2]}`, m, r[1]);
    else if ((r = a.match(/^(play|play2|again|again4|pay|discard) ([FSWR])$/))) add(`card:${r[2]}`, m, r[1]);
    else if ((r = a.match(/^(vote|choose) ([FSWR])$/))) add(`weather:${r[2]}`, m, r[1]);
    else if ((r = a.match(/^die (\d)$/))) add(`die:${+r[1] - 1}`, m, "die");
    else bar.push(m);
  }
  return { targets, bar };
}

const sel = { key: null, menu: null };
let current = null;

function act(action) {
  sel.menu = null;
  if (current) current.ctx.act(action);
}

function redraw() { if (current) render(current.container, current.ctx); }

function actionLabel(a) {
  if (UI.en[`k_${a.kind}`]) return ui(`k_${a.kind}`);
  return a.text || a.action;
}

// Make `node` a click target for the legal actions under `key`; a menu when there are several.
function target(node, key, label, menuHost) {
  const acts = current.L.targets.get(key);
  if (!acts || !acts.length) return node;
  actionTarget(node, acts, label, "pt", act, () => { sel.menu = sel.menu === key ? null : key; redraw(); });
  if (sel.menu === key && acts.length > 1) {
    (menuHost || current.menus).append(actionMenu("pt", acts, {
      play: act, close: () => { sel.menu = null; redraw(); }, closeText: ui("close"), closeClass: "pt-mclose",
      head: el("div", { class: "pt-mhead" }, label),
      label: (a) => (a.kind === "wind" || a.kind === "blow"
        ? `${a.text} ${DIRS[a.action.slice(-1)] || ""}` : actionLabel(a) === a.text ? a.text : `${actionLabel(a)} · ${a.text}`),
    }));
  }
  return node;
}

function playerName(q, ctx) {
  const v = ctx.view;
  if (v.solo && q === 1) return term("automaton");
  const seats = ctx.state && ctx.state.seats;
  const name = seats && seats[q] ? seats[q].name : "";
  const tag = term("player", { n: q + 1 });
  return name && name !== tag ? `${tag} ${name}` : tag;
}

function swatch(q) {
  const c = PLAYER[q] || PLAYER[0];
  return el("span", { class: "pt-swatch", style: `background:${c.fill};border-color:${c.stroke}` });
}

// -- the field --------------------------------------------------------------------------------------------
const CELL = 120;

function dots(counts, x, y, w, r, view) {
  const out = [];
  let k = 0;
  const per = Math.max(1, Math.floor(w / (2 * r + 2)));
  counts.forEach((n, q) => {
    for (let i = 0; i < n; i++, k++) {
      const c = PLAYER[q] || PLAYER[0];
      out.push(svg("circle", { cx: x + r + (k % per) * (2 * r + 2), cy: y + r + Math.floor(k / per) * (2 * r + 2), r,
        fill: c.fill, stroke: c.stroke, "stroke-width": 1, class: `pt-drop pt-p${q}` }));
    }
  });
  return out;
}

function fieldPanel(ctx) {
  const v = ctx.view;
  const W = v.cols * CELL, H = v.rows * CELL;
  const host = el("div", { class: "pt-fieldwrap" });
  const s = svg("svg", { class: "pt-field", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": ui("field") });
  for (const c of v.cells) {
    const col = "ABCD".indexOf(c.cell[0]), row = +c.cell.slice(1) - 1;
    const x = col * CELL, y = row * CELL;
    const g = svg("g", { class: `pt-cell pt-g-${c.growth}`, "data-cell": c.cell, "data-explain": `tile:${c.tile}` });
    const drops = c.drops.reduce((a, b) => a + b, 0);
    const rec = TILE.has(c.tile) && TILE.get(c.tile).provenance === "reconstructed";
    const title = [`${c.cell} · ${term(c.crop)}${bracket(lang, c.tile)}`,
      ui("threshold", { n: c.threshold }) + (rec ? ` (◇ ${ui("rec_thr")})` : ""),
      c.growth !== "none" ? ui(c.growth) : null,
      ...c.drops.map((n, q) => (n ? ui("drops_of", { n, p: playerName(q, ctx) }) : null)),
      c.cloud ? labelled(lang, ui(c.cloud.dark ? "dark" : "white"), c.cloud.drops.map((n, q) => (n ? `${playerName(q, ctx)} ${n}` : null)).filter(Boolean).join(lang === "zh-TW" ? "、" : ", ")) : null,
    ].filter(Boolean).join("\n");
    g.dataset.explainNow = title; // this tile now (drops, clouds), under the tile's explanation
    track(g, `cell:${c.cell}`, JSON.stringify([c.drops, c.growth, c.cloud && c.cloud.drops])); // moves you can follow
    g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 10, fill: CROP_FILL[c.crop] || "#ddd",
        class: "pt-tile" }),
      svg("text", { x: x + 10, y: y + 20, class: "pt-crop" }, term(c.crop)),
      svg("text", { x: x + CELL - 10, y: y + 20, class: "pt-thr", "text-anchor": "end" }, `${drops}/${c.threshold}`),
      // the log and "what happened" name tiles by this (harvest of C3): it has to be on the tile
      svg("text", { x: x + 10, y: y + CELL - 10, class: "pt-coord" }, c.cell));
    if (c.growth !== "none") {
      g.append(svg("text", { x: x + CELL - 12, y: y + CELL - 12, class: `pt-growth pt-${c.growth}`, "text-anchor": "end" },
        c.growth === "grown" ? "✿✿" : "✿"));
    }
    g.append(...dots(c.drops, x + 10, y + CELL - 40, CELL - 40, 5, v));
    if (c.cloud) {
      const dark = c.cloud.dark;
      g.append(track(svg("ellipse", { cx: x + CELL / 2, cy: y + 50, rx: 46, ry: 20, class: dark ? "pt-cloud pt-dark" : "pt-cloud pt-white",
        "data-explain": `cloud:${dark ? "dark" : "white"}`, "data-explain-now": title }), `cloud:${c.cell}`, dark ? "dark" : "white"));
      if (dark) g.append(svg("text", { x: x + CELL / 2 + 34, y: y + 40, class: "pt-bolt" }, "⚡"));
      g.append(...dots(c.cloud.drops, x + CELL / 2 - 36, y + 38, 76, 4.5, v));
    }
    target(g, `cell:${c.cell}`, `${c.cell} ${term(c.crop)}`, host);
    s.append(g);
  }
  host.prepend(s);
  return el("section", { class: "pt-sec" }, el("h3", {}, ui("field")), host);
}

// -- vote board, dice, hand -----------------------------------------------------------------------------
function votePanel(ctx) {
  const v = ctx.view;
  const host = el("div", { class: "pt-votes" });
  WEATHERS.forEach((w, i) => {
    const markers = v.votes[i].map((n, q) => (n ? el("span", { class: "pt-vm" }, swatch(q), `×${n}`) : null)).filter(Boolean);
    const total = v.votes[i].reduce((a, b) => a + b, 0);
    const box = el("div", { class: `pt-weather pt-w-${w}${(v.resolving || []).includes(i) ? " pt-resolving" : ""}`,
      "data-weather": LETTER[i], "data-explain": `weather:${w}` },
      el("div", { class: "pt-wname" }, `${ICON[w]} ${term(w)}`), el("div", { class: "pt-wtotal" }, String(total)),
      el("div", { class: "pt-wmarkers" }, ...(markers.length ? markers : [ui("none")])));
    track(box, `weather:${LETTER[i]}`);
    host.append(target(box, `weather:${LETTER[i]}`, term(w)));
  });
  const dice = el("div", { class: "pt-dice" });
  v.dice.forEach((d, i) => {
    const die = el("div", { class: `pt-die${d === 0 ? " pt-wheat" : ""}`, "data-die": String(i), "data-explain": "die" },
      d === 0 ? ui("wheat_face") : String(d));
    dice.append(target(track(die, `die:${i}`), `die:${i}`, `${ui("dice")} ${i + 1}`));
  });
  return el("section", { class: "pt-sec pt-board" }, el("h3", {}, ui("votes")), host, el("h3", {}, ui("dice")), dice);
}

function handPanel(ctx) {
  const v = ctx.view;
  if (!v.hand) return null;
  const host = el("div", { class: "pt-hand" });
  WEATHERS.forEach((w, i) => {
    const n = v.hand[i];
    const card = el("div", { class: `pt-card pt-w-${w}${n ? "" : " pt-none"}`, "data-card": LETTER[i], "data-explain": `card:${w}` },
      el("div", { class: "pt-cicon" }, ICON[w]), el("div", { class: "pt-cname" }, term(w)), el("div", { class: "pt-ccount" }, `×${n}`));
    host.append(target(track(card, `card:${LETTER[i]}`), `card:${LETTER[i]}`, term(w)));
  });
  return el("section", { class: "pt-sec pt-mine" }, el("h3", {}, ui("hand")), host);
}

function playersPanel(ctx) {
  const v = ctx.view;
  const rows = [];
  const nb = v.vp.length;
  for (let q = 0; q < nb; q++) {
    const vwValue = (COMP.voting_wins && COMP.voting_wins.values) || [];
    const val = vwValue.length ? vwValue[Math.min(v.voting_wins[q], vwValue.length - 1)] : null;
    rows.push(el("div", { class: `pt-player${q === v.current_player ? " pt-now" : ""}`, "data-seat": String(q) },
      el("div", { class: "pt-pname" }, swatch(q), playerName(q, ctx), q === ctx.seat ? bracket(lang, ui("you")) : "",
        q === v.start_player ? el("span", { class: "pt-start", title: ui("start") }, " ☁★") : null,
        q === v.passer ? el("span", { class: "pt-small" }, ` · ${ui("passed")}`) : null),
      track(el("div", { class: "pt-stats" },
        stat(ui("vp"), v.vp[q]), stat(ui("vw"), val === null ? v.voting_wins[q] : `${v.voting_wins[q]}${bracket(lang, ui("value", { v: val }))}`),
        stat(ui("wheat"), v.wheat[q]), stat(ui("supply"), v.supply[q]), stat(ui("markers"), v.markers_left[q]),
        q < v.hand_counts.length ? stat(ui("hand_n"), v.hand_counts[q]) : null), `stats:${q}`)));
  }
  return el("section", { class: "pt-sec" }, el("h3", {}, ui("players")), el("div", { class: "pt-players" }, ...rows));
}

function stat(label, value) {
  return el("span", { class: "pt-stat" }, el("span", { class: "pt-lbl" }, label), " ", el("b", {}, String(value)));
}

// -- the log of events in words (the same vocabulary as text.py) --------------------------------------------
function eventText(ev, ctx) {
  const v = ctx.view;
  const cellName = (i) => `${"ABCD"[i % v.cols]}${Math.floor(i / v.cols) + 1}`;
  const who = (q) => playerName(q, ctx);
  const k = ev[0];
  switch (k) {
    case "dark": case "sprout": case "grow": return term(`ev_${k}`, { cell: cellName(ev[1]) });
    case "burst": return term("ev_burst", { cell: cellName(ev[1]), n: ev[2] });
    case "merge": return term("ev_merge", { cell: cellName(ev[1]), to: cellName(ev[2]) });
    case "weather": return term("ev_weather", { list: ev[1].map((w) => term(WEATHERS[w])).join(listing(lang)) || "—" });
    case "vw": return term("ev_vw", { player: who(ev[2]), card: term(WEATHERS[ev[1]]), n: ev[3] });
    case "rainw": return term("ev_rainw", { cell: cellName(ev[1]), n: ev[2] });
    case "shine": return term("ev_shine", { player: who(ev[1]), cell: cellName(ev[2]), n: ev[3] });
    case "blow": return term("ev_blow", { who: who(ev[1]), player: who(ev[2]), cell: cellName(ev[3]), to: cellName(ev[4]) });
    case "harvest": {
      const pts = ev[2].map((x, q) => `${who(q)} ${x}`).join(listing(lang));
      return term("ev_harvest", { cell: cellName(ev[1]), pts }) + (ev[3] !== null ? `; ${term("ev_wheat", { player: who(ev[3]) })}` : "");
    }
    case "die": return term("ev_die", { player: who(ev[1]), n: ev[2] + 1, vp: ev[3] });
    case "sw": return term("ev_sw", { card: ev[1] });
    case "pass": return term("ev_pass", { player: who(ev[1]), start: who(ev[2]) });
    case "round": return term("ev_round", { n: ev[1] });
    case "reshuffle": return term("ev_reshuffle");
    default: return JSON.stringify(ev);
  }
}

function logPanel(ctx) {
  const evs = (ctx.view.events || []).slice(-14).reverse();
  return el("section", { class: "pt-sec pt-log" }, el("h3", {}, ui("log")),
    el("ol", {}, ...evs.map((e) => el("li", { class: `pt-ev pt-ev-${e[0]}` }, eventText(e, ctx)))));
}

// -- prompt and info ------------------------------------------------------------------------------------
const HINT = { turn: "h_turn", last: "h_turn", vote: "h_vote", pay: "h_pay", limit: "h_limit", tie: "h_tie", second: "h_second" };

function promptPanel(ctx, mine) {
  const v = ctx.view, d = v.decision;
  if (!d) return null; // the game is over: no empty box where the question was
  const title = mine ? ui("your_turn") : ui("decides", { name: playerName(d.player, ctx) });
  const box = el("div", { class: `pt-prompt${mine ? " pt-prompt-mine" : ""}` },
    el("div", { class: "pt-ptitle" }, swatch(d.player), el("b", {}, title), " · ", term(`step_${d.step}`)));
  if (mine) box.append(el("div", { class: "pt-hint" }, ui(HINT[d.step] || "h_cell")));
  if (mine && current.L.bar.length) {
    box.append(el("div", { class: "pt-bar" }, ...current.L.bar.map((m) =>
      el("button", { class: "pt-bbtn", "data-action": m.action, title: m.action, onclick: () => act(m.action) }, m.text || m.action))));
  }
  return box;
}

function infoStrip(ctx) {
  const v = ctx.view;
  const chips = [el("span", { class: "pt-chip" }, ui("round", { n: v.round, m: v.rounds })),
    el("span", { class: "pt-chip" }, swatch(v.start_player), labelled(lang, ui("start"), playerName(v.start_player, ctx))),
    track(el("span", { class: "pt-chip" }, ui("deck", { n: v.deck_count, d: v.discard.reduce((a, b) => a + b, 0) })), "deck"),
    el("a", { class: "pt-chip pt-chip-warn", href: "#pt-provenance" }, `◇ ${ui("rec_chip")}`)];
  if (v.south_wind && v.south_wind.card) chips.push(el("span", { class: "pt-chip", "data-explain": `sw:${v.south_wind.card}` }, ui("south_wind", { c: v.south_wind.card, d: v.south_wind.die ?? "—" })));
  return el("div", { class: "pt-chips" }, ...chips);
}

function provenanceNote() {
  return el("p", { class: "pt-note", id: "pt-provenance" }, "◇ ", ui("rec_note", { list: ui("rec_items") }));
}

// -- entry points -----------------------------------------------------------------------------------------
/** The lobby card and How-to-play page: crop tiles under a white and a dark cloud with players' drops, in this
 * renderer's own colours. */
export function cover() {
  const s = svg("svg", { viewBox: "0 0 300 140", class: "pt-cover", role: "img", "aria-label": "Petrichor" });
  const crops = ["wheat", "coffee", "rice", "potato", "corn", "grass"];
  crops.forEach((c, i) => s.append(svg("rect", { x: 4 + (i % 3) * 98, y: 4 + Math.floor(i / 3) * 66, width: 94, height: 62, rx: 8,
    fill: CROP_FILL[c], stroke: "#8a7a55" })));
  const cloud = (cx, cy, dark, drops) => {
    s.append(svg("ellipse", { cx, cy, rx: 36, ry: 15, class: dark ? "pt-cloud pt-dark" : "pt-cloud pt-white" }));
    drops.forEach((q, k) => s.append(svg("circle", { cx: cx - 18 + k * 12, cy, r: 4.5, fill: PLAYER[q].fill, stroke: PLAYER[q].stroke })));
  };
  cloud(60, 30, false, [0, 1]);
  cloud(200, 95, true, [1, 2, 0, 3]);
  [[150, 40, 0], [170, 52, 1], [40, 112, 2]].forEach(([cx, cy, q]) =>
    s.append(svg("circle", { cx, cy, r: 5, fill: PLAYER[q].fill, stroke: PLAYER[q].stroke })));
  return s;
}

/** The shell's status bar: what the player deciding now is asked. */
export function asked(ctx) { const d = ctx.view.decision; return d ? term(`step_${d.step}`) : ""; }

export const ownsMoves = true; // every legal move is a click on the board or a button of the prompt

export function seatMark(i, l) {
  lang = l || lang;
  return swatch(i);
}

export function render(container, ctx) {
  lang = ctx.lang === "zh-TW" ? "zh-TW" : "en";
  const v = ctx.view;
  const st = ctx.state || {};
  const key = `${st.table}:${st.version ?? st.step}:${ctx.seat}`;
  if (sel.key !== key) { sel.key = key; sel.menu = null; }
  const mine = (ctx.legal || []).length > 0;
  current = { container, ctx, L: parseLegal(ctx.legal), menus: el("div", { class: "pt-menus" }) };
  const root = el("div", { class: "pt-root", lang, "data-mine": mine ? "1" : "0", "data-over": v.scores ? "1" : "0",
    "data-version": st.version ?? st.step ?? "" });
  root.addEventListener("click", () => { if (sel.menu) { sel.menu = null; redraw(); } });
  const field = fieldPanel(ctx);
  const board = votePanel(ctx);
  const hand = handPanel(ctx);
  const prompt = promptPanel(ctx, mine);
  root.append(...[infoStrip(ctx), prompt, current.menus,
    el("div", { class: "pt-main" }, field, el("div", { class: "pt-side" }, board, hand, logPanel(ctx))),
    playersPanel(ctx), provenanceNote()].filter(Boolean));
  container.replaceChildren(root);
}
