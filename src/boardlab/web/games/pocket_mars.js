// Pocket Mars in the browser: the five buildings (stacked card values, ★ / ★★ colonists), every player's
// Earth / ship / energy track / hand / prep module, the deck and discard pile, the pending decision, and
// this seat's cards with both halves in words.
//
// Contract (see ../generic.js): render(container, ctx), ctx = { view, seat, state, legal, act, lang, t }.
// Whatever can be clicked comes from ctx.legal (this seat's legal notations): a card, a prep-module slot,
// a building or Earth carries the legal actions that name it; one action is played at once, several open
// a small menu. This file never decides what is legal. Card data (cards.json, with provenance), building
// data (rules.json) and the game's words (terms.json, en + zh-TW) come from the server
// (/api/games -> renderer_data), never copied here.
import { el, loadStylesheet } from "/static/common.js";
import { bracket, colon, labelled, listing, track } from "/static/renderkit.js";

// -- data from the server ------------------------------------------------------------------------------
const INFO = await fetch("/api/games").then((r) => r.json()).then((g) => g.games.find((x) => x.name === "pocket_mars"))
  .catch(() => null);
const DATA = (INFO && INFO.renderer_data) || {};
const TERMS = DATA.terms || {};
const RULES = DATA.rules || { buildings: [] };
const DECK = (DATA.cards && DATA.cards.cards) || [];
const CARD = new Map(DECK.map((c) => [c.id, c]));
const PACKAGED = "pocket_mars/cards.json"; // view.components of the built-in deck

await loadStylesheet("/static/games/pocket_mars.css"); // once, before the first drawing

// Words of this screen that are not game terms (the game terms are in terms.json).
const UI = {
  en: {
    official: "official", reconstructed: "reconstructed", seed: "from the rules text",
    official_title: "Official: this card is known exactly (printed game).",
    reconstructed_title: "Reconstructed: designed for boardlab in the style of the known cards — not the printed card.",
    prov_chip: "{r} of {n} cards reconstructed",
    prov_note: "About the cards: only {o} of the {n} project cards ({ids}) are known exactly from the printed game. "
      + "The other {r} (marked “reconstructed”) were designed for boardlab in the style of the known cards and the colour "
      + "themes the sources describe. They are not the printed cards.",
    custom_deck: "This table uses its own deck file ({src}): card texts are not shown here.",
    top_lbl: "top · played from hand", bottom_lbl: "bottom · played from a prep module",
    round: "Round {n}", turn_of: "{name}’s turn", decides: "{name} decides", you_decide: "Your decision",
    last: "Last move", start: "start player", deck_known: "you know: {list}", pos: "{id} ({k} from the top)",
    nothing: "—", cards_n: "{n} cards", face_down: "face down",
    hand_n: "hand: {n}", seen: "seen", seen_title: "You looked at this card: only you know it.",
    in_buildings: "in buildings", colonists: "colonists", your_cards: "Your cards", packet: "Cards passed to you",
    ability: "ability", no_colonists: "takes no colonists; black cards are discarded",
    value_title: "value to beat (top card, or the printed 3)", cap: "room {n}", no_card: "no card yet",
    yes: "Yes, do it", no: "No, skip", pass: "Pass", launch: "Launch a colonist (Earth → ship)",
    cancel: "Cancel", close: "Close",
    k_hand: "Play it (top action)", k_prep: "Play it (bottom action)", k_energy: "Discard it for energy",
    k_ready: "Put it into the prep module", k_discard: "Discard it", k_bury: "Put it under the deck",
    k_keep: "Keep it", k_opp: "Play this card", k_look: "Look at this prep module", k_take: "Take this card",
    k_drop: "Discard this card", k_place: "Move a colonist here",
    h_turn: "Click a highlighted card: one of yours (play it or discard it for energy) or one in another player’s "
      + "prep module — or launch a colonist.",
    h_trim: "Too many cards: click a card in your hand to discard it.",
    h_ready: "Click a card in your hand to put it into your prep module.",
    h_pick: "Click the card you keep.",
    h_draw1: "Click a card of the automaton’s prep module to take it.",
    h_dadrop: "Click a card of the automaton’s prep module to discard it.",
    h_place: "Click a highlighted building to move a colonist from your ship there.",
    h_shift: "Click a highlighted building to choose which colonist moves.",
    h_look: "Click a highlighted prep module to look at it.",
    h_bury: "Click a highlighted card to put it on the bottom of the deck.",
    card_of: "card", you: "you", deciding: "deciding", turn: "turn", bot: "bot",
    automaton_score: "{name}: {total} points", final: "Final result",
    field_colour: "colour", partial: "{fields} reconstructed",
    partial_title: "Official card, except its {fields}: reconstructed (not legible in the sources; assumed for boardlab).",
    partial_note: "{ids}: official except the {fields}, which is reconstructed.",
  },
  "zh-TW": {
    official: "官方", reconstructed: "重建", seed: "規則原文",
    official_title: "官方：這張卡片的內容確定（實體遊戲）。",
    reconstructed_title: "重建：依已知卡片的風格為 boardlab 設計——不是實體遊戲的卡片。",
    prov_chip: "{n} 張中 {r} 張為重建",
    prov_note: "關於卡片：{n} 張計畫卡中只有 {o} 張（{ids}）確定與實體遊戲相同。"
      + "其餘 {r} 張（標示「重建」）是依已知卡片的風格與資料描述的顏色主題為 boardlab 設計的，並不是實體遊戲的卡片。",
    custom_deck: "這一桌使用自訂的卡片檔（{src}）：這裡不顯示卡片文字。",
    top_lbl: "上半部・從手中打出", bottom_lbl: "下半部・從準備艙打出",
    round: "第 {n} 輪", turn_of: "{name} 的回合", decides: "{name} 決定中", you_decide: "輪到你決定",
    last: "上一步", start: "起始玩家", deck_known: "你知道：{list}", pos: "{id}（從上數第 {k} 張）",
    nothing: "—", cards_n: "{n} 張", face_down: "面朝下",
    hand_n: "手牌：{n}", seen: "已看過", seen_title: "你查看過這張卡：只有你知道。",
    in_buildings: "在建築中", colonists: "殖民者", your_cards: "你的卡片", packet: "傳給你的卡片",
    ability: "能力", no_colonists: "不能放置殖民者；黑色卡片打出後棄掉",
    value_title: "要超過的數值（最上面的卡，或印刷的 3）", cap: "空位 {n}", no_card: "還沒有卡片",
    yes: "是，執行", no: "否，放棄", pass: "跳過", launch: "發射 1 個殖民者（地球 → 太空船）",
    cancel: "取消", close: "關閉",
    k_hand: "打出（上半部）", k_prep: "打出（下半部）", k_energy: "棄掉以獲得能源",
    k_ready: "放到準備艙", k_discard: "棄掉", k_bury: "放到牌庫底部",
    k_keep: "保留", k_opp: "打出這張卡", k_look: "查看這個準備艙", k_take: "拿取這張卡",
    k_drop: "棄掉這張卡", k_place: "把殖民者移到這裡",
    h_turn: "點選標示的卡片：你自己的（打出或棄掉換能源）或其他玩家準備艙中的——或發射 1 個殖民者。",
    h_trim: "卡片太多：點選手中的 1 張卡棄掉。",
    h_ready: "點選手中的 1 張卡放到準備艙。",
    h_pick: "點選你要保留的卡。",
    h_draw1: "點選自動機準備艙中的 1 張卡拿取。",
    h_dadrop: "點選自動機準備艙中的 1 張卡棄掉。",
    h_place: "點選標示的建築，把 1 個殖民者從太空船移過去。",
    h_shift: "點選標示的建築，選擇要移動的殖民者。",
    h_look: "點選標示的準備艙查看。",
    h_bury: "點選標示的卡片放到牌庫底部。",
    card_of: "卡片", you: "你", deciding: "決定中", turn: "回合", bot: "電腦",
    automaton_score: "{name}：{total} 分", final: "最終結果",
    field_colour: "顏色", partial: "{fields}為重建",
    partial_title: "官方卡片，但{fields}為重建（資料來源中無法辨識，為 boardlab 推定）。",
    partial_note: "{ids}：除了{fields}為重建之外，皆為官方內容。",
  },
};

