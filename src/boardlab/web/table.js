// The table page: one WebSocket carrying every seat this browser holds (hot-seat = several),
// the renderer draws the board, the shell draws legal moves as buttons, the log, seats, scores.
import { api, bracket, el, errorText, gameInfo, labelled, lang, listing, langSwitch, loadLang, loadRenderer, seatName, t, toast, tokensFor }
  from "/static/common.js";
import { changeText, me, mountAccount } from "/static/account.js";
import { drawHint } from "/static/hint.js";
import { icon } from "/static/icons.js";
import { installTooltip, loadExplanations } from "/static/explain.js";
import { tutorialPanel } from "/static/tutorial.js";
import { follow, keyed, markKeys, snapshot } from "/static/renderkit.js";
import { chatPanel, claimButton, clockLine, notifySettings, notifyTurn, panelTabs, seatActions, seatBadges, startClockTicker }
  from "/static/site-table.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokens = tokensFor(tableId);
const $ = (id) => document.getElementById(id);
const states = new Map();      // seat (or "spec") -> latest state message for that seat
const tokenOf = new Map();     // seat -> token
let shown = null;              // which held seat the page shows now
let log = [];
let logSeat = undefined;
let ws = null;
let games = null;
let renderer = null;
let msgId = 0;
let chat = null;
let specChat = null; // the spectators' channel (issue #34)
let chatSynced = false;
const lesson = tutorialPanel(); // a guided first game's panel (shown only at a tutorial table)
const tabs = panelTabs(); // a narrow screen's drawer for the side panels, with the chat's unread count

function latest() {
  let best = null;
  for (const s of states.values()) if (!best || s.version > best.version) best = s;
  return best;
}

function chooseShown() {
  const any = latest();
  if (!any) return;
  const held = [...states.keys()].filter((k) => k !== "spec");
  if (!held.length) { shown = "spec"; return; }
  if (any.current !== null && held.includes(any.current)) shown = any.current;
  else if (!held.includes(shown)) shown = held[0];
}

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) { toast(t("connection_lost")); return; }
  ws.send(JSON.stringify({ ...msg, id: ++msgId }));
}

function act(notation) {
  const s = states.get(shown);
  if (!s || !lesson.allows(notation)) return;
  lastMarks = new Set(); // you acted: the last move you were shown is no longer marked
  applyMarks();
  send({ type: "act", seat: s.seat, move: s.version, action: notation });
}

async function refreshLog(s) {
  const token = s.seat === null ? undefined : tokenOf.get(s.seat);
  try {
    const r = await api("GET", `/api/tables/${tableId}/log?lang=${lang}`, { token });
    log = r.log; logSeat = s.seat;
    drawLog(s);
  } catch (e) { console.warn(e); }
}

// a renderer may mark seats the game's way (e.g. Cacao's player colours): renderer.seatMark(seat, lang) -> Node
function seatMark(i) {
  if (renderer && renderer.seatMark) return renderer.seatMark(i, lang);
  const s = states.get(shown); // no colours from the game: a person or a bot
  return s && s.seats[i] ? icon(s.seats[i].kind === "bot" ? "robot" : "user") : null;
}

let hovered = null; // the log entry under the pointer ({n, action}): marked again after every redraw of the board

// -- moves you can follow -------------------------------------------------------------------------------------
// Each drawn move is compared with the drawing before it (renderkit.js follow): what it changed is animated,
// stays marked (.rk-last) until you act, and is kept by move number so that hovering its log line marks it
// again (.rk-hl). Why here and not in the renderers: it is the same for every game; a renderer only tags its
// pieces (renderkit.js track). Moves that arrive together are drawn one at a time, at the table's bot pace.
const changesAt = new Map(); // move number -> the keys of the pieces that move changed, as this page drew it
let lastMarks = new Set();   // the keys of the pieces the others' moves changed since you last acted
let lastMover = null;        // the seat whose move was drawn last
let drawnAt = null;          // {table, seat, version} of the board drawn last
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function hoveredKeys() {
  if (!hovered || hovered.n === null || hovered.n === undefined) return new Set();
  return changesAt.get(hovered.n) || namedKeys(hovered.action);
}

