// A player's profile: games played per game, wins, ratings, recent tables.
import { icon } from "/static/icons.js";
import { api, bracket, el, gameInfo, langSwitch, lang, loadLang, seatName, t } from "/static/common.js";
import { changeText, gameTitle, me, mountAccount } from "/static/account.js";
import { loadLists, socialButtons } from "/static/social.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").pop());
let games = null, prof = null, bots = null, page = 0;

function draw() {
  document.title = `${name} — boardlab`;
  if (!prof) { $("page").replaceChildren(el("section", {}, el("p", {}, t("err_no_user")))); return; }
  const perGame = el("table", { class: "grid" },
    el("tr", {}, el("th", {}, t("game")), el("th", {}, t("rating")), el("th", {}, t("played")), el("th", {}, t("won"))),
    ...prof.games.map((g) => el("tr", {}, el("td", {}, gameTitle(games, g.game, lang)),
      el("td", { class: "rating" }, g.rating === null ? "—" : String(g.rating),
        g.rating !== null && g.provisional ? el("span", { class: "muted provisional", title: t("provisional_help") }, bracket(lang, t("provisional"))) : ""), el("td", {}, String(g.played)), el("td", {}, String(g.won)))));
  // each game played (issue #34): date, opponents (accounts link to their profiles), place, rating change, left
  const leftMark = () => el("span", { class: "badge warn left-mark", title: t("left_help") }, t("left_mark"));
  const opponents = (r) => {
    const seats = r.opponents.map((o) => ({ kind: o.kind === "account" ? "human" : o.kind, name: o.name }));
    return r.opponents.map((o, i) => el("span", { class: "opponent" }, i ? (lang === "zh-TW" ? "、" : ", ") : "",
      o.kind === "account" ? el("a", { href: `/u/${encodeURIComponent(o.name)}` }, o.name) : seatName(seats, i),
      o.left ? [" ", leftMark()] : null));
  };
  const result = (r) => [r.rank === 1 ? el("span", {}, icon("trophy"), t("result_won"))
    : r.players ? t("result_place", { rank: r.rank, n: r.players }) : String(r.rank), ...(r.left ? [" ", leftMark()] : [])];
  const recent = el("table", { class: "grid games-played" },
    el("tr", {}, el("th", {}, t("game")), el("th", {}, t("date")), el("th", {}, t("opponents_col")), el("th", {}, t("result")),
      el("th", {}, t("rating")), el("th", {}, "")),
    ...prof.recent.map((r) => el("tr", { class: `played${r.left ? " left" : ""}`, "data-table": r.table },
      el("td", {}, gameTitle(games, r.game, lang)),
      el("td", {}, new Date(r.at * 1000).toLocaleDateString(lang)),
      el("td", { class: "opponents" }, opponents(r)),
      el("td", { class: "result" }, result(r)),
      el("td", { class: "rating-change" }, r.rated ? changeText(r) : t("unrated")),
      el("td", {}, el("a", { href: `/r/${r.table}` }, t("replay"))))));
  const turn = async (d) => { page = Math.max(0, page + d); await load(); draw(); };
  const pager = page > 0 || prof.more ? el("p", { class: "pager" },
    page > 0 ? el("button", { type: "button", id: "games-prev", onclick: () => turn(-1) }, t("prev_page")) : null, " ",
    el("span", { class: "muted" }, t("page_n", { n: page + 1 })), " ",
    prof.more ? el("button", { type: "button", id: "games-next", onclick: () => turn(1) }, t("next_page")) : null) : null;
  // the site's bots, the same on every profile: what each level's figure is, and which are still the ladder's
  const fromLadder = (g, l) => ((bots && bots.ladder && bots.ladder[g]) || []).includes(l);
  const botRows = bots && Object.entries(bots.ratings).flatMap(([g, lv]) => Object.entries(lv).map(([l, v]) =>
    el("tr", { "data-bot": `${g}:${l}` }, el("td", {}, gameTitle(games, g, lang)), el("td", {}, t(`level_${l}`)),
      el("td", {}, String(v), fromLadder(g, l)
        ? [" ", el("span", { class: "muted bot-ladder", title: t("bot_ladder_title") }, t("bot_ladder_mark"))] : null))));
  $("page").replaceChildren(
    el("section", {}, el("h2", { id: "profile-name" }, icon("user"), prof.name),
      me && me.name.toLowerCase() !== prof.name.toLowerCase() ? socialButtons(prof.name, draw) : null,
      prof.games.length ? perGame : el("p", { class: "muted" }, t("no_games_yet"))),
    el("section", {}, el("h2", {}, t("games_played")),
      prof.recent.length ? el("div", { class: "wide" }, recent) : el("p", { class: "muted" }, t("no_games_yet")), pager),
    botRows && botRows.length ? el("section", { id: "bot-ratings" }, el("h2", {}, t("bot_ratings")),
      el("p", { class: "muted" }, t("bot_ratings_help")),
      el("table", { class: "grid" }, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("bot_level_col")), el("th", {}, t("rating"))),
        ...botRows)) : "");
}

async function load() {
  try { prof = await api("GET", `/api/users/${encodeURIComponent(name)}?page=${page}`); } catch { prof = null; }
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(draw));
  games = await gameInfo();
  await mountAccount();
  await load();
  try { bots = await api("GET", "/api/bots/ratings"); } catch { bots = null; }
  if (me) await loadLists();
  draw();
}
main();
