// My games: every table of the signed-in player, those where it is their turn first.
import { api, el, gameInfo, langSwitch, lang, loadLang, t, toast } from "/static/common.js";
import { gameTitle, me, mountAccount } from "/static/account.js";
import { loadLists, socialLists } from "/static/social.js";

const $ = (id) => document.getElementById(id);
let games = null, tables = [];

function draw() {
  document.title = `${t("my_games")} — boardlab`;
  if (!me) {
    $("page").replaceChildren(el("section", {}, el("p", {}, t("sign_in_first")), el("a", { href: "/signin?next=/me" }, el("button", { class: "primary" }, t("sign_in")))));
    return;
  }
  const turn = tables.filter((x) => x.my_turn);
  const rows = tables.map((x) => el("li", { class: `my-table${x.my_turn ? " my-turn" : ""}` },
    x.my_turn ? el("span", { class: "badge turn" }, t("your_turn")) : x.over ? el("span", { class: "badge" }, t("game_over")) : el("span", { class: "badge" }, t("waiting")),
    " ", el("a", { href: x.over ? `/r/${x.table}` : x.link, class: "table-link" }, `${gameTitle(games, x.game, lang)} · ${x.table}`),
    x.over ? el("span", {}, " ", el("a", { href: x.link }, t("open"))) : null));
  $("page").replaceChildren(el("section", {},
    el("h2", {}, t("my_games"), turn.length ? el("span", { class: "badge turn" }, String(turn.length)) : null),
    tables.length ? el("ul", { class: "my-tables" }, rows) : el("p", { class: "muted" }, t("no_tables_yet")),
    el("p", {}, el("a", { href: "/" }, el("button", { class: "primary" }, t("new_table")))),
    el("p", {}, el("button", { type: "button", id: "signout-everywhere", onclick: async () => {
      try { await api("POST", "/api/account/signout/everywhere"); location.reload(); } catch (e) { toast(e.message); }
    } }, t("sign_out_everywhere")))), socialLists(draw));
  document.title = (turn.length ? `(${turn.length}) ` : "") + document.title;
}

async function refresh() {
  if (!me) return draw();
  try { tables = (await api("GET", "/api/me/tables")).tables; } catch (e) { toast(e.message); }
  draw();
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(draw));
  games = await gameInfo();
  await mountAccount();
  if (me) await loadLists();
  await refresh();
  setInterval(refresh, 15000);
}
main();