// colonist colours of the seats (none of them is a card colour); the solo automaton is steel grey
const PLAYER = [
  { fill: "#e0442f", stroke: "#5e1408" },
  { fill: "#f7f4ea", stroke: "#3b3b3b" },
  { fill: "#ff9f1c", stroke: "#6b3b00" },
  { fill: "#ff73b3", stroke: "#6d1642" },
];
const AUTOMATON = { fill: "#9aa5b1", stroke: "#2f3a44" };
const LETTERS = "GYBPK";
const DEFAULTS = { // the primitives' default parameters (components.py), used only to word them
  launch: { n: 1 }, energy: { n: 1 }, draw: { n: 1 }, settle: { n: 1, where: "any" },
  shift: { n: 1, who: "self", dir: "up", where: "any" }, swap: { n: 1, where: "any" }, look: { n: 2 }, bury: { n: 1 },
};

let lang = "en";
function fmt(s, vars) {
  for (const [k, v] of Object.entries(vars || {})) s = s.replaceAll(`{${k}}`, v);
  return s;
}
function term(key, vars) { return fmt((TERMS[lang] && TERMS[lang][key]) ?? (TERMS.en && TERMS.en[key]) ?? key, vars); }
function ui(key, vars) { return fmt((UI[lang] && UI[lang][key]) ?? UI.en[key] ?? key, vars); }

// -- words for cards and buildings (the same assembly as text.py, from the effect data) --------------------
const bIndex = (letterOrColour) => {
  const i = LETTERS.indexOf(letterOrColour);
  return i >= 0 ? i : RULES.buildings.findIndex((b) => b.colour === letterOrColour);
};
const building = (i) => RULES.buildings[i] || {};
const bName = (i) => { const b = building(i); return (b.name && (b.name[lang] || b.name.en)) || LETTERS[i] || "?"; };
const colourName = (c) => { const b = building(bIndex(c)); return (b.colour_name && (b.colour_name[lang] || b.colour_name.en)) || c; };

function primText(raw) {
  const p = { ...(DEFAULTS[raw.op] || {}), ...raw };
  if (p.op === "settle") return term(`op_settle_${p.where}`, { n: p.n });
  if (p.op === "shift") {
    return term("op_shift", { n: p.n, whose: term(`whose_${p.who}`), dir: term(`dir_${p.dir}`), where: term(`where_${p.where}`) });
  }
  if (p.op === "swap") return term("op_swap", { where: term(`where_${p.where}`) });
  return term(`op_${p.op}`, { n: p.n });
}