// A move this page did not draw (made before it opened) is marked by what its notation names: the pieces whose
// key ends in one of its words ("cloud C3" -> cell:C3, "place BI4 ..." -> block:BI4). Only words with both a letter
// and a digit: a lone number or letter would name too many pieces.
function namedKeys(action) {
  const words = new Set(String(action || "").split(/[\s@,]+/).filter((w) => /[A-Za-z]/.test(w) && /\d/.test(w)));
  const out = new Set();
  if (!words.size) return out;
  for (const [k, e] of keyed($("board"))) if (words.has(e.dataset.track.split(":").pop())) out.add(k);
  return out;
}
function applyMarks() {
  markKeys($("board"), lastMarks, "rk-last");
  markKeys($("board"), hoveredKeys(), "rk-hl");
}

/** Seconds between two moves drawn for others: the table's pace. */
function paceOf(s) {
  const p = s && s.site && typeof s.site.pace === "number" ? s.site.pace : 0;
  return Math.max(0, Math.min(p, 10));
}

/** Draw `s` (renderer.render) and follow what changed since the board drawn before, when that was the same
 * table and seat at an earlier position. */
function renderFollowing(s, ctx) {
  const board = $("board");
  const prev = drawnAt;
  const same = prev && prev.table === s.table && prev.seat === s.seat;
  const before = same && s.version !== prev.version ? snapshot(board) : null;
  renderer.render(board, ctx);
  drawnAt = { table: s.table, seat: s.seat, version: s.version };
  if (!before) { board.dataset.animated = "0"; board.dataset.changed = "0"; return; }
  const ms = Math.round(Math.min(700, Math.max(250, paceOf(s) * 700)));
  const { changed, animated } = follow(board, before, { animate: !reducedMotion.matches, ms });
  board.dataset.animated = String(animated); // how many pieces this drawing animated, and how many it changed
  board.dataset.changed = String(changed.size);
  if (s.version < prev.version) { // an undo: what the undone moves changed is no longer on the board
    for (const n of [...changesAt.keys()]) if (n >= s.version) changesAt.delete(n);
    lastMarks = new Set();
    return;
  }
  if (s.last && s.last.n === s.version - 1 && s.version === prev.version + 1) changesAt.set(s.last.n, changed);
  // the others' moves since you last acted stay marked together (a bot's turn of several decisions, the last of
  // which may change nothing to see), and your own move is not marked: you just made it. A spectator, who never
  // acts, sees each player's moves marked until the next player moves.
  const others = s.last && !tokenOf.has(s.last.seat);
  if (others && tokenOf.size === 0 && lastMover !== s.last.seat) lastMarks = new Set();
  lastMarks = others ? new Set([...lastMarks, ...changed]) : new Set();
  lastMover = s.last ? s.last.seat : null;
}

function drawLog(s) {
  // the last entry stays marked; hovering an entry marks on the board what its move changed (as this page drew
  // it), and the renderer's own marks for its action (renderer.highlight, if any)
  const hl = (e) => {
    hovered = e;
    if (renderer && renderer.highlight) renderer.highlight($("board"), e ? e.action : null);
    applyMarks();
  };
  $("log").replaceChildren(...log.map((e, i) => el("li", {
    class: i === log.length - 1 ? "last-entry" : "", "data-n": e.n,
    onmouseenter: () => hl(e), onmouseleave: () => hl(null) },
  seatMark(e.seat), el("strong", {}, seatName(s.seats, e.seat)), " ", e.text === null ? t("hidden_action") : e.text)));
  $("log").scrollTop = $("log").scrollHeight;
}

function drawSeats(s) {
  const held = new Set([...tokenOf.keys()]);
  $("seats").replaceChildren(...s.seats.map((seat) => {
    const badges = [];
    if (s.current === seat.seat && !s.over) badges.push(el("span", { class: "badge" }, t("to_move")));
    if (s.thinking.includes(seat.seat)) badges.push(el("span", { class: "badge thinking" }, t("thinking")));
    if (seat.kind === "bot") badges.push(el("span", { class: "badge" }, `${t("kind_bot")}${t("colon")}${t(`level_${seat.bot}`)}`));
    else if (seat.kind === "open") badges.push(el("span", { class: "badge" }, t("kind_open")));
    else badges.push(el("span", { class: `badge ${seat.connected ? "on" : ""}` }, seat.connected ? t("connected") : t("away")));
    if (held.has(seat.seat)) badges.push(el("span", { class: "badge on" }, t("you")));
    badges.push(...seatBadges(s, seat.seat));
    const user = s.site && s.site.users && s.site.users[seat.seat];
    const name = user ? el("a", { href: `/u/${encodeURIComponent(user)}`, class: "seat-user" }, seat.name) : seatName(s.seats, seat.seat);
    return el("li", { class: s.current === seat.seat ? "current" : "" }, seatMark(seat.seat), name, ...badges);
  }));
  const box = $("seat-actions");
  box.replaceChildren(...[clockLine(s), ...seatActions(s, held, tokenOf, tableId, draw),
    claimButton(s, me, tokenOf, tableId, (seat, tok) => {
      const toks = tokens.map((x) => (x === tokenOf.get(seat) ? tok : x));
      localStorage.setItem(`boardlab:tokens:${tableId}`, JSON.stringify(toks));
      location.hash = `s=${toks.join(",")}`;
      location.reload();
    })].filter(Boolean));
}

