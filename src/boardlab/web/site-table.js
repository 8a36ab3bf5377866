// The table page's site parts: ratings and clocks on seats, leaving with a confirmation, expelling
// a player out of time, claiming a guest seat, "your turn" notifications, and the table chat.
import { icon } from "/static/icons.js";
import { api, bracket, colon, el, lang, t, toast } from "/static/common.js";

// -- clocks -------------------------------------------------------------------------------------------
export function fmtClock(sec) {
  if (sec === null || sec === undefined) return "";
  const neg = sec < 0;
  let s = Math.max(0, Math.abs(Math.round(sec)));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  s %= 60;
  const body = d ? `${d}${t("unit_d")} ${h}${t("unit_h")}` : h ? `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}`;
  return (neg ? "-" : "") + body;
}

export function clockLeft(clock, seat) {
  if (!clock) return null;
  if (clock.seat === seat && clock.deadline) return clock.deadline - Date.now() / 1000;
  return clock.remaining ? clock.remaining[seat] : null;
}

/** Badges for one seat: rating, clock, out of time. */
export function seatBadges(s, seat) {
  const site = s.site || {};
  const out = [];
  const r = site.ratings && site.ratings[seat];
  const prov = site.provisional && site.provisional[seat];
  if (r !== null && r !== undefined) out.push(el("span", { class: `badge rating${prov ? " provisional" : ""}`,
    title: prov ? `${t("rating")}${bracket(lang, t("provisional"))}${colon(lang)}${t("provisional_help")}` : t("rating") }, `★ ${r}${prov ? "?" : ""}`));
  const clock = site.clock;
  if (clock && !s.over) {
    const left = clockLeft(clock, seat);
    const running = clock.seat === seat;
    out.push(el("span", { class: `badge clock${running ? " running" : ""}${left !== null && left < 30 && clock.mode === "realtime" ? " low" : ""}`,
      "data-seat": seat, title: t("clock") }, icon("clock"), el("span", { class: "clock-text" }, fmtClock(left))));
    if (clock.out && clock.out.includes(seat)) out.push(el("span", { class: "badge warn out-of-time" }, t("out_of_time")));
  }
  if (site.leavers && site.leavers.includes(seat)) out.push(el("span", { class: "badge warn" }, t("left_game")));
  return out;
}

/** Keep the running clock's badge counting down between server messages. */
export function startClockTicker(getState) {
  setInterval(() => {
    const s = getState();
    if (!s || !s.site || !s.site.clock || s.over) return;
    const c = s.site.clock;
    document.querySelectorAll(".badge.clock.running").forEach((b) => {
      b.querySelector(".clock-text").textContent = fmtClock(clockLeft(c, Number(b.dataset.seat)));
    });
  }, 500);
}

export function clockLine(s) {
  const c = s.site && s.site.clock;
  if (!c) return null;
  const what = c.speed && c.speed !== "custom" ? t(`speed_${c.speed}`) : c.mode === "turn" ? t("turn_based") : t("real_time");
  const waiting = c.waiting && !s.over ? ` · ${t("clock_waiting")}` : "";
  return el("p", { class: "muted clock-line" }, icon("clock"), `${what}${s.site.rated ? ` · ★ ${t("rated")}` : ""}${waiting}`);
}