function effectParts(e) { // { head: "if …, pay 1 energy", body: "launch 1 from Earth; …" }
  const head = [];
  for (const [k, v] of Object.entries((e && e.if) || {})) head.push(k === "hold" ? term("if_hold", { colour: colourName(v) }) : term(`if_${k}`));
  if (e && e.cost) head.push(term("cost", { n: e.cost }));
  const zh = lang === "zh-TW"; // Chinese punctuation is full width: "，" and "；"
  return { head: head.join(zh ? "，" : ", "), body: ((e && e.do) || []).map(primText).join(zh ? "；" : "; ") };
}
const effectText = (e) => { const p = effectParts(e); return p.head ? labelled(lang, p.head, p.body) : p.body; };

// the fields of an official card that are reconstructed all the same (cards.json `field_provenance`, e.g.
// G4's colour): such a card is marked like the reconstructed ones, saying which part is not known
const recFields = (c) => Object.entries((c && c.field_provenance) || {}).filter(([, p]) => p !== "official").map(([k]) => k);
const fieldWords = (c) => recFields(c).map((k) => ui(`field_${k}`)).join(listing(lang));
const partial = (c) => c && c.provenance === "official" && recFields(c).length > 0;

// -- legal actions, read from their notation ------------------------------------------------------------
// target keys: card:<id>, slot:<owner seat>:<0|1>, module:<seat>, bldg:<letter>, earth; the rest go to the bar
function parseLegal(legal) {
  const targets = new Map();
  const add = (key, m, kind) => {
    if (!targets.has(key)) targets.set(key, []);
    targets.get(key).push({ action: m.action, text: m.text, kind });
  };
  for (const m of legal || []) {
    const a = m.action;
    let r;
    if ((r = a.match(/^(hand|prep|energy|ready|discard|bury|keep) ([GYBPK]\d)$/))) add(`card:${r[2]}`, m, r[1]);
    else if ((r = a.match(/^opp P(\d) ([ab])$/))) add(`slot:${+r[1] - 1}:${"ab".indexOf(r[2])}`, m, "opp");
    else if ((r = a.match(/^(take|drop) ([ab])$/))) add(`slot:1:${"ab".indexOf(r[2])}`, m, r[1]);
    else if ((r = a.match(/^look P(\d)$/))) add(`module:${+r[1] - 1}`, m, "look");
    else if ((r = a.match(/^(place|shift|swap) ([GYBPK])\b/))) add(`bldg:${r[2]}`, m, r[1]);
  }
  const launch = (legal || []).find((m) => m.action === "launch");
  if (launch) add("earth", launch, "launch");
  return { targets }; // everything else (do, skip, pass, …) becomes a button of the prompt
}

// -- what this browser remembers between drawings ------------------------------------------------------
const sel = { key: null, menu: null, inspect: null };
let current = null; // { container, ctx, L, used: Set of the actions reachable from the drawing }

function act(action) {
  sel.menu = null;
  if (current) current.ctx.act(action);
}

// Make `node` a click target for the legal actions under `key` (if any).
function target(node, key, label) {
  const L = current.L;
  const acts = L.targets.get(key);
  if (!acts || !acts.length) return node;
  for (const a of acts) current.used.add(a.action);
  node.classList.add("pm-target");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.dataset.actions = acts.map((a) => a.action).join("|");
  node.setAttribute("aria-label", labelled(lang, label, acts.map((a) => actionLabel(a)).join(" / ")));
  const go = (ev) => {
    ev.stopPropagation();
    if (acts.length === 1) { act(acts[0].action); return; }
    sel.menu = sel.menu === key ? null : key;
    redraw();
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(ev); } });
  if (sel.menu === key && acts.length > 1) {
    node.classList.add("pm-open");
    node.append(el("div", { class: "pm-menu", role: "menu", onclick: (ev) => ev.stopPropagation() },
      el("div", { class: "pm-mhead" }, label),
      ...acts.map((a) => el("button", { class: "pm-mbtn", role: "menuitem", "data-action": a.action, title: a.text,
        onclick: (ev) => { ev.stopPropagation(); act(a.action); } }, actionLabel(a))),
      el("button", { class: "pm-mbtn pm-cancel", onclick: (ev) => { ev.stopPropagation(); sel.menu = null; redraw(); } }, ui("cancel"))));
  }
  return node;
}

function actionLabel(a) {
  // place/shift/swap/look name players or buildings: the server's words say exactly which
  if (["shift", "swap"].includes(a.kind)) return a.text || a.action;
  const k = `k_${a.kind}`;
  return UI.en[k] ? ui(k) : (a.text || a.action);
}

function redraw() { if (current) render(current.container, current.ctx); }

// -- small pieces ----------------------------------------------------------------------------------------
const NS = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  for (const c of kids.flat()) if (c) e.append(c);
  return e;
}

function colour(q, view) { return view && view.solo && q === 1 ? AUTOMATON : PLAYER[q] || PLAYER[0]; }

function colonist(q, view, { size = 18, empty = false } = {}) {
  const c = empty ? { fill: "none", stroke: "#b9ad9a" } : colour(q, view);
  return s("svg", { viewBox: "-10 -11 20 22", width: size, height: size * 1.1, class: `pm-col${empty ? " pm-col-empty" : ""}`,
    "aria-hidden": "true" },
  s("path", { d: "M-7.5,10 L-7.5,1.5 Q-7.5,-3 -3,-3 L3,-3 Q7.5,-3 7.5,1.5 L7.5,10 Z", fill: c.fill, stroke: c.stroke,
    "stroke-width": 1.6, "stroke-dasharray": empty ? "2 2" : null }),
  s("circle", { cy: -6.5, r: 4.3, fill: c.fill, stroke: c.stroke, "stroke-width": 1.6, "stroke-dasharray": empty ? "2 2" : null }),
  empty ? null : s("rect", { x: -2.6, y: -8.3, width: 5.2, height: 2.8, rx: 1.2, fill: "#9fd3f5", stroke: c.stroke, "stroke-width": 0.8 }));
}

