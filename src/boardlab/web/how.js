// How to play one game, in the player's language: from the `about` section of the game's terms.json.
import { el, gameInfo, langSwitch, lang, loadLang, t } from "/static/common.js";
import { mountAccount } from "/static/account.js";
import { about, componentsNote, cover, factsLine, tutorialButton } from "/static/gallery.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").pop());
let games = null;

function draw() {
  const g = games.games.find((x) => x.name === name);
  if (!g) { $("page").replaceChildren(el("section", {}, el("p", {}, t("err_no_game")))); return; }
  const title = g.titles[lang] || g.titles.en;
  document.title = `${t("how_to_play")}${t("colon")}${title} — boardlab`;
  const a = about(g, lang);
  const steps = a.how_to_play && a.how_to_play.length ? a.how_to_play : null;
  $("page").replaceChildren(el("section", { class: "how" },
    el("h2", {}, `${t("how_to_play")}${t("colon")}${title}`),
    el("div", { class: "how-cover" }, cover(g)),
    el("p", { class: "facts" }, factsLine(g, lang)),
    a.summary ? el("p", { class: "summary" }, a.summary) : null,
    steps ? el("ol", { class: "how-steps" }, steps.map((s) => el("li", {}, s))) : el("p", { class: "muted" }, t("no_how_to_play")),
    componentsNote(g),
    el("p", {}, el("a", { href: `/?game=${encodeURIComponent(name)}` }, el("button", { class: "primary" }, t("play_this"))),
      " ", tutorialButton(g))));
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(draw));
  games = await gameInfo();
  await mountAccount();
  draw();
}
main();
