// Two-click tables: "Play" on a game card opens this panel with sensible defaults (you + medium
// bots), "Create and play" opens your seat. Also the site settings of the custom form: rated, clock,
// bot pace (shared by both).
import { icon } from "/static/icons.js";
import { api, el, errorText, t, toast } from "/static/common.js";

export const SPEEDS = ["none", "fast", "normal", "slow", "12h", "1d", "3d"];
export const PACES = [["0", "pace_instant"], ["1", "pace_normal"], ["2.5", "pace_slow"]];

function select(cls, options, value, label) {
  return el("select", { class: cls, "aria-label": label },
    ...options.map(([v, text]) => el("option", { value: v, selected: v === value }, text)));
}

/** Rated / clock / bot pace / level for a stand-in bot: the fields both forms use. */
export function siteFields(me) {
  const rated = el("input", { type: "checkbox", class: "rated", disabled: !me });
  const clock = select("clock", SPEEDS.map((s) => [s, t(`speed_${s}`)]), "none", t("clock"));
  const pace = select("pace", PACES.map(([v, k]) => [v, t(k)]), "1", t("bot_pace"));
  return el("div", { class: "site-fields" },
    el("label", { title: me ? t("rated_help") : t("rated_needs_account") }, rated, t("rated")),
    me ? null : el("a", { href: "/signin?next=/", class: "muted" }, t("rated_needs_account")),
    el("label", {}, icon("clock"), t("clock"), clock),
    el("label", {}, t("bot_pace"), pace));
}

export function siteSettings(box) {
  const q = (c) => box.querySelector(`.${c}`);
  const clock = q("clock") ? q("clock").value : "none";
  return {
    rated: !!(q("rated") && q("rated").checked),
    clock: clock === "none" ? null : clock,
    pace: q("pace") ? Number(q("pace").value) : 1,
    bot_level: q("level") ? q("level").value : "medium",
  };
}

function linkItem(label, path) {
  const url = new URL(path, location.href).href;
  const copy = el("button", { type: "button", class: "copy", onclick: async () => {
    try { await navigator.clipboard.writeText(url); toast(t("copied")); } catch { toast(url); } } }, t("copy"));
  return el("li", {}, el("strong", {}, label), " ", el("a", { href: url, target: "_blank" }, url), " ", copy);
}

/** A new table's links to share: each person seat's, the hot-seat one, the spectators' — each with a Copy button —
 * and "Open" (`first`). The custom form and the quick "Friends" table show the same (issue #34: the quick one
 * had neither Copy buttons nor the spectator link). */
export function createdLinks(res, first) {
  const items = res.seats.filter((s) => s.link).map((s) => linkItem(t("seat_n", { n: s.seat + 1 }), s.link));
  if (res.hotseat_link) items.push(linkItem(t("hotseat"), res.hotseat_link));
  items.push(linkItem(t("spectator"), res.spectator_link));
  return [el("p", {}, t("created")), el("ul", { class: "links" }, items),
    el("p", {}, el("a", { href: first }, el("button", { class: "primary", type: "button" }, t("open"))))];
}

// Play now (issue #34): one search at a time, kept across redraws of the panel (a language switch redraws it)
let seeking = null; // {game, players, ws, waiting, status: the element showing it}

function seekStatus() {
  if (!seeking) return;
  const s = seeking;
  s.status.replaceChildren(el("span", { class: "seek-waiting" }, t("seek_waiting", { n: s.waiting, players: s.players })), " ",
    el("button", { type: "button", id: "seek-cancel", onclick: () => { seeking = null; s.ws.close(); s.status.replaceChildren(); } }, t("seek_cancel")));
}

/** Ask to be seated with strangers: the seek lives while this page keeps its socket open (closing the page
 * withdraws it); the server sends how many wait, then the new table's link. */