const ICONS = {
  earth: [s("circle", { r: 8, fill: "#3d8fd6", stroke: "#1c4f7a", "stroke-width": 1.2 }),
    s("path", { d: "M-5,-5 q3,-1 4,2 q-1,3 -4,2 z M1,1 q4,-1 5,2 q-2,4 -5,2 z", fill: "#4caf50" })],
  ship: [s("path", { d: "M0,-9 q5,4 4,11 l-8,0 q-1,-7 4,-11 z", fill: "#e8e8e8", stroke: "#444", "stroke-width": 1.2 }),
    s("circle", { cy: -2, r: 1.8, fill: "#5bb7f0", stroke: "#444", "stroke-width": .8 }),
    s("path", { d: "M-4,1 l-3,5 l3,-1 z M4,1 l3,5 l-3,-1 z", fill: "#c4572f" }),
    s("path", { d: "M-2,3 l2,5 l2,-5 z", fill: "#ff9f1c" })],
  dome: [s("path", { d: "M-8,6 a8,8 0 0,1 16,0 z", fill: "#cfe8f6", stroke: "#3b6d8c", "stroke-width": 1.2 }),
    s("rect", { x: -9, y: 6, width: 18, height: 2.5, fill: "#c4572f" })],
};
function icon(name) {
  return s("svg", { viewBox: "-10 -10 20 20", width: 16, height: 16, class: "pm-icon", "aria-hidden": "true" },
    ...ICONS[name].map((n) => n.cloneNode(true)));
}

function colonists(q, n, view, size) {
  const box = el("span", { class: "pm-cols" });
  if (n <= 4) for (let i = 0; i < n; i++) box.append(colonist(q, view, { size }));
  else box.append(colonist(q, view, { size }), el("span", { class: "pm-times" }, `×${n}`));
  return box;
}

function playerName(q, ctx) {
  const v = ctx.view;
  if (v.solo && q === 1) return term("automaton");
  const seats = ctx.state && ctx.state.seats;
  const name = seats && seats[q] ? seats[q].name : "";
  const tag = term("player", { n: q + 1 });
  return name && name !== tag ? `${tag} ${name}` : tag;
}

function mark(q, view) {
  const c = colour(q, view);
  return el("span", { class: "pm-swatch", style: `background:${c.fill};border-color:${c.stroke}` });
}

function provBadge(c, small) {
  if (!c) return null;
  if (partial(c)) { // official, with a reconstructed field: both marks
    return el("span", { class: "pm-prov pm-prov-rec pm-prov-part", title: ui("partial_title", { fields: fieldWords(c) }),
      "data-rec-fields": recFields(c).join(" ") },
    small ? "✓◇" : `✓ ${ui("official")} · ◇ ${ui("partial", { fields: fieldWords(c) })}`);
  }
  const cls = c.provenance === "official" ? "pm-prov-off" : "pm-prov-rec";
  return el("span", { class: `pm-prov ${cls}`, title: ui(`${c.provenance}_title`) },
    small ? (c.provenance === "official" ? "✓" : "◇") : `${c.provenance === "official" ? "✓" : "◇"} ${ui(c.provenance)}`);
}

function cardFace(id, { size = "lg", seen = false } = {}) {
  const c = CARD.get(id);
  const col = c ? c.colour : ({ G: "green", Y: "yellow", B: "blue", P: "purple", K: "black" })[id[0]] || "none";
  const node = el("div", { class: `pm-card pm-${size} pm-c-${col}${c && (c.provenance !== "official" || partial(c)) ? " pm-rec" : ""}`,
    "data-card": id, "data-explain": `card:${id}`, "data-track": `card:${id}` });
  const head = el("div", { class: "pm-chead" }, el("span", { class: "pm-cval" }, c ? c.value : "?"),
    el("span", { class: "pm-cid" }, id), size === "lg" ? null : provBadge(c, true));
  node.append(head);
  if (seen) node.append(el("div", { class: "pm-seen", title: ui("seen_title") }, ui("seen")));
  if (size === "lg" && c) {
    for (const [half, lbl, arrow] of [["top", "top_lbl", "▲"], ["bottom", "bottom_lbl", "▼"]]) {
      const p = effectParts(c[half]);
      node.append(el("div", { class: `pm-half pm-${half}` },
        el("div", { class: "pm-hlbl" }, `${arrow} ${ui(lbl)}`),
        el("div", { class: "pm-htext" }, p.head ? el("b", {}, `${p.head}${colon(lang)}`) : null, p.body)));
    }
    node.append(el("div", { class: "pm-cfoot" }, provBadge(c, false)));
  } else if (size === "lg") {
    node.append(el("div", { class: "pm-half" }, el("div", { class: "pm-htext muted" }, ui("custom_deck", { src: "" }))));
  }
  return node;
}

