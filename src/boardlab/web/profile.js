// A player's profile: games played per game, wins, ratings, recent tables.
import { icon } from "/static/icons.js";
import { api, el, gameInfo, langSwitch, lang, loadLang, t } from "/static/common.js";
import { gameTitle, me, mountAccount } from "/static/account.js";
import { loadLists, socialButtons } from "/static/social.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").pop());
let games = null, prof = null, bots = null;

function draw() {
  document.title = `${name} — boardlab`;
  if (!prof) { $("page").replaceChildren(el("section", {}, el("p", {}, t("err_no_user")))); return; }
  const perGame = el("table", { class: "grid" },
    el("tr", {}, el("th", {}, t("game")), el("th", {}, t("rating")), el("th", {}, t("played")), el("th", {}, t("won"))),
    ...prof.games.map((g) => el("tr", {}, el("td", {}, gameTitle(games, g.game, lang)),
      el("td", { class: "rating" }, g.rating === null ? "—" : String(g.rating),
        g.rating !== null && g.provisional ? el("span", { class: "muted provisional", title: t("provisional_help") }, ` (${t("provisional")})`) : ""), el("td", {}, String(g.played)), el("td", {}, String(g.won)))));
  const recent = el("table", { class: "grid" },
    el("tr", {}, el("th", {}, t("game")), el("th", {}, t("rank")), el("th", {}, t("rating")), el("th", {}, "")),
    ...prof.recent.map((r) => el("tr", {}, el("td", {}, gameTitle(games, r.game, lang)),
      el("td", {}, r.rank === 1 ? el("span", {}, icon("trophy"), "1") : String(r.rank)),
      el("td", {}, r.rated ? `${r.after} (${r.after - r.before >= 0 ? "+" : ""}${r.after - r.before})` : t("unrated")),
      el("td", {}, el("a", { href: `/r/${r.table}` }, t("replay"))))));
  const botRows = bots && Object.entries(bots.ratings).flatMap(([g, lv]) => Object.entries(lv).map(([l, v]) =>
    el("tr", {}, el("td", {}, gameTitle(games, g, lang)), el("td", {}, t(`level_${l}`)), el("td", {}, String(v)))));
  $("page").replaceChildren(
    el("section", {}, el("h2", { id: "profile-name" }, icon("user"), prof.name),
      me && me.name.toLowerCase() !== prof.name.toLowerCase() ? socialButtons(prof.name, draw) : null,
      prof.games.length ? perGame : el("p", { class: "muted" }, t("no_games_yet"))),
    el("section", {}, el("h2", {}, t("recent_tables")), prof.recent.length ? recent : el("p", { class: "muted" }, t("no_games_yet"))),
    botRows && botRows.length ? el("section", {}, el("h2", {}, t("bot_ratings")), el("table", { class: "grid" }, ...botRows)) : "");
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(draw));
  games = await gameInfo();
  await mountAccount();
  try { prof = await api("GET", `/api/users/${encodeURIComponent(name)}`); } catch { prof = null; }
  try { bots = await api("GET", "/api/bots/ratings"); } catch { bots = null; }
  if (me) await loadLists();
  draw();
}
main();
