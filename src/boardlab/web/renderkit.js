// What game renderers share (ES module, imported as "/static/renderkit.js"): the game's renderer data, words
// in the page's language, SVG elements, and a drawing that is a click target for legal actions with a menu
// when it offers several. Why: each renderer had written its own copy; a renderer keeps only its game.
// Nothing here knows a game: class names come with a prefix ("pt", "ci", ...), words with their tables.
import { countedKey, el, loadStylesheet } from "/static/common.js";

export { bracket, colon, labelled, listing } from "/static/common.js";

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

// -- moves you can follow -----------------------------------------------------------------------------------
// A renderer tags the game's pieces with a stable key: `track(node, key, sig)` sets data-track (a tile, a card, a
// cube, a worker: the same key from one render to the next) and, where a piece's look changes without its text
// changing (an SVG tile turned, a cube recoloured), data-sig. The shell snapshots the keyed pieces before a render
// and `follow` compares them after it: a piece whose key appeared drops in, one that moved (to another zone, or
// to another place of an SVG board) slides from where it was (FLIP), one whose signature changed flashes; all of them are what
// the move changed (the last move's marks, a hovered log line's marks). Why data-track and not data-key: Block
// and Key's key cards already use data-key for the game's keys.

/** Tag `node` as the game piece `key` (unique per render; repeats are told apart by their order). */
export function track(node, key, sig) {
  node.dataset.track = key;
  if (sig !== undefined && sig !== null) node.dataset.sig = String(sig);
  return node;
}

/** The container's keyed pieces: key -> element (a repeated key gets "#2", "#3"... in document order). */
export function keyed(container) {
  const out = new Map(), seen = new Map();
  for (const e of container.querySelectorAll("[data-track]")) {
    const k = e.dataset.track;
    const n = (seen.get(k) || 0) + 1;
    seen.set(k, n);
    out.set(n > 1 ? `${k}#${n}` : k, e);
  }
  return out;
}

const sigOf = (e) => e.dataset.sig ?? e.textContent;

// A piece's zone is the nearest region that holds it (data-zone, a seat's panel, an SVG board): a move is a change
// of zone, or of place inside an SVG board (where places are the game's). A piece that only reflowed (a prompt
// appeared above it, a neighbour in its row left) has not moved.
function zoneOf(e, container, rects) {
  const z = e.parentElement && e.parentElement.closest("[data-zone],[data-seat],svg");
  const box = z && container.contains(z) ? z : container;
  if (!rects.has(box)) rects.set(box, box.getBoundingClientRect());
  const name = box === container ? "" : box.dataset.zone ?? (box.dataset.seat !== undefined ? `seat${box.dataset.seat}` : "svg");
  return { name, rect: rects.get(box) };
}

function placeOf(e, container, rects) {
  const r = e.getBoundingClientRect();
  const z = zoneOf(e, container, rects);
  return { x: r.left, y: r.top, rx: r.left - z.rect.left, ry: r.top - z.rect.top, zone: z.name, svg: e instanceof SVGElement,
    shown: r.width > 0 || r.height > 0 };
}

/** Where every keyed piece of `container` is now, and how it looks (call it before a render). */
export function snapshot(container) {
  const rects = new Map(), out = new Map();
  for (const [k, e] of keyed(container)) out.set(k, { ...placeOf(e, container, rects), sig: sigOf(e) });
  return out;
}

// CSS pixels on screen -> the units of an SVG element's parent (the `translate` property is applied there)
function scaleOf(e) {
  if (!(e instanceof SVGElement) || e instanceof SVGSVGElement) return [1, 1];
  const m = e.parentNode && e.parentNode.getScreenCTM && e.parentNode.getScreenCTM();
  return m && m.a && m.d ? [m.a, m.d] : [1, 1];
}

/** Compare `container`'s keyed pieces with `before` (a snapshot): the keys that appeared, moved or changed, and
 * (with `animate`) each animated over `ms`: dropped in, slid from its old place, or flashed. Pieces the renderer
 * animates by itself are left to it. Returns {changed: Set of keys, animated: count}. */
export function follow(container, before, { animate = true, ms = 450 } = {}) {
  const rects = new Map(), changed = new Set();
  let animated = 0;
  const own = (e) => e.getAnimations({ subtree: true }).some((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity);
  const run = (e, frames) => {
    if (!animate || own(e)) return;
    e.animate(frames, { duration: ms, easing: "ease-out", id: "rk-follow" });
    animated++;
  };
  for (const [k, e] of keyed(container)) {
    const old = before.get(k);
    const now = placeOf(e, container, rects);
    const [sx, sy] = scaleOf(e);
    if (!old) {
      changed.add(k);
      if (now.shown) run(e, [{ opacity: 0, translate: `0px ${-28 / sy}px` }, { opacity: 1, translate: "0px 0px" }]);
    } else if (old.zone !== now.zone || (now.svg && (Math.abs(old.rx - now.rx) > 3 || Math.abs(old.ry - now.ry) > 3))) {
      changed.add(k);
      // an inline box cannot be translated (CSS transforms skip it): it fades in where it is now
      const inline = !now.svg && getComputedStyle(e).display === "inline";
      if (old.shown && now.shown) {
        run(e, inline ? [{ opacity: 0 }, { opacity: 1 }] : [{ translate: `${(old.x - now.x) / sx}px ${(old.y - now.y) / sy}px` }, { translate: "0px 0px" }]);
      }
    } else if (old.sig !== sigOf(e)) {
      changed.add(k);
      if (now.shown) run(e, [{ opacity: 0.25 }, { opacity: 1 }]);
    }
  }
  return { changed, animated };
}

/** Give class `cls` to exactly the keyed pieces of `container` whose key is in `keys`; returns how many. */
export function markKeys(container, keys, cls) {
  let n = 0;
  for (const [k, e] of keyed(container)) {
    const on = keys.has(k);
    if (on) n++;
    if (e.classList.contains(cls) !== on) e.classList.toggle(cls, on);
  }
  return n;
}