function cardBack(colourKey, size = "sm") { // colourKey: a card colour, or null when even the colour is hidden
  const col = colourKey || "none";
  return el("div", { class: `pm-card pm-back pm-${size} pm-c-${col}`, "data-explain": `back:${colourKey || "none"}`,
    "aria-label": colourKey ? colourName(colourKey) : "" },
    s("svg", { viewBox: "-20 -20 40 40", class: "pm-planet", "aria-hidden": "true" },
      s("circle", { r: 13, fill: "#c4572f", stroke: "rgba(0,0,0,.35)", "stroke-width": 1.2 }),
      s("circle", { cx: -4, cy: -3, r: 3, fill: "#9d3f1f" }), s("circle", { cx: 5, cy: 5, r: 2.2, fill: "#9d3f1f" }),
      s("ellipse", { rx: 19, ry: 5, fill: "none", stroke: "rgba(255,255,255,.75)", "stroke-width": 1.3, transform: "rotate(-18)" })),
    colourKey ? el("span", { class: "pm-backlbl" }, colourName(colourKey)) : null);
}

function miniCard(id) { // a chip: value, id, provenance mark; the full text in the tooltip, a click shows it
  const c = CARD.get(id);
  const col = c ? c.colour : "none";
  const chip = el("span", { class: `pm-mini pm-c-${col}`, "data-explain": `card:${id}`, "data-card": id, "data-track": `card:${id}`,
    role: "button", tabindex: "0" },
    el("b", {}, c ? c.value : "?"), ` ${id}`, c && (c.provenance !== "official" || partial(c))
      ? el("i", { class: "pm-rmark", title: partial(c) ? ui("partial_title", { fields: fieldWords(c) }) : ui("reconstructed_title") }, "◇")
      : null);
  chip.addEventListener("click", (ev) => { ev.stopPropagation(); sel.inspect = sel.inspect === id ? null : id; redraw(); });
  return chip;
}

// -- the prompt -------------------------------------------------------------------------------------------
function decisionWords(d) {
  if (!d) return "";
  switch (d.step) {
    case "colonist": return term("step_colonist", { building: bName(bIndex(d.building)) });
    case "half":
      return d.part === "ability" ? term("step_ability", { building: bName(bIndex(d.building)) })
        : term("step_half", { card: d.card, part: term(d.part) });
    case "prim": return primText(d.effect) + (d.building && d.effect.where === "here" ? bracket(lang, bName(bIndex(d.building))) : "");
    default: return term(`step_${d.step}`);
  }
}

function decisionDetail(d) { // the words of the card half or ability being decided
  if (!d || d.step !== "half") return null;
  if (d.part === "ability") {
    const b = building(bIndex(d.building));
    return b.ability ? effectText(b.ability) : null;
  }
  const c = CARD.get(d.card);
  return c ? effectText(c[d.part]) : null;
}

function hintFor(ctx) {
  const d = ctx.view.decision;
  if (!d) return null;
  if (d.step === "prim") {
    const op = d.effect && d.effect.op;
    if (op === "settle") return ui("h_place");
    if (op === "shift" || op === "swap") return ui("h_shift");
    if (op === "look") return ui("h_look");
    if (op === "bury") return ui("h_bury");
    return null;
  }
  if (d.step === "turn") return ui("h_turn");
  return UI.en[`h_${d.step}`] ? ui(`h_${d.step}`) : null;
}

function promptPanel(ctx, mine) {
  const v = ctx.view, d = v.decision;
  const box = el("div", { class: `pm-prompt${mine ? " pm-prompt-mine" : ""}`, role: "status" });
  if (!d) return box;
  const who = d.player;
  box.append(el("div", { class: "pm-ptitle" }, mark(who, v),
    el("span", {}, mine ? ui("you_decide") : ui("decides", { name: playerName(who, ctx) })), " — ",
    el("strong", {}, decisionWords(d))));
  const detail = decisionDetail(d);
  if (detail) box.append(el("div", { class: "pm-pdetail" }, d.card ? miniCard(d.card) : null, " ", detail));
  if (mine) {
    const hint = hintFor(ctx);
    if (hint) box.append(el("div", { class: "pm-hint" }, hint));
  }
  return box;
}

function barButtons(ctx) { // every legal action not reachable from the drawing (do / skip / pass / launch …)
  const left = (ctx.legal || []).filter((m) => !current.used.has(m.action) || m.action === "launch");
  const label = (m) => ({ do: ui("yes"), skip: ui("no"), pass: ui("pass"), launch: ui("launch") })[m.action] || m.text || m.action;
  const order = { do: 0, launch: 1, skip: 3, pass: 2 };
  left.sort((a, b) => (order[a.action] ?? 2) - (order[b.action] ?? 2));
  for (const m of left) current.used.add(m.action);
  return left.map((m) => el("button", { class: `pm-bbtn${m.action === "do" ? " primary" : ""}`, "data-action": m.action,
    title: m.text || m.action, onclick: () => act(m.action) }, label(m)));
}

// -- the table ------------------------------------------------------------------------------------------
function infoStrip(ctx) {
  const v = ctx.view;
  const st = ctx.state || {};
  const items = [];
  if (v.round) items.push(el("span", { class: "pm-chip" }, ui("round", { n: v.round })));
  if (v.current_player !== null && v.turn !== undefined && v.round) {
    items.push(el("span", { class: "pm-chip" }, mark(v.turn, v), ui("turn_of", { name: playerName(v.turn, ctx) })));
  }
  items.push(el("span", { class: "pm-chip", title: ui("start") }, "⚑ ", playerName(v.start_player, ctx)));
  if (v.components === PACKAGED && DECK.length) {
    const rec = DECK.filter((c) => c.provenance !== "official").length;
    items.push(el("a", { class: "pm-chip pm-chip-warn", href: "#pm-provenance", title: ui("reconstructed_title") },
      `◇ ${ui("prov_chip", { r: rec, n: DECK.length })}`));
  }
  const last = st.last && st.last.text
    ? el("div", { class: "pm-last" }, el("span", { class: "pm-lbl" }, `${ui("last")}${colon(lang)}`),
      st.last.seat !== null && st.last.seat !== undefined ? mark(st.last.seat, v) : null,
      `${playerName(st.last.seat, ctx)} ${st.last.text}`)
    : null;
  return el("div", { class: "pm-info" }, el("div", { class: "pm-chips" }, ...items), last);
}