// -- seat actions -------------------------------------------------------------------------------------
/** Buttons under the seat list: leave (asks first), take back, let a bot play (only when allowed), expel. */
let recheck = null;
export function seatActions(s, held, tokenOf, tableId, redraw) {
  const box = [];
  if (s.over || s.seat === null) return box;
  const mine = tokenOf.get(s.seat);
  const me = s.seats[s.seat];
  const site = s.site || {};
  const level = site.bot_level && ["easy", "medium", "hard"].includes(site.bot_level) ? site.bot_level : "medium";
  const call = async (path, body) => {
    try { await api("POST", `/api/tables/${tableId}${path}`, { token: mine, body: body || {} }); } catch (e) { toast(e.message); }
  };
  if (me.kind === "human") {
    box.push(el("button", { id: "leave", onclick: () => confirmBox(
      site.rated ? t("leave_confirm_rated", { level: t(`level_${level}`) }) : t("leave_confirm", { level: t(`level_${level}`) }),
      () => call(`/seats/${s.seat}/bot`, { bot: level })) }, t("leave_to_bot")));
  } else if (me.kind === "bot") {
    const handed = site.handed && site.handed[s.seat];
    if (handed) box.push(el("p", { class: "warn handed" }, t("handed_to_bot", { name: handed.name })));
    box.push(el("button", { id: "take-back", class: "primary", onclick: () => call(`/seats/${s.seat}/human`) }, t("take_back")));
  }
  const now = Date.now() / 1000;
  for (const other of s.seats) {
    if (held.has(other.seat) || other.kind === "bot") continue;
    const out = site.clock && site.clock.out && site.clock.out.includes(other.seat);
    // another player's seat goes to a bot only behind a confirmation, and the server says when (seats.py)
    const replace = () => el("div", {}, el("button", { class: "replace", onclick: () => confirmBox(
      t("replace_confirm", { name: other.name }), () => call(`/seats/${other.seat}/bot`, { bot: level, confirm: true })) },
    `${t("replace_with_bot")}${t("colon")}${other.name}`));
    if (out && other.kind === "human") {
      box.push(el("div", {}, el("button", { class: "expel", onclick: () => confirmBox(t("expel_confirm", { name: other.name }),
        () => call(`/seats/${other.seat}/expel`)) }, `${t("expel")}${t("colon")}${other.name}`)));
      box.push(replace());
      continue;
    }
    if (other.kind === "human" && site.turn_clock) continue; // a turn-based seat in time is never replaced
    const since = site.away_since && site.away_since[other.seat];
    const grace = site.grace || 60;
    const allowed = other.kind === "open" || (!other.connected && since !== null && since !== undefined && now - since >= grace);
    if (!allowed) {
      // offered as soon as the server allows it: look again when the grace period is over
      if (!other.connected && since && redraw && !recheck) recheck = setTimeout(() => { recheck = null; redraw(); }, (since + grace - now) * 1000 + 200);
      continue;
    }
    box.push(other.kind === "open" ? el("div", {}, el("button", { class: "replace",
      onclick: () => call(`/seats/${other.seat}/bot`, { bot: level }) }, `${t("replace_with_bot")}${t("colon")}${other.name}`))
      : replace());
  }
  return box;
}

/** A small in-page dialog (no window.confirm: it blocks the page and its live updates). */
export function confirmBox(text, onYes) {
  const old = document.getElementById("confirm");
  if (old) old.remove();
  const box = el("div", { id: "confirm", class: "confirm", role: "dialog", "aria-modal": "true" },
    el("div", { class: "confirm-body" }, el("p", {}, text),
      el("p", {}, el("button", { class: "primary", id: "confirm-yes", onclick: () => { box.remove(); onYes(); } }, t("yes")), " ",
        el("button", { id: "confirm-no", onclick: () => box.remove() }, t("no")))));
  document.body.append(box);
  box.querySelector("#confirm-no").focus();
}

/** Signed in with a guest seat: offer to keep it in the account (My games, ratings). */
export function claimButton(s, me, tokenOf, tableId, onClaimed) {
  if (!me || s.seat === null || s.over) return null;
  const site = s.site || {};
  if (site.users && site.users[s.seat]) return null;
  return el("button", { id: "claim", onclick: async () => {
    try {
      const r = await api("POST", `/api/tables/${tableId}/claim`, { token: tokenOf.get(s.seat) });
      onClaimed(s.seat, r.token);
    } catch (e) { toast(e.message); }
  } }, t("claim_seat", { name: me.name }));
}

// -- notifications --------------------------------------------------------------------------------------
let baseTitle = document.title;
let wasMine = false;
const PREFS = "boardlab:notify";
function prefs() { try { return JSON.parse(localStorage.getItem(PREFS) || "{}"); } catch { return {}; } }

function setFavicon(turn) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) { link = el("link", { rel: "icon" }); document.head.append(link); }
  link.href = turn ? "/static/icon-turn.svg" : "/static/icon.svg";
}

function beep() {
  try {
    const ctx = new AudioContext();
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660; g.gain.value = 0.08;
    o.connect(g); g.connect(ctx.destination); o.start(); o.stop(ctx.currentTime + 0.18);
  } catch { /* no audio */ }
}

/** Tab title and favicon say "your turn"; when the tab is hidden, a sound and a system notification
 * (each only if the player turned it on). Returns whether it is this browser's turn. */