export async function playNow(game, players, rated, status) {
  if (seeking) { seeking.ws.close(); seeking = null; }
  let r;
  try { r = await api("POST", "/api/seeks", { body: { game, players, rated } }); }
  catch (e) { toast(e.message); return; }
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/seeks`);
  const s = { game, players, ws, waiting: 1, status };
  seeking = s;
  seekStatus();
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", seek: r.seek, token: r.token }));
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "waiting" && seeking === s) { s.waiting = m.waiting; seekStatus(); }
    else if (m.type === "seated") { s.done = true; location.href = m.link; }
    else if (m.type === "error") { s.done = true; toast(errorText(m)); }
  };
  ws.onclose = () => {
    if (seeking !== s || s.done) return;
    seeking = null;
    status.replaceChildren(el("span", { class: "muted" }, t("seek_lost")));
  };
}

let botRatings = null;

/** Label a bot menu's level options with how strong each level is in `game`: "Hard · ★ 4185", the bots' ratings
 * (GET /api/bots/ratings, read once a page: the bot ladder's figure until people's games move it, issue #34). */
export function rateLevels(menu, game) {
  botRatings = botRatings || api("GET", "/api/bots/ratings").then((r) => r.ratings || {}).catch(() => ({}));
  botRatings.then((all) => {
    const mine = all[game] || {};
    for (const o of menu.options) if (mine[o.value]) o.textContent = `${t(`level_${o.value}`)} · ★ ${mine[o.value]}`;
  });
}

export function quickPanel(g, games, lang, me) {
  const counts = [];
  for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
  const players = select("players", counts.map((n) => [String(n), String(n)]),
    String(counts.includes(2) ? 2 : g.min_players), t("players"));
  const who = select("who", [["bots", t("with_bots")], ["friends", t("with_friends")], ["anyone", t("with_anyone")]], "bots", t("opponents"));
  const level = select("level", ["easy", "medium", "hard"].map((l) => [l, t(`level_${l}`)]), "medium", t("bot_level"));
  rateLevels(level, g.name);
  const fields = siteFields(me);
  const out = el("div", { class: "quick-links" });
  const create = el("button", { class: "primary", type: "button", id: "quick-create", onclick: async () => {
    const n = Number(players.value);
    const kind = who.value === "bots" ? "bot" : who.value === "friends" ? "human" : "open";
    const seats = [{ kind: "human" }];
    for (let i = 1; i < n; i++) seats.push(kind === "bot" ? { kind, bot: level.value } : { kind });
    create.disabled = true;
    try {
      const res = await api("POST", "/api/site/tables", { body: {
        game: g.name, players: n, options: {}, seats, public: who.value === "anyone",
        ...siteSettings(fields), bot_level: level.value } });
      const mine = res.seats.find((s) => s.link);
      if (who.value !== "friends") { location.href = mine.link; return; }
      out.replaceChildren(...createdLinks(res, mine.link));
    } catch (e) { toast(e.message); } finally { create.disabled = false; }
  } }, `▶ ${t("create_and_play")}`);
  // Play now: rated by default for an account, unrated for a guest (a rated table needs an account)
  const nowRated = el("input", { type: "checkbox", class: "now-rated", checked: !!me, disabled: !me });
  const nowStatus = el("div", { class: "seek-status", "aria-live": "polite" });
  if (seeking && seeking.game === g.name) { seeking.status = nowStatus; seekStatus(); }
  const now = el("div", { class: "play-now" },
    el("p", {}, el("button", { class: "primary", type: "button", id: "play-now", title: t("play_now_help"), onclick: () =>
      playNow(g.name, Number(players.value), nowRated.checked, nowStatus) }, `⚡ ${t("play_now")}`), " ",
    el("label", { title: me ? t("rated_help") : t("seek_guest") }, nowRated, t("rated"))),
    nowStatus,
    el("p", { class: "muted" }, t("play_now_help"), me ? null : [lang === "zh-TW" ? "" : " ", t("seek_guest")]));
  return el("section", { class: "quick", "data-game": g.name },
    el("h2", {}, `${t("new_table")}${t("colon")}${g.titles[lang] || g.titles.en}`),
    el("div", { class: "quick-row" },
      el("label", {}, icon("players"), t("players"), players),
      el("label", {}, t("opponents"), who),
      el("label", {}, icon("robot"), t("bot_level"), level)),
    now,
    fields,
    el("p", {}, create),
    out);
}