function pilesPanel(ctx) {
  const v = ctx.view;
  const deck = el("div", { class: "pm-pile" }, cardBack(null, "xs"),
    el("div", {}, el("div", { class: "pm-lbl" }, term("deck")), track(el("div", { class: "pm-big" }, v.deck.count), "deck")));
  const known = (v.deck.known || []).map(([i, id]) => ui("pos", { id, k: v.deck.count - i }));
  if (known.length) deck.append(el("div", { class: "pm-small" }, ui("deck_known", { list: known.join(listing(lang)) })));
  const dis = v.discard || [];
  const top = dis.length ? dis[dis.length - 1] : undefined;
  const discard = el("div", { class: "pm-pile" },
    top ? miniCard(top) : dis.length ? cardBack(null, "xs") : el("span", { class: "pm-empty" }, ui("nothing")),
    el("div", {}, el("div", { class: "pm-lbl" }, term("discard_pile")), track(el("div", { class: "pm-big" }, dis.length), "discard")));
  if (top === null) discard.append(el("div", { class: "pm-small" }, ui("face_down")));
  const out = [deck, discard];
  if ((v.in_play || []).length) {
    out.push(el("div", { class: "pm-pile" }, ...v.in_play.map((id) => miniCard(id)),
      el("div", { class: "pm-lbl" }, term("in_play"))));
  }
  return el("div", { class: "pm-piles" }, ...out);
}

function buildingsPanel(ctx) {
  const v = ctx.view;
  const nb = v.board.earth.length;
  const wrap = el("div", { class: "pm-buildings" });
  v.board.buildings.forEach((b, i) => {
    const info = building(i);
    const ability = info.ability ? effectText(info.ability) : "";
    const tile = el("div", { class: `pm-bldg pm-c-${b.colour}`, "data-building": b.letter, "data-explain": `building:${b.letter}`,
      "data-zone": `bldg:${b.letter}` }); // a card played here slides in from where it was
    const head = el("div", { class: "pm-bhead" }, el("span", { class: "pm-bname" }, bName(i)));
    if (b.value !== undefined) head.append(el("span", { class: "pm-bval", title: ui("value_title") }, b.value));
    tile.append(head);
    if (b.star) {
      const stack = b.stack || [];
      tile.append(el("div", { class: "pm-bstack" },
        stack.length ? miniCard(stack[stack.length - 1]) : el("span", { class: "pm-small muted" }, ui("no_card")),
        stack.length > 1 ? el("span", { class: "pm-small" }, ` +${stack.length - 1}`) : null));
      const row1 = el("div", { class: "pm-brow" }, el("span", { class: "pm-star" }, "★"));
      for (let q = 0; q < nb; q++) if (b.star[q]) row1.append(colonists(q, b.star[q], v, 16));
      const row2 = el("div", { class: "pm-brow pm-brow2" }, el("span", { class: "pm-star" }, "★★"));
      let used = 0;
      for (let q = 0; q < nb; q++) {
        for (let k = 0; k < b.star2[q]; k++) { row2.append(colonist(q, v, { size: 16 })); used++; }
      }
      for (let k = used; k < b.star2_capacity; k++) row2.append(colonist(0, v, { size: 16, empty: true }));
      tile.append(track(row1, `star:${b.letter}`, JSON.stringify(b.star)), track(row2, `star2:${b.letter}`, JSON.stringify(b.star2)));
    } else {
      tile.append(el("div", { class: "pm-small pm-bnote" }, ui("no_colonists")));
    }
    tile.append(el("div", { class: "pm-babil" }, el("span", { class: "pm-lbl" }, `${term("ability")}${colon(lang)}`), ability));
    target(tile, `bldg:${b.letter}`, bName(i));
    wrap.append(tile);
  });
  return wrap;
}

function energyTrack(q, v) {
  const n = v.board.energy[q];
  const track = el("div", { class: "pm-energy", title: `${term("energy_t")} ${n}/${v.energy_max}` },
    el("span", { class: "pm-lbl" }, "⚡"));
  for (let k = 0; k <= v.energy_max; k++) {
    track.append(el("span", { class: `pm-estep${k < n ? " past" : ""}${k === n ? " on" : ""}`,
      style: k === n ? `background:${colour(q, v).fill};color:${colour(q, v).stroke}` : null }, k));
  }
  return track;
}

