// One tooltip for every game: any element marked data-explain="<component id>" (an order, a boat, a card, a
// block...) is explained on hover, keyboard focus or a tap (phones) by the game's own text module, fetched once
// per game and language from GET /api/games/{game}/components?lang=. Renderers only mark their elements; the
// words never live in JavaScript. Why: no id may reach a player without what it is, does and costs.
import { el, t } from "/static/common.js";

let table = {};
let loaded = null;
let tip = null;
let owner = null;

/** Load the explanations of `game` in `lang` (once per pair); resolves to the table {id: {name, what, cost,
 * reconstructed}}. */
export async function loadExplanations(game, lang) {
  const key = `${game}:${lang}`;
  if (loaded === key) return table;
  loaded = key;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(game)}/components?lang=${encodeURIComponent(lang)}`);
    table = r.ok ? (await r.json()).components || {} : {};
  } catch { table = {}; }
  if (owner && tip && !tip.hidden) show(owner);
  return table;
}

/** The explanation of a component id, or null. */
export function explanation(id) { return table[id] || null; }

function content(e, now) {
  return [
    el("div", { class: "xt-head" }, el("strong", {}, e.name), " ",
      el("span", { class: `xt-prov ${e.reconstructed ? "rec" : ""}` }, t(e.reconstructed ? "explain_reconstructed" : "explain_printed"))),
    el("div", { class: "xt-what" }, e.what),
    e.cost ? el("div", { class: "xt-cost" }, el("b", {}, `${t("explain_cost")}${t("colon")}`), e.cost) : null,
    now ? el("div", { class: "xt-now" }, now) : null, // what this one holds now (a renderer's data-explain-now)
  ].filter(Boolean);
}

function show(node) {
  const e = explanation(node.dataset.explain);
  if (!e) { hide(); return; }
  if (!tip) { tip = el("div", { id: "explain-tip", role: "tooltip", hidden: true }); document.body.append(tip); }
  owner = node;
  tip.replaceChildren(...content(e, node.dataset.explainNow));
  tip.hidden = false;
  // beside the element, inside the window: below it when there is room, else above
  const r = node.getBoundingClientRect();
  const w = Math.min(320, window.innerWidth - 16);
  tip.style.maxWidth = `${w}px`;
  const h = tip.offsetHeight;
  const left = Math.max(8, Math.min(r.left + r.width / 2 - tip.offsetWidth / 2, window.innerWidth - tip.offsetWidth - 8));
  const below = r.bottom + 8 + h <= window.innerHeight || r.top - 8 - h < 0;
  tip.style.left = `${left + window.scrollX}px`;
  tip.style.top = `${(below ? r.bottom + 8 : r.top - 8 - h) + window.scrollY}px`;
}

function hide() { if (tip) tip.hidden = true; owner = null; }

/** Explain every data-explain element of the page: hover and focus show, leaving hides; on a touch screen a tap
 * shows (the tap still plays a move where the element is a target) and a tap elsewhere hides. */
export function installTooltip(root = document) {
  const of = (ev) => ev.target instanceof Element ? ev.target.closest("[data-explain]") : null;
  root.addEventListener("pointerover", (ev) => { if (ev.pointerType === "touch") return; const n = of(ev); if (n) show(n); });
  root.addEventListener("pointerout", (ev) => {
    if (ev.pointerType === "touch") return;
    const n = of(ev);
    if (n && !(ev.relatedTarget instanceof Node && n.contains(ev.relatedTarget))) hide();
  });
  root.addEventListener("pointerdown", (ev) => { if (ev.pointerType !== "touch") return; const n = of(ev); if (n) show(n); else hide(); });
  root.addEventListener("focusin", (ev) => { const n = of(ev); if (n) show(n); });
  // leaving by the keyboard hides; a redraw that replaces the focused element (a block picked, a tile chosen) does
  // not take the explanation away from under the finger or the pointer
  root.addEventListener("focusout", (ev) => {
    const n = of(ev);
    if (n && n === owner) setTimeout(() => { if (owner === n && n.isConnected && !n.matches(":hover")) hide(); }, 0);
  });
}