export function notifyTurn(title, mineNow) {
  baseTitle = title;
  document.title = mineNow ? `● ${t("your_turn")} — ${title}` : title;
  setFavicon(mineNow);
  if (mineNow && !wasMine && document.hidden) {
    const p = prefs();
    if (p.sound) beep();
    if (p.system && "Notification" in window && Notification.permission === "granted") {
      try { new Notification(t("your_turn"), { body: title, icon: "/static/icon-turn.svg", tag: "boardlab-turn" }); } catch { /* ignore */ }
    }
  }
  if (mineNow !== wasMine) document.dispatchEvent(new Event("boardlab:turns")); // the header's count asks again
  wasMine = mineNow;
  return mineNow;
}

export function notifySettings() {
  const p = prefs();
  const save = () => localStorage.setItem(PREFS, JSON.stringify(p));
  const sound = el("input", { type: "checkbox", id: "notify-sound", checked: !!p.sound });
  sound.addEventListener("change", () => { p.sound = sound.checked; save(); });
  const sys = el("input", { type: "checkbox", id: "notify-system", checked: !!p.system });
  sys.addEventListener("change", async () => {
    p.system = sys.checked; save();
    if (sys.checked && "Notification" in window && Notification.permission === "default") {
      try { await Notification.requestPermission(); } catch { /* ignore */ }
    }
  });
  return el("details", { class: "notify-settings" }, el("summary", {}, icon("bell"), t("notifications")),
    el("label", {}, sound, t("notify_sound")), el("br"), el("label", {}, sys, t("notify_system")));
}

// -- chat ---------------------------------------------------------------------------------------------
// Two channels (issue #34): the players' and the spectators' (signed-in spectators write there; the players read it
// except during a rated game). Each line not the reader's own has a Report button for signed-in readers.
export function chatLine(m, opts = {}) {
  // textContent only: whatever people type is shown as text, never as markup
  const li = el("li", { class: `chat-line${m.channel === "spectators" ? " spectator-line" : ""}`, "data-n": m.n },
    el("strong", {}, m.name), ": ", el("span", { class: "chat-text" }, m.text));
  if (opts.tableId && opts.canReport && opts.canReport() && !(opts.mine && opts.mine(m))) li.append(" ", reportButton(opts.tableId, m));
  return li;
}

function reportButton(tableId, m) {
  const done = () => b.replaceWith(el("span", { class: "muted reported" }, t("reported")));
  const b = el("button", { type: "button", class: "link report", onclick: () => confirmBox(t("report_confirm", { name: m.name }), async () => {
    try { await api("POST", `/api/tables/${tableId}/chat/${m.n}/report`); done(); }
    catch (e) { toast(e.message); if (e.body && e.body.error === "already_reported") done(); }
  }) }, t("report"));
  return b;
}

/** One channel's panel. opts: channel ("players" or "spectators"), title (an i18n key), mine(m) (the reader's own
 * line: no Report), canReport() (signed in), note (shown instead of the form when the reader cannot write). */
export function chatPanel(tableId, tokenFor, canSpeak, opts = {}) {
  const channel = opts.channel || "players";
  const id = channel === "players" ? "chat" : "spec-chat";
  const lineOpts = { tableId, mine: opts.mine, canReport: opts.canReport };
  const line = (m) => chatLine(m, lineOpts);
  const list = el("ol", { class: "chat", id: `${id}-list` });
  const input = el("input", { id: `${id}-input`, maxlength: 300, placeholder: t("chat_placeholder"), autocomplete: "off" });
  const form = el("form", { class: "chat-form" }, input, el("button", { type: "submit" }, t("send")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const body = channel === "players" ? { text } : { text, channel };
    try { await api("POST", `/api/tables/${tableId}/chat`, { token: channel === "players" ? tokenFor() : undefined, body }); input.value = ""; }
    catch (e) { toast(e.message); }
  });
  const seen = new Set();
  let oldest = null; // the smallest message number shown: the next older page is asked for below it
  const add = (m) => {
    if (seen.has(m.n)) return false;
    seen.add(m.n);
    if (oldest === null || m.n < oldest) oldest = m.n;
    list.append(line(m));
    list.scrollTop = list.scrollHeight;
    return true; // a new line (the history and the live pushes can both bring it)
  };
  // the history comes a page at a time (newest first): a long chat is not sent whole on every visit
  const earlier = el("button", { type: "button", id: `${id}-earlier`, class: "link", hidden: true }, t("chat_earlier"));
  const page = async (before) => {
    const q = new URLSearchParams();
    if (before !== null) q.set("before", before);
    if (channel !== "players") q.set("channel", channel);
    const r = await api("GET", `/api/tables/${tableId}/chat${q.size ? `?${q}` : ""}`, { token: tokenFor() });
    earlier.hidden = !r.more;
    return r.chat;
  };
  earlier.addEventListener("click", async () => {
    try {
      const older = (await page(oldest)).filter((m) => !seen.has(m.n));
      older.forEach((m) => seen.add(m.n));
      if (older.length) oldest = older[0].n;
      list.prepend(...older.map(line));
    } catch (e) { toast(e.message); }
  });
  const hiddenNote = el("p", { class: "muted", id: `${id}-hidden`, hidden: true }, t("spectator_chat_hidden"));
  let hidden = false;
  const load = async () => {
    if (hidden) return;
    try { (await page(null)).forEach(add); } catch { /* ignore */ }
  };
  /** The players of a rated game do not see the spectators' chat until it ends: hide it, and load it when shown. */
  const setHidden = (h) => {
    if (h === hidden) return;
    hidden = h;
    hiddenNote.hidden = !h;
    list.hidden = h;
    foot.hidden = h;
    if (!h) load();
  };
  const foot = canSpeak ? form : el("p", { class: "muted", id: `${id}-note` }, opts.note || t("chat_seats_only"));
  const box = el("section", { id: `${id}-box` }, el("h2", {}, icon("chat"), t(opts.title || "chat")), earlier, hiddenNote, list, foot);
  return { box, add, load, setHidden };
}