function playerBoard(ctx, q) {
  const v = ctx.view;
  const me = q === ctx.seat;
  const h = v.hands[q];
  const inB = v.board.buildings.reduce((t, b) => t + (b.star ? b.star[q] + b.star2[q] : 0), 0);
  const box = el("div", { class: `pm-player${me ? " pm-me" : ""}${v.current_player === q ? " pm-current" : ""}`,
    "data-seat": q, style: `--pc:${colour(q, v).fill};--ps:${colour(q, v).stroke}` });
  const badges = [];
  if (me) badges.push(el("span", { class: "pm-badge pm-you" }, ui("you")));
  if (v.current_player === q) badges.push(el("span", { class: "pm-badge pm-deciding" }, ui("deciding")));
  else if (v.turn === q && v.current_player !== null) badges.push(el("span", { class: "pm-badge" }, ui("turn")));
  if (v.start_player === q) badges.push(el("span", { class: "pm-badge", title: ui("start") }, "⚑"));
  box.append(el("div", { class: "pm-phead" }, mark(q, v), el("span", { class: "pm-pname" }, playerName(q, ctx)), ...badges));
  const earth = el("span", { class: "pm-stat", title: term("earth") }, icon("earth"), el("span", { class: "pm-slbl" }, term("earth")),
    el("b", {}, v.board.earth[q]));
  target(earth, me ? "earth" : "-", term("earth"));
  box.append(track(el("div", { class: "pm-stats" },
    earth,
    el("span", { class: "pm-stat", title: term("ship") }, icon("ship"), el("span", { class: "pm-slbl" }, term("ship")),
      el("b", {}, v.board.ship[q])),
    el("span", { class: "pm-stat", title: ui("in_buildings") }, icon("dome"), el("span", { class: "pm-slbl" }, ui("in_buildings")),
      el("b", {}, inB), el("span", { class: "pm-small" }, "/7"))), `stats:${q}`));
  box.append(track(energyTrack(q, v), `energy:${q}`, v.board.energy[q]));
  // prep module: own faces, others' colour backs (or the faces this seat has seen)
  const prep = el("div", { class: "pm-prep", "data-module": q });
  prep.append(el("span", { class: "pm-lbl" }, term("prep_module")));
  const slots = el("div", { class: "pm-slots" });
  (h.prep || []).forEach((p, i) => {
    let node;
    if (me) node = p.card ? miniCard(p.card) : cardBack(p.colour, "xs");
    else if (p.card) node = cardFace(p.card, { size: "sm", seen: true });
    else node = cardBack(p.colour, "sm");
    const wrapSlot = el("div", { class: "pm-slot", "data-slot": "ab"[i] }, el("span", { class: "pm-slotlbl" }, "ab"[i]), node);
    if (!me) {
      target(wrapSlot, `slot:${q}:${i}`, `${playerName(q, ctx)} ${"ab"[i]}`);
      if (!wrapSlot.classList.contains("pm-target") && p.card) {
        wrapSlot.addEventListener("click", () => { sel.inspect = sel.inspect === p.card ? null : p.card; redraw(); });
      }
    }
    slots.append(wrapSlot);
  });
  if (!(h.prep || []).length) slots.append(el("span", { class: "pm-empty" }, ui("nothing")));
  prep.append(slots);
  if (!me) target(prep, `module:${q}`, `${term("prep_module")} ${playerName(q, ctx)}`);
  box.append(prep);
  if (!me && !(v.solo && q === 1)) { // the automaton has no hand
    const backs = track(el("div", { class: "pm-handbacks", title: term("cards") }, el("span", { class: "pm-lbl" }, ui("hand_n", { n: h.hand_count }))), `hand:${q}`);
    for (let k = 0; k < Math.min(h.hand_count, 6); k++) backs.append(cardBack(null, "xxs"));
    box.append(backs);
  }
  return box;
}

function myCards(ctx) {
  const v = ctx.view, q = ctx.seat;
  if (q === null || q === undefined || !v.hands[q]) return null;
  const h = v.hands[q];
  const sec = el("div", { class: "pm-mine" });
  const row = (label, ids, extra) => {
    const r = el("div", { class: "pm-row" }, el("div", { class: "pm-rowlbl" }, label, extra || null));
    const cards = el("div", { class: "pm-cards" });
    for (const id of ids) cards.append(target(cardFace(id), `card:${id}`, id));
    if (!ids.length) cards.append(el("span", { class: "pm-empty" }, ui("nothing")));
    r.append(cards);
    return r;
  };
  sec.append(row(term("your_prep"), (h.prep || []).map((p) => p.card).filter(Boolean)));
  sec.append(row(term("your_hand"), h.hand || [], el("span", { class: "pm-small" }, bracket(lang, h.hand_count))));
  const packet = v.draft && v.draft[q] ? v.draft[q].cards : [];
  if (packet && packet.length) sec.append(row(ui("packet"), packet));
  return sec;
}

function inspector() {
  if (!sel.inspect) return null;
  const id = sel.inspect;
  return el("div", { class: "pm-inspect" }, cardFace(id),
    el("button", { class: "pm-close", onclick: () => { sel.inspect = null; redraw(); } }, ui("close")));
}

function finalPanel(ctx) {
  const v = ctx.view;
  if (!v.scores) return null;
  const box = el("div", { class: "pm-final" }, el("strong", {}, ui("final")));
  const list = el("ul", {});
  v.scores.forEach((sc, q) => list.append(el("li", {}, mark(q, v), labelled(lang, playerName(q, ctx), sc.total),
    el("span", { class: "pm-small" }, bracket(lang, term("breakdown", sc.breakdown))))));
  if (v.solo && v.automaton_score) {
    const sc = v.automaton_score;
    list.append(el("li", {}, mark(1, v), ui("automaton_score", { name: term("automaton"), total: sc.total }),
      el("span", { class: "pm-small" }, bracket(lang, term("breakdown", sc.breakdown)))));
  }
  box.append(list);
  return box;
}