function statusLine(s) {
  if (s.over) return t("game_over");
  if (s.current === null) return "";
  const name = seatName(s.seats, s.current);
  if (s.thinking.includes(s.current)) return t("bot_thinking", { name });
  if (tokenOf.has(s.current)) return tokenOf.size > 1 ? `${t("your_turn")}${bracket(lang, name)}` : t("your_turn");
  return t("waiting_for", { name });
}

// The status bar at the top of the table: whose turn (#status), what the seat to move is asked (the renderer's
// `asked(ctx)`), the answers when there are only a few, Confirm when the renderer holds a choice to confirm
// (`confirm(ctx)` -> {run} or null), and Undo where the table allows it. Renderers that redraw by themselves
// (a tile picked, a placement cycled) call ctx.drawn() so that the bar follows.
const FEW_ANSWERS = 5;
let drawnCtx = null;
function drawStatusBar(s) {
  const ctx = drawnCtx;
  const mine = !s.over && s.seat !== null && tokenOf.has(s.current) && s.legal.length > 0;
  const asked = !s.over && renderer && renderer.asked && ctx ? renderer.asked(ctx) : "";
  $("asked").textContent = asked || "";
  $("answers").replaceChildren(...(mine && s.legal.length <= FEW_ANSWERS ? s.legal.map((m) => el("button", {
    "data-action": m.action, onclick: () => act(m.action) }, m.text || m.action)) : []));
  const c = mine && renderer && renderer.confirm && ctx ? renderer.confirm(ctx) : null;
  $("confirm-move").hidden = !c;
  $("confirm-move").onclick = c ? () => c.run() : null;
  $("undo").hidden = !s.can_undo;
  lesson.mark(); // the renderer may have redrawn: the step's target again
}

// One seat's rating change at a finished rated table, from the state message (`site.changes`, issue #34), in the
// words of account.js's changeText: no signed figure while the rating is provisional ("?", as lichess marks it).
function changeCell(c) {
  return el("span", { title: c.delta === null ? labelled(lang, t("provisional"), t("provisional_help")) : t("rating_change") },
    changeText(c));
}

function drawEnd(s) {
  const box = $("end");
  if (!s.over) { box.hidden = true; return; }
  box.hidden = false;
  const winners = (s.winners || []).map((w) => seatName(s.seats, w)).join(listing(lang));
  // every scoring category, even where the renderer draws its own breakdown further down: the result is here
  const allCats = s.scores && s.scores[0] ? Object.keys(s.scores[0].breakdown) : [];
  // each category in the game's words: `score_<category>` of its terms.json (the terminal's table reads the same)
  const info = games && games.games.find((g) => g.name === s.game);
  const words = (info && info.renderer_data && info.renderer_data.terms) || {};
  const scoreLabel = (c) => (words[lang] || {})[`score_${c}`] || (words.en || {})[`score_${c}`] || c;
  const rated = !!(s.site && s.site.rated);
  // equal totals at the top: the tie-break decided, so it is shown, in the game's words (the server's tiebreak_text)
  const totals = (s.scores || []).map((sc) => sc.total);
  const tied = totals.filter((x) => x === Math.max(...totals)).length > 1;
  const tiebreak = (sc) => sc.tiebreak_text ?? sc.tiebreak.join(" · ");
  // the results are stored just after the last move: "…" until the state message brings the changes
  const changes = (s.site && s.site.changes) || [];
  const table = el("table", {},
    el("tr", {}, el("th", {}, t("seat")), ...allCats.map((c) => el("th", {}, scoreLabel(c))),
      el("th", {}, t("total")), tied ? el("th", {}, t("tie_break")) : null, rated ? el("th", {}, t("rating_change")) : null),
    ...(s.scores || []).map((sc, i) => el("tr", { class: (s.winners || []).includes(i) ? "winner-row" : "" },
      el("td", {}, seatName(s.seats, i)), ...allCats.map((c) => el("td", {}, sc.breakdown[c])),
      el("td", {}, el("strong", {}, sc.total)), tied ? el("td", { class: "tie-break" }, tiebreak(sc)) : null,
      rated ? el("td", { class: "rating-change", "data-seat": i }, changes[i] ? changeCell(changes[i]) : s.site.results_done ? t("unrated") : "…") : null)));
  const buttons = [el("a", { href: `/r/${tableId}` }, el("button", {}, t("replay")))];
  if (s.seat !== null) {
    buttons.push(el("button", { class: "primary", onclick: async () => {
      try { const r = await api("POST", `/api/tables/${tableId}/rematch`, { token: tokenOf.get(s.seat) }); location.href = r.link; }
      catch (e) { toast(e.message); } } }, s.rematch ? t("go_rematch") : t("rematch")));
  }
  const parts = [el("h2", {}, t("game_over")), el("p", {}, `${(s.winners || []).length > 1 ? t("winners") : t("winner")}${t("colon")}${winners}`)];
  parts.push(el("div", { class: "scores" }, table));
  box.replaceChildren(...parts, el("p", { class: "end-buttons" }, ...buttons));
}

