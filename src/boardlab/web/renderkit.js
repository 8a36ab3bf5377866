// What game renderers share (ES module, imported as "/static/renderkit.js"): the game's renderer data, words
// in the page's language, SVG elements, and a drawing that is a click target for legal actions with a menu
// when it offers several. Why: each renderer had written its own copy; a renderer keeps only its game.
// Nothing here knows a game: class names come with a prefix ("pt", "ci", ...), words with their tables.
import { countedKey, el, loadStylesheet } from "/static/common.js";

/** The game's renderer_data from /api/games ({} when missing), once its stylesheet is loaded. */
export async function rendererData(name) {
  const info = await fetch("/api/games").then((r) => r.json()).then((g) => g.games.find((x) => x.name === name))
    .catch(() => null);
  await loadStylesheet(`/static/games/${name}.css`);
  return (info && info.renderer_data) || {};
}

/** `s` with each {name} replaced by vars[name]; a name without a value stays as it is. */
export function fmt(s, vars) {
  return String(s).replace(/\{(\w+)\}/g, (_, k) => (vars && vars[k] !== undefined && vars[k] !== null ? vars[k] : `{${k}}`));
}

/** ui(key, vars) from the renderer's own table, term(key, vars) from the game's terms.json, both in
 * getLang()'s language, else English, else the key itself. */
export function words(UI, TERMS, getLang) {
  const pick = (table, k, vars) => {
    const own = table[getLang()];
    if (own && own[k]) return own[countedKey(own, k, vars)]; // "1 key": the language's own singular, if it has one
    return (table.en && table.en[countedKey(table.en, k, vars)]) || k;
  };
  return { ui: (k, vars) => fmt(pick(UI, k, vars), vars), term: (k, vars) => fmt(pick(TERMS || {}, k, vars), vars) };
}

/** An SVG element: attributes without null, undefined or false; children as nodes or text. */
export function svgEl(tag, attrs = {}, ...children) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** Make `node` a click (or Enter/Space) target for `acts` (legal moves {action, text}): class `<prefix>-target`,
 * data-actions "a|b" and an aria-label naming them. One move is played at once (`play(action)`); several call
 * `toggle()` (the renderer opens or closes its menu for this node). */
export function actionTarget(node, acts, label, prefix, play, toggle) {
  node.classList.add(`${prefix}-target`);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.dataset.actions = acts.map((a) => a.action).join("|");
  node.setAttribute("aria-label", `${label}: ${acts.map((a) => a.text || a.action).join(" / ")}`);
  const go = (ev) => {
    ev.stopPropagation();
    if (acts.length === 1) { play(acts[0].action); return; }
    toggle();
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(ev); } });
  return node;
}

/** The menu of a target offering several moves: `.<prefix>-menu` with a `.<prefix>-mbtn` button per move
 * (data-action, `label(a)`), then a close button (`closeClass`, `closeText`, calls `close()`); `head` first
 * when given. Clicks stay inside the menu. */
export function actionMenu(prefix, acts, { play, close, closeText, closeClass, label = (a) => a.text || a.action, head = null }) {
  const stop = (ev) => ev.stopPropagation();
  return el("div", { class: `${prefix}-menu`, role: "menu", onclick: stop },
    head,
    ...acts.map((a) => el("button", { class: `${prefix}-mbtn`, role: "menuitem", "data-action": a.action, title: a.action,
      onclick: (ev) => { stop(ev); play(a.action); } }, label(a))),
    el("button", { class: `${prefix}-mbtn ${closeClass}`, onclick: (ev) => { stop(ev); close(); } }, closeText));
}