function provenanceNote(v) {
  if (v.components !== PACKAGED) return el("p", { class: "pm-note", id: "pm-provenance" }, ui("custom_deck", { src: v.components }));
  if (!DECK.length) return null;
  const off = DECK.filter((c) => c.provenance === "official");
  const part = off.filter(partial);
  return el("p", { class: "pm-note", id: "pm-provenance" }, "◇ ",
    ui("prov_note", { o: off.length, n: DECK.length, r: DECK.length - off.length, ids: off.map((c) => c.id).join(listing(lang)) }),
    // data-card marks card faces only (what a seat sees; the leak test reads them): the note names the id as data-note-card
    ...part.map((c) => el("span", { class: "pm-partial-note", "data-note-card": c.id }, " ◇ ",
      ui("partial_note", { ids: c.id, fields: fieldWords(c) }))));
}

// -- entry point ------------------------------------------------------------------------------------------
/** The shell's status bar: what the player deciding now is asked. */
export function asked(ctx) { return decisionWords(ctx.view.decision); }

export const ownsMoves = true; // every legal move is a click on the board or a button of its prompt
export const ownsScores = true; // the final panel (.pm-final) is the breakdown: the shell shows no second table

export function seatMark(i, l) { // the shell's log and seat list: the seat's colonist colour
  lang = l || lang;
  const c = PLAYER[i];
  return c ? el("span", { class: "pm-swatch", style: `background:${c.fill};border-color:${c.stroke}` }) : null;
}

export function cover(l) { // the lobby card and How-to-play page: the cards whose print is known, drawn as in play
  lang = l || (document.documentElement.lang === "zh-TW" ? "zh-TW" : "en"); // tooltips in the page's language
  const known = DECK.filter((c) => c.provenance === "official").slice(0, 4).map((c) => c.id);
  return el("div", { class: "pm-cover pm-root" }, ...known.map((id) => cardFace(id, { size: "sm" })));
}

export function highlight(container, action) { // the shell's log: hovering an entry marks its cards, buildings, players
  container.querySelectorAll(".pm-hl").forEach((e) => e.classList.remove("pm-hl"));
  if (!action) return;
  const [verb, ...args] = String(action).split(" ");
  const mark = (sel) => container.querySelectorAll(sel).forEach((e) => e.classList.add("pm-hl"));
  const player = (tok) => { const m = /^P([1-4])$/.exec(tok || ""); if (m) mark(`[data-seat="${Number(m[1]) - 1}"]`); };
  if (verb === "opp" || verb === "look") { player(args[0]); return; }
  if (["place", "shift", "swap"].includes(verb)) { mark(`[data-building="${args[0]}"]`); args.slice(1).forEach(player); return; }
  for (const tok of args) if (/^[GYBPK][1-7]$/.test(tok)) mark(`[data-card="${tok}"]`);
}

export function render(container, ctx) {
  lang = ctx.lang === "zh-TW" ? "zh-TW" : "en";
  const v = ctx.view;
  const st = ctx.state || {};
  const key = `${st.table}:${st.version ?? st.step}:${ctx.seat}`;
  if (sel.key !== key) { sel.key = key; sel.menu = null; }
  const L = parseLegal(ctx.legal);
  current = { container, ctx, L, used: new Set() };
  const mine = (ctx.legal || []).length > 0;
  const root = el("div", { class: "pm-root", lang, "data-mine": mine ? "1" : "0", "data-over": v.scores ? "1" : "0",
    "data-version": st.version ?? st.step ?? "" });
  root.addEventListener("click", () => { if (sel.menu) { sel.menu = null; redraw(); } });

  const prompt = promptPanel(ctx, mine);
  // draw everything that can be clicked first, then the prompt's buttons for what is left
  const order = [];
  if (v.hands[ctx.seat]) order.push(ctx.seat);
  for (let q = 0; q < v.hands.length; q++) if (q !== ctx.seat) order.push(q);
  const mineSec = myCards(ctx);
  const players = el("div", { class: "pm-players" }, ...order.map((q) => playerBoard(ctx, q)));
  const buildings = buildingsPanel(ctx);
  buildings.append(pilesPanel(ctx)); // a cell of the buildings' grid (a row of its own when 5 or 2 columns)
  const bar = barButtons(ctx);
  if (bar.length) prompt.append(el("div", { class: "pm-bar" }, ...bar));

  root.append(...[infoStrip(ctx), finalPanel(ctx), prompt, inspector(),
    el("div", { class: "pm-mid" }, buildings), mineSec, players, provenanceNote(v)].filter(Boolean));
  container.replaceChildren(root);
  markArrivals(container, st);
}

// moves you can follow: a card that just appeared under a building or in a prep module grows into place once
// (pm-arrive) and stays marked (pm-lastmove) through every redraw of that position, until the next move
const seenCards = { table: null, version: -1, ids: new Set(), arrived: new Set() };
function markArrivals(container, st) {
  const place = (n) => { const box = n.closest("[data-building],[data-module]"); return `${box.dataset.building ?? `m${box.dataset.module}`}:${n.dataset.card}`; };
  const nodes = [...container.querySelectorAll(".pm-bldg [data-card], [data-module] [data-card]")];
  const version = st.version ?? st.step ?? -1;
  const fresh = seenCards.table === st.table && version > seenCards.version;
  if (fresh) seenCards.arrived = new Set(nodes.map(place).filter((id) => !seenCards.ids.has(id)));
  else if (seenCards.table !== st.table || version !== seenCards.version) seenCards.arrived = new Set();
  for (const n of nodes) {
    if (!seenCards.arrived.has(place(n))) continue;
    n.classList.add("pm-lastmove");
    if (fresh) n.classList.add("pm-arrive");
  }
  if (seenCards.table !== st.table || version !== seenCards.version) {
    Object.assign(seenCards, { table: st.table, version, ids: new Set(nodes.map(place)) });
  }
}