// -- the side panels on a narrow screen (issue #34) ------------------------------------------------------------
// A phone stacks the aside under the board: Seats, both chats and the Log made the Pocket Mars page 3,260 px tall with
// the chat at the very end. Below 800 px they live in a drawer behind a tab bar at the bottom of the screen instead,
// so the board and the status bar stay on screen and each panel is one tap away; new chat lines count on the Chat tab.
const NARROW = "(max-width: 800px)";

/** Wire the tab bar (table.html #panel-tabs): a tap opens that panel in the drawer, a tap on the open tab (or Escape)
 * closes it. Returns chatLine(mine): call it for each chat line pushed live, so an unread one shows on the badge;
 * and seats(state): call it after each drawing of the seats, for the Seats tab's clock and mark. */
export function panelTabs() {
  const bar = document.getElementById("panel-tabs");
  const badge = document.getElementById("chat-unread");
  const narrow = window.matchMedia(NARROW);
  let unread = 0;
  const showUnread = () => {
    badge.hidden = unread === 0;
    badge.textContent = unread === 0 ? "" : unread > 99 ? "99+" : String(unread);
    const label = unread ? t("unread_chat", { n: unread }) : "";
    badge.title = label;
    badge.setAttribute("aria-label", label);
  };
  const open = (name) => {
    if (name) document.body.dataset.panel = name; else delete document.body.dataset.panel;
    bar.querySelectorAll("[data-tab]").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.tab === name)));
    if (name === "chat") { unread = 0; showUnread(); }
  };
  bar.querySelectorAll("[data-tab]").forEach((b) => b.addEventListener("click", () => {
    open(document.body.dataset.panel === b.dataset.tab ? null : b.dataset.tab);
  }));
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && document.body.dataset.panel) open(null); });
  document.addEventListener("boardlab:lang", showUnread);
  const clockSlot = document.getElementById("tab-clock");
  const attention = document.getElementById("seats-attention");
  return {
    /** After the seats are drawn: the running clock rides on the Seats tab, and a mark says when the seat actions hold
     * something to do (take the seat back from a bot, expel a player out of time, keep the seat in the account), so a
     * phone with the seats in the drawer still sees the time run and what waits for it. */
    seats(s) {
      const c = s.site && s.site.clock;
      const running = c && !s.over && c.seat !== null && c.seat !== undefined;
      clockSlot.replaceChildren(...(running ? seatBadges(s, c.seat).filter((b) => b.classList.contains("clock")) : []));
      attention.hidden = !document.querySelector("#seat-actions :is(#take-back, .expel, #claim)");
      attention.title = t("panel_attention");
      attention.setAttribute("aria-label", attention.title);
    },
    chatLine(mine) {
      // only where the chat is out of sight: the drawer closed or on another tab (a wide screen always shows it)
      if (mine || !narrow.matches || document.body.dataset.panel === "chat") return;
      unread += 1;
      showUnread();
    },
  };
}
