// The lobby's gallery of installed games, and the game facts shared with the How-to-play page.
// Everything comes from each game's package data (/api/games renderer_data): its about.json
// ({minutes: [min, max], options_meta: {option: {players: [min, max], <lang>: label, choices}},
// <lang>: {summary, how_to_play: [...]}}) and the provenance of its components. A game without
// about.json still gets a card (title, players, a generic picture, no text).
import { icon } from "/static/icons.js";
import { api, el, t, toast } from "/static/common.js";

export function about(g, lang) {
  // about.json in the game's package (or an `about` section of its terms.json)
  const d = g.renderer_data || {};
  const a = d.about || (d.terms && d.terms.about) || {};
  const words = a[lang] || a.en || {};
  return { ...words, minutes: a.minutes, picture: a.picture, options_meta: a.options_meta };
}

export function factsLine(g, lang) {
  const a = about(g, lang);
  const players = g.min_players === g.max_players ? String(g.min_players) : `${g.min_players}–${g.max_players}`;
  const parts = [icon("players"), t("n_players", { n: players })];
  if (a.minutes) parts.push(" · ", icon("clock"), t("n_minutes", { n: Array.isArray(a.minutes) ? a.minutes.join("–") : a.minutes }));
  return el("span", {}, ...parts);
}

/** Count components by provenance anywhere in the game's component data. */
export function provenance(g) {
  const out = {};
  const walk = (x) => {
    if (Array.isArray(x)) { x.forEach(walk); return; }
    if (x && typeof x === "object") {
      if (typeof x.provenance === "string") out[x.provenance] = (out[x.provenance] || 0) + 1;
      Object.values(x).forEach(walk);
    }
  };
  const d = g.renderer_data || {};
  walk(d.components); walk(d.cards); walk(d.rules);
  return out;
}

export function componentsNote(g) {
  const p = provenance(g);
  const rec = p.reconstructed || 0, seed = p.seed || 0, off = p.official || 0;
  if (!rec && !seed && !off) return null;
  return el("p", { class: "muted components-note", title: t("provenance_help") },
    rec || seed ? icon("puzzle") : icon("check"),
    rec || seed ? t("reconstructed_n", { n: rec + seed, total: rec + seed + off }) : t("all_official"));
}

export function cover(g) {
  // a picture in the game's own colours: its renderer's `cover()` if it has one, else its initials
  const box = el("div", { class: "cover", "aria-hidden": "true" }, el("span", {}, (g.titles.en || g.name).slice(0, 2)));
  let hue = 0;
  for (const ch of g.name) hue = (hue * 31 + ch.charCodeAt(0)) % 360;
  box.style.setProperty("--hue", String(hue));
  if (g.renderer) {
    import(g.renderer).then((m) => { if (m.cover) { const pic = m.cover(); if (pic) { box.replaceChildren(pic); box.classList.add("has-pic"); } } }).catch(() => {});
  }
  return box;
}

/** Start a guided first game of `g` (POST /api/tutorials/{name}) and open its table. */
export async function startTutorial(g) {
  const r = await api("POST", `/api/tutorials/${encodeURIComponent(g.name)}`);
  location.href = r.link;
}

/** The button that starts a guided first game, where the game has one (else null). */
export function tutorialButton(g) {
  if (!g.tutorial) return null;
  return el("button", { type: "button", class: "tutorial-start", "data-game": g.name,
    onclick: () => startTutorial(g).catch((e) => toast(e.message)) }, icon("book"), t("tutorial_start"));
}

/** One card per installed game: picture, title, players, length, two lines, components, How to play, Play. */
export function galleryCards(games, lang, onPlay, mine = {}) {
  return games.games.map((g) => {
    const a = about(g, lang);
    return el("article", { class: "game-card", "data-game": g.name },
      cover(g),
      el("h3", {}, g.titles[lang] || g.titles.en || g.name),
      el("p", { class: "facts" }, factsLine(g, lang),
        mine[g.name] ? el("span", { class: "my-rating", title: t("rating") }, ` · ★ ${mine[g.name]}`) : null),
      el("p", { class: "summary" }, a.summary || t("no_summary")),
      componentsNote(g),
      g.tutorial ? el("p", { class: "card-tutorial" }, tutorialButton(g)) : null,
      el("p", { class: "card-actions" },
        el("a", { href: `/how/${encodeURIComponent(g.name)}`, class: "how-link" }, icon("book"), t("how_to_play")), " ",
        el("button", { type: "button", class: "primary play", onclick: () => onPlay(g) }, `▶ ${t("play")}`)));
  });
}
