// Leaderboards per game and player count, a page at a time, and player search by the start of a name (issue #34).
// The address keeps the choice (?game=&players=&page=), so a leaderboard can be shared.
import { icon } from "/static/icons.js";
import { api, el, gameInfo, labelled, langSwitch, lang, loadLang, t, toast } from "/static/common.js";
import { gameTitle, mountAccount } from "/static/account.js";

const $ = (id) => document.getElementById(id);
let games = null, board = null, found = null;
const want = new URLSearchParams(location.search);
let game = want.get("game"), players = Number(want.get("players")) || 0, page = Math.max(0, Number(want.get("page")) || 0);

function pick() {
  const g = games.games.find((x) => x.name === game) || games.games[0];
  game = g.name;
  const lo = Math.max(2, g.min_players);
  if (!(players >= lo && players <= g.max_players)) players = Math.min(Math.max(2, lo), g.max_players);
  return g;
}

async function load() {
  pick();
  history.replaceState(null, "", `/leaders?game=${encodeURIComponent(game)}&players=${players}&page=${page}`);
  try { board = await api("GET", `/api/leaderboard/${encodeURIComponent(game)}?players=${players}&page=${page}`); }
  catch (e) { board = null; toast(e.message); }
  draw();
}

function draw() {
  document.title = `${t("leaderboard")} — boardlab`;
  const g = pick();
  const gameSel = el("select", { id: "lb-game", "aria-label": t("game"), onchange: (e) => { game = e.target.value; players = 0; page = 0; load(); } },
    ...games.games.filter((x) => x.max_players >= 2).map((x) => el("option", { value: x.name, selected: x.name === game }, gameTitle(games, x.name, lang))));
  const counts = [];
  for (let n = Math.max(2, g.min_players); n <= g.max_players; n++) counts.push(n);
  const countSel = el("select", { id: "lb-players", "aria-label": t("players"), onchange: (e) => { players = Number(e.target.value); page = 0; load(); } },
    ...counts.map((n) => el("option", { value: n, selected: n === players }, t("players_n", { n }))));
  const rows = board ? board.rows : [];
  const list = rows.length ? el("div", { class: "wide" }, el("table", { class: "grid leaders" },
    el("tr", {}, el("th", {}, t("rank")), el("th", {}, t("player")), el("th", {}, t("rating")), el("th", {}, t("rated_games"))),
    ...rows.map((r) => el("tr", { class: "leader" },
      el("td", {}, r.place === 1 ? el("span", {}, icon("trophy"), "1") : String(r.place)),
      el("td", {}, el("a", { href: `/u/${encodeURIComponent(r.name)}` }, r.name)),
      el("td", { class: "rating" }, String(r.rating), r.provisional ? el("span", { class: "muted", title: labelled(lang, t("provisional"), t("provisional_help")) }, "?") : null),
      el("td", {}, String(r.games_here)))))) : el("p", { class: "muted" }, t("no_rated_yet"));
  // what the "?" means, said once under the table: a phone has no hover to show its title
  const legend = rows.some((r) => r.provisional)
    ? el("p", { class: "muted", id: "lb-provisional" }, `? ${labelled(lang, t("provisional"), t("provisional_help"))}`) : null;
  const more = board && (page + 1) * board.per_page < board.total;
  const pager = page > 0 || more ? el("p", { class: "pager" },
    page > 0 ? el("button", { type: "button", id: "lb-prev", onclick: () => { page -= 1; load(); } }, t("prev_page")) : null, " ",
    el("span", { class: "muted" }, t("page_n", { n: page + 1 })), " ",
    more ? el("button", { type: "button", id: "lb-next", onclick: () => { page += 1; load(); } }, t("next_page")) : null) : null;
  const input = el("input", { id: "find-player", type: "search", maxlength: 20, placeholder: t("find_placeholder"), "aria-label": t("find_player") });
  const results = el("ul", { id: "found-players" }, ...(found || []).map((n) => el("li", {}, el("a", { href: `/u/${encodeURIComponent(n)}` }, icon("user"), n))));
  const form = el("form", { id: "find-form", onsubmit: async (e) => {
    e.preventDefault();
    const q = input.value.trim();
    if (!q) return;
    try { found = (await api("GET", `/api/users?prefix=${encodeURIComponent(q)}`)).users; } catch (err) { toast(err.message); return; }
    draw();
    $("find-player").value = q;
  } }, input, " ", el("button", { type: "submit" }, t("find_player")));
  $("page").replaceChildren(
    el("section", {}, el("h2", {}, icon("trophy"), t("leaderboard")),
      el("p", { class: "quick-row" }, gameSel, " ", countSel), list, legend, pager),
    el("section", {}, el("h2", {}, icon("user"), t("find_player")), form,
      found === null ? null : found.length ? results : el("p", { class: "muted", id: "found-none" }, t("no_players_found"))));
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(draw));
  games = await gameInfo();
  await mountAccount();
  await load();
}
main();
