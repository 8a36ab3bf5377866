// The lobby: create a table (game, players, options, seat kinds), share its links, join open tables.
import { api, el, gameInfo, langSwitch, loadLang, t, toast } from "/static/common.js";

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
  const entries = Object.entries(g.options);
  if (!entries.length) return;
  box.append(el("h3", {}, t("options")));
  for (const [k, o] of entries) {
    let input;
    if (o.choices) {
      input = el("select", { "data-opt": k }, ...o.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === o.default }, String(c))));
    } else if (typeof o.default === "boolean") {
      input = el("input", { type: "checkbox", "data-opt": k, checked: o.default });
    } else if (typeof o.default === "number") {
      input = el("input", { type: "number", "data-opt": k, value: o.default });
    } else {
      input = el("input", { type: "text", "data-opt": k, value: o.default ?? "" });
    }
    box.append(el("label", { title: o.doc }, k, input), el("span", { class: "muted" }, o.doc), el("br"));
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
    if (JSON.stringify(v) !== JSON.stringify(o.default)) out[k] = v;
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
    const prev = old[i] || { kind: i === 0 ? "human" : "bot", bot: games.bots[0], name: "" };
    const kind = el("select", { class: "kind", "aria-label": t("kind_label") },
      ...["human", "open", "bot"].map((k) => el("option", { value: k, selected: k === prev.kind }, t(`kind_${k}`))));
    const bot = el("select", { class: "bot", "aria-label": t("bot_level") },
      ...games.bots.map((b) => el("option", { value: b, selected: b === prev.bot }, b)));
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
    const res = await api("POST", "/api/tables", { body: {
      game: $("game").value, players: seats.length, options: readOptions(), seats, public: $("public").checked } });
    showCreated(res);
  } catch (e) { toast(e.message); }
}

function linkItem(label, path) {
  const url = new URL(path, location.href).href;
  const copy = el("button", { type: "button", onclick: async () => {
    try { await navigator.clipboard.writeText(url); toast(t("copied")); } catch { toast(url); } } }, t("copy"));
  return el("li", {}, el("strong", {}, label), " ", el("a", { href: url, target: "_blank" }, url), " ", copy);
}

function showCreated(res) {
  const box = $("created");
  const items = res.seats.filter((s) => s.link).map((s) => linkItem(t("seat_n", { n: s.seat + 1 }), s.link));
  if (res.hotseat_link) items.push(linkItem(t("hotseat"), res.hotseat_link));
  items.push(linkItem(t("spectator"), res.spectator_link));
  const first = res.hotseat_link || (res.seats.find((s) => s.link) || {}).link || res.spectator_link;
  box.replaceChildren(el("p", {}, t("created")), el("ul", { class: "links" }, items),
    el("p", {}, el("a", { href: first }, el("button", { class: "primary", type: "button" }, t("open")))));
  box.hidden = false;
}

async function refreshOpen() {
  const box = $("open-list");
  try {
    const tables = await api("GET", "/api/tables");
    if (!tables.length) { box.replaceChildren(el("p", { class: "muted" }, t("no_open_tables"))); return; }
    box.replaceChildren(el("ul", {}, tables.map((tb) => {
      const g = games.games.find((x) => x.name === tb.game);
      const title = g ? (g.titles[lang()] || g.titles.en) : tb.game;
      const seats = tb.seats.map((s) => (s.kind === "open" ? `[${t("kind_open")}]` : s.name)).join(", ");
      const join = el("button", { onclick: async () => {
        try { const r = await api("POST", `/api/tables/${tb.id}/join`, { body: {} }); location.href = r.link; }
        catch (e) { toast(e.message); refreshOpen(); } } }, t("join"));
      return el("li", {}, `${title} (${tb.players}) — ${seats} `, join, " ", el("a", { href: `/t/${tb.id}` }, t("spectator")));
    })));
  } catch (e) { box.textContent = e.message; }
}

function redraw() { drawGames(); drawOptions(); drawSeats(); refreshOpen(); }

async function main() {
  await loadLang(localStorage.getItem("boardlab:lang") || (navigator.language.startsWith("zh") ? "zh-TW" : "en"));
  document.getElementById("lang").append(langSwitch(redraw));
  games = await gameInfo();
  drawGames();
  $("game").addEventListener("change", () => { drawOptions(); drawSeats(); });
  $("players").addEventListener("change", drawSeats);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", refreshOpen);
  redraw();
}
main();
