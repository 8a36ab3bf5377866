// The lobby: create a table (game, players, options, seat kinds), share its links, join open tables.
import { api, bracket, el, gameInfo, langSwitch, loadLang, seatName, t, toast } from "/static/common.js";
import { icon } from "/static/icons.js";
import { me, mountAccount } from "/static/account.js";
import { about, galleryCards } from "/static/gallery.js";
import { createdLinks, playNow, quickPanel, rateLevels, siteFields, siteSettings } from "/static/quick.js";

const LEVELS = ["easy", "medium", "hard"]; // what the bot menus offer; algorithm names only in "advanced"

let games = null;
const $ = (id) => document.getElementById(id);

function currentGame() { return games.games.find((g) => g.name === $("game").value); }

function drawGames() {
  const sel = $("game");
  const keep = sel.value;
  sel.replaceChildren(...games.games.map((g) => el("option", { value: g.name }, g.titles[lang()] || g.titles.en || g.name)));
  if (keep) sel.value = keep;
}

function lang() { return document.documentElement.lang || "en"; }

function drawOptions() {
  const g = currentGame();
  const box = $("options");
  box.replaceChildren();
  const n = Number($("players").value) || g.min_players;
  const meta = about(g, lang()).options_meta || {};
  const applies = ([k]) => !meta[k] || !meta[k].players || (n >= meta[k].players[0] && n <= meta[k].players[1]);
  const entries = Object.entries(g.options).filter(applies);
  if (!entries.length) return;
  box.append(el("h3", {}, t("options")));
  for (const [k, o] of entries) {
    let input;
    if (o.choices) {
      input = el("select", { "data-opt": k }, ...o.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === o.default }, choiceLabel(g, k, c))));
    } else if (typeof o.default === "boolean") {
      input = el("input", { type: "checkbox", "data-opt": k, checked: o.default });
    } else if (typeof o.default === "number") {
      input = el("input", { type: "number", "data-opt": k, value: o.default });
    } else {
      input = el("input", { type: "text", "data-opt": k, value: o.default ?? "" });
    }
    box.append(el("label", { title: o.doc, class: "option" }, optionLabel(g, k, o), input), el("br"));
  }
}

function readOptions() {
  const g = currentGame();
  const out = {};
  document.querySelectorAll("[data-opt]").forEach((input) => {
    const k = input.dataset.opt, o = g.options[k];
    let v;
    if (o.choices) v = JSON.parse(input.value);
    else if (typeof o.default === "boolean") v = input.checked;
    else if (typeof o.default === "number") v = Number(input.value);
    else v = input.value;
    if (o && JSON.stringify(v) !== JSON.stringify(o.default)) out[k] = v;
  });
  return out;
}

function drawSeats() {
  const g = currentGame();
  const players = $("players");
  players.min = g.min_players; players.max = g.max_players;
  let n = Math.min(Math.max(Number(players.value) || g.min_players, g.min_players), g.max_players);
  players.value = n;
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat-row")].map((r) => ({
    kind: r.querySelector(".kind").value, bot: r.querySelector(".bot").value, name: r.querySelector(".name").value }));
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { kind: i === 0 ? "human" : "bot", bot: "medium", name: "" };
    const kind = el("select", { class: "kind", "aria-label": t("kind_label") },
      ...["human", "open", "bot"].map((k) => el("option", { value: k, selected: k === prev.kind }, t(`kind_${k}`))));
    const advanced = $("advanced") && $("advanced").checked;
    const bot = el("select", { class: "bot", "aria-label": t("bot_level") },
      ...games.bots.map((b) => el("option", { value: b, selected: b === prev.bot, hidden: !LEVELS.includes(b) && !advanced },
        LEVELS.includes(b) ? t(`level_${b}`) : `${t("algorithm")}${t("colon")}${b}`)));
    rateLevels(bot, g.name);
    const name = el("input", { class: "name", placeholder: t("name"), maxlength: 40, value: prev.name });
    const sync = () => { bot.hidden = kind.value !== "bot"; };
    kind.addEventListener("change", sync); sync();
    box.append(el("div", { class: "seat-row" }, el("strong", {}, t("seat_n", { n: i + 1 })), kind, bot, name));
  }
}

async function create(ev) {
  ev.preventDefault();
  const seats = [...document.querySelectorAll(".seat-row")].map((r) => {
    const kind = r.querySelector(".kind").value;
    const s = { kind, name: r.querySelector(".name").value || null };
    if (kind === "bot") s.bot = r.querySelector(".bot").value;
    return s;
  });
  try {
    const res = await api("POST", "/api/site/tables", { body: {
      game: $("game").value, players: seats.length, options: readOptions(), seats, public: $("public").checked,
      ...siteSettings($("site-fields")) } });
    showCreated(res);
  } catch (e) { toast(e.message); }
}

function showCreated(res) {
  const box = $("created");
  const first = res.hotseat_link || (res.seats.find((s) => s.link) || {}).link || res.spectator_link;
  box.replaceChildren(...createdLinks(res, first));
  box.hidden = false;
}

/** A duration in the largest unit that keeps it short: 2 s, 5 min, 12 h, 3 d. */
function dur(sec) {
  if (sec < 120) return t("dur_s", { n: Math.round(sec) });
  if (sec < 7200) return t("dur_min", { n: Math.round(sec / 60) });
  if (sec < 172800) return t("dur_h", { n: Math.round(sec / 3600) });
  return t("dur_d", { n: Math.round(sec / 86400) });
}

/** A table's clock in words: a named speed, or a custom one with its times, or "No clock". */
export function clockWords(c) {
  if (!c) return t("speed_none");
  if (c.speed && c.speed !== "custom") return t(`speed_${c.speed}`);
  return c.mode === "turn" ? t("clock_custom_turn", { per: dur(c.per_move) })
    : t("clock_custom_realtime", { bank: dur(c.bank), per: dur(c.per_move) });
}