function draw() {
  chooseShown();
  const s = states.get(shown);
  if (!s) return;
  const info = games && games.games.find((g) => g.name === s.game);
  $("title").textContent = info ? (info.titles[lang] || info.titles.en) : s.game;
  notifyTurn(`${$("title").textContent} — boardlab`, !s.over && s.current !== null && tokenOf.has(s.current) && s.legal.length > 0);
  $("moves-box").hidden = s.seat === null; // spectators have no moves
  $("status").textContent = (s.seat === null ? `${t("spectating")} ` : "") + statusLine(s);
  // renderers get the seat names in the page's language (bots' default names are stored in English)
  const rs = { ...s, seats: s.seats.map((x, i) => ({ ...x, name: seatName(s.seats, i) })) };
  drawnCtx = { view: s.view, seat: s.seat, state: rs, legal: s.legal, act, lang, t, drawn: () => drawStatusBar(s) };
  if (renderer) renderFollowing(s, drawnCtx);
  if (hovered && renderer && renderer.highlight) renderer.highlight($("board"), hovered.action); // a redraw keeps the marks
  applyMarks();
  $("board").dataset.version = s.version; // which position is drawn (tests wait on it)
  const buttons = s.legal.map((m) => el("button", { title: m.action, onclick: () => act(m.action) }, m.text || m.action));
  // a renderer that makes every move playable on its board (ownsMoves) gets the buttons folded away
  const folded = renderer && renderer.ownsMoves && buttons.length
    ? [el("details", { class: "all-moves", open: !!$("moves").querySelector("details[open]") }, el("summary", {}, `${t("moves")}${bracket(lang, buttons.length)}`), el("div", { class: "moves" }, buttons))]
    : buttons;
  $("moves").replaceChildren(...(s.legal.length ? folded : [el("span", { class: "muted" }, t("no_moves"))]));
  drawStatusBar(s);
  drawHint($("hint-slot"), s, s.seat === null ? undefined : tokenOf.get(s.seat), tableId);
  lesson.draw(s, !s.over && s.seat !== null && tokenOf.has(s.current) && s.legal.length > 0);
  $("hint-slot").hidden = lesson.running(); // the lesson says what to play while its script runs
  drawSeats(s);
  tabs.seats(s);
  drawEnd(s);
  showSpecChat(s);
  const moves = log.filter((e) => e.n !== null).length; // the log also tells notes (an undo, a timeout)
  const notes = log.length - moves;
  if (logSeat !== s.seat || s.log_len !== moves || (s.notes_len ?? notes) !== notes) {
    if (logSeat === s.seat && s.last && s.log_len === moves + 1 && (s.notes_len ?? notes) === notes) { log.push(s.last); drawLog(s); }
    else refreshLog(s);
  }
}

function connect(delay = 500) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  ws.onopen = () => { ws.send(JSON.stringify({ type: "hello", tokens, lang })); delay = 500; chatSynced = false; };
  ws.onmessage = async (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") {
      // the first state comes once this connection gets the pushes: only now is the chat history complete
      if (!chatSynced && chat) { chatSynced = true; chat.load(); showSpecChat(m); specChat.load(); }
      pending.push(m);
      if (!playing) playPending();
    } else if (m.type === "chat") {
      const panel = m.channel === "spectators" ? specChat : chat;
      if (panel && panel.add(m)) tabs.chatLine(mine(m));
    } else if (m.type === "error") {
      if (["bad_token", "no_table", "bad_hello"].includes(m.error)) { $("status").textContent = errorText(m); ws.onclose = null; }
      else toast(errorText(m));
    }
  };
  ws.onclose = () => { if (ws.onclose) { $("status").textContent = t("connection_lost"); setTimeout(() => connect(Math.min(delay * 2, 8000)), delay); } };
}

/** A player of a rated game in play does not see the spectators' chat (the server refuses it too). */
function showSpecChat(s) {
  if (specChat && s) specChat.setHidden(tokens.length > 0 && !!(s.site && s.site.rated) && !s.over);
}

// States are drawn in the order they came, one move at a time: a move made by someone else is drawn no sooner
// than the table's pace after the move drawn before it (bots that move in a burst, a page that was busy), so
// each can be seen; a hidden page, or one more than BACKLOG moves behind, catches up at once.
const pending = [];
let playing = false;
let drawnVersion = -1;
let movedAt = -Infinity; // performance.now() when the last new position was drawn
const BACKLOG = 40; // moves waiting: further behind than this, the page catches up at once

async function playPending() {
  playing = true;
  try {
    while (pending.length) {
      const m = pending[0];
      const fresh = m.version > drawnVersion; // a new position (the other seats' states of it come right after)
      if (fresh && drawnVersion >= 0 && m.last && !tokenOf.has(m.last.seat)) {
        const wait = movedAt + paceOf(m) * 1000 - performance.now();
        const behind = pending[pending.length - 1].version - drawnVersion; // moves, not messages (seats, thinking)
        if (wait > 0 && !document.hidden && behind <= BACKLOG) await new Promise((r) => setTimeout(r, wait));
      }
      pending.shift();
      states.set(m.seat === null ? "spec" : m.seat, m);
      if (m.seat !== null && !tokenOf.has(m.seat)) {
        // which token is which seat: ask once per token over HTTP
        await mapTokens();
      }
      if (!renderer) renderer = await loadRenderer(m.game, games);
      await loadExplanations(m.game, lang);
      draw();
      if (m.version !== drawnVersion) { drawnVersion = m.version; movedAt = performance.now(); }
    }
  } finally { playing = false; }
}

let mapping = null;
function mapTokens() {
  mapping = mapping || Promise.all(tokens.map(async (tok) => {
    try { const s = await api("GET", `/api/tables/${tableId}`, { token: tok }); tokenOf.set(s.seat, tok); } catch { /* bad link */ }
  }));
  return mapping;
}

/** A chat line this browser wrote: no Report button, and it is not unread. */
function mine(m) {
  return (m.channel !== "spectators" && m.seat !== null && tokenOf.has(m.seat))
    || (!!me && !!m.user && m.user.toLowerCase() === me.name.toLowerCase());
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(() => { log = []; logSeat = undefined; ws && ws.close(); }));
  games = await gameInfo();
  await mountAccount();
  await mapTokens();
  const tokenFor = () => { const s = states.get(shown); return s && s.seat !== null ? tokenOf.get(s.seat) : tokens[0]; };
  const canReport = () => !!me;
  chat = chatPanel(tableId, tokenFor, tokens.length > 0, { mine, canReport });
  $("chat-slot").replaceChildren(chat.box);
  // spectators talk in their own channel, signed in; a player reads it (except during a rated game) but writes in theirs
  specChat = chatPanel(tableId, tokenFor, tokens.length === 0 && !!me, { channel: "spectators", title: "spectator_chat", mine, canReport,
    note: tokens.length ? t("spectator_chat_players_read") : t("spectator_chat_sign_in") });
  $("chat-slot").after(el("div", { id: "spec-chat-slot" }, specChat.box));
  $("tutorial-slot").replaceChildren(lesson.box);
  $("notify-slot").replaceChildren(notifySettings());
  startClockTicker(() => states.get(shown));
  installTooltip();
  // renderers redraw by themselves (a piece picked, a menu opened): the marks follow every redraw
  new MutationObserver(() => applyMarks()).observe($("board"), { childList: true, subtree: true });
  $("undo").addEventListener("click", () => { const s = states.get(shown); if (s) send({ type: "undo", seat: s.seat, move: s.version }); });
  connect();
}
main();