/** Who waits to play now, per game and player count (issue #34): one click seats you beside them. */
async function refreshSeeks() {
  const box = $("seek-list");
  try {
    const seeks = (await api("GET", "/api/seeks")).seeks.filter((x) => !x.rated || me);
    box.replaceChildren(...(seeks.length ? [el("h3", {}, t("seeks_list")), el("ul", {}, seeks.map((x) => {
      const g = games.games.find((y) => y.name === x.game);
      const status = el("span", { class: "seek-status" });
      return el("li", { class: "seek", "data-game": x.game },
        `${t("seek_line", { game: g ? (g.titles[lang()] || g.titles.en) : x.game, players: x.players, n: x.waiting })} `,
        el("span", { class: `badge${x.rated ? " rated" : ""}` }, x.rated ? `★ ${t("rated")}` : t("unrated")), " ",
        el("button", { type: "button", class: "primary", onclick: () => playNow(x.game, x.players, x.rated, status) }, `⚡ ${t("play_now")}`),
        " ", status);
    }))] : []));
  } catch { box.replaceChildren(); }
}

async function refreshOpen() {
  refreshSeeks();
  const box = $("open-list");
  try {
    const tables = await api("GET", "/api/tables");
    if (!tables.length) { box.replaceChildren(el("p", { class: "muted" }, t("no_open_tables"))); return; }
    box.replaceChildren(el("ul", {}, tables.map((tb) => {
      const g = games.games.find((x) => x.name === tb.game);
      const title = g ? (g.titles[lang()] || g.titles.en) : tb.game;
      const seats = tb.seats.map((s, i) => (s.kind === "open" ? `[${t("kind_open")}]` : seatName(tb.seats, i))).join(lang() === "zh-TW" ? "、" : ", ");
      // rated, clock and speed on the list and on the button itself: no rated 2-second table joined unawares (#32)
      const short = tb.clock && (tb.clock.mode === "turn" ? tb.clock.per_move < 3600 : tb.clock.bank < 120);
      const what = `${tb.rated ? `★ ${t("rated")}` : t("unrated")} · ${clockWords(tb.clock)}`;
      const join = el("button", { class: "join", onclick: async () => {
        try {
          let r = await api("POST", `/api/tables/${tb.id}/join`, { body: {} });
          if (me) r = await api("POST", `/api/tables/${tb.id}/claim`, { token: r.token }); // keep it in My games
          location.href = r.link;
        }
        catch (e) { toast(e.message); refreshOpen(); } } }, t("join_what", { what }));
      // a friend's table comes first (the server sorts) and says who is there (issue #34)
      const friends = tb.friends && tb.friends.length ? el("span", { class: "badge friend" },
        t("friends_here", { names: tb.friends.join(lang() === "zh-TW" ? "、" : ", ") })) : null;
      return el("li", { class: friends ? "friend-table" : null }, friends, friends ? " " : null, `${title}${bracket(lang(), t("n_players", { n: tb.players }))} — ${seats} `,
        el("span", { class: `badge${tb.rated ? " rated" : ""}` }, tb.rated ? `★ ${t("rated")}` : t("unrated")), " ",
        el("span", { class: `badge clock${short ? " low" : ""}` }, icon("clock"), clockWords(tb.clock)), " ",
        join, " ", el("a", { href: `/t/${tb.id}` }, t("spectator")));
    })));
  } catch (e) { box.textContent = e.message; }
}

function optionLabel(g, k, o) {
  const m = (about(g, lang()).options_meta || {})[k];
  return (m && (m[lang()] || m.en)) || o.doc || k; // never the raw key when the game says more
}

function choiceLabel(g, k, c) {
  const m = (about(g, lang()).options_meta || {})[k];
  const names = m && m.choices && (m.choices[lang()] || m.choices.en);
  if (names && names[String(c)] !== undefined) return names[String(c)];
  if (typeof c === "boolean") return c ? t("yes") : t("no");
  return String(c);
}

let myRatings = {};
function drawGallery() {
  $("gallery").replaceChildren(...galleryCards(games, lang(), (g) => {
    $("quick").replaceChildren(quickPanel(g, games, lang(), me));
    $("quick").hidden = false;
    $("quick").dataset.game = g.name;
    $("quick").scrollIntoView({ block: "nearest" });
  }, myRatings));
}

function redraw() {
  drawGames(); drawOptions(); drawSeats(); refreshOpen(); drawGallery();
  $("site-fields").replaceChildren(siteFields(me));
  if (!$("quick").hidden) { const g = games.games.find((x) => x.name === $("quick").dataset.game); if (g) $("quick").replaceChildren(quickPanel(g, games, lang(), me)); }
}

async function main() {
  await loadLang(localStorage.getItem("boardlab:lang") || (navigator.language.startsWith("zh") ? "zh-TW" : "en"));
  document.getElementById("lang").append(langSwitch(redraw));
  games = await gameInfo();
  await mountAccount();
  if (me) {
    try {
      const p = await api("GET", `/api/users/${encodeURIComponent(me.name)}`);
      for (const g of p.games) if (g.rating !== null) myRatings[g.game] = g.rating;
    } catch { /* no profile yet */ }
  }
  drawGames();
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.games.some((g) => g.name === wanted)) $("game").value = wanted;
  $("game").addEventListener("change", () => { drawOptions(); drawSeats(); });
  $("players").addEventListener("change", () => { drawSeats(); drawOptions(); });
  $("advanced").addEventListener("change", drawSeats);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", refreshOpen);
  redraw();
}
main();
