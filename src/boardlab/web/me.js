// My games: every table of the signed-in player, those where it is their turn first.
import { api, el, gameInfo, langSwitch, lang, loadLang, t, toast } from "/static/common.js";
import { gameTitle, me, mountAccount } from "/static/account.js";
import { loadLists, socialLists } from "/static/social.js";

const $ = (id) => document.getElementById(id);
let games = null, tables = [];
let mail = null, mailBox = null, mailLang = null; // the your-turn e-mail settings and their form (built once per language)

// Your-turn e-mails (server/mail.py): an address, opt in, the language of the e-mails; each e-mail can unsubscribe.
function mailSection() {
  if (!mail) return null;
  if (mailBox && mailLang === lang) return mailBox; // the same node: what is being typed survives the 15 s refresh
  mailLang = lang;
  const email = el("input", { type: "email", id: "mail-address", maxlength: "254", value: mail.email || "", placeholder: "name@example.org" });
  const turns = el("input", { type: "checkbox", id: "mail-turns", checked: !!mail.turns });
  const langSel = el("select", { id: "mail-lang" }, el("option", { value: "en" }, "English"), el("option", { value: "zh-TW" }, "繁體中文"));
  langSel.value = mail.lang || lang;
  const status = el("span", { class: "muted", id: "mail-status" });
  const save = el("button", { type: "button", id: "mail-save", onclick: async () => {
    try {
      mail = await api("PUT", "/api/me/mail", { body: { email: email.value.trim() || null, turns: turns.checked, lang: langSel.value } });
      status.textContent = mail.turns ? t("mail_saved_on") : t("mail_saved_off");
    } catch (e) { status.textContent = e.message; }
  } }, t("save"));
  mailBox = el("section", { id: "mail-settings" }, el("h2", {}, t("mail_title")),
    mail.available ? null : el("p", { class: "muted" }, t("mail_unavailable")),
    el("p", {}, el("label", {}, t("mail_address"), " ", email)),
    el("p", {}, el("label", {}, turns, " ", t("mail_turns"))),
    el("p", {}, el("label", {}, t("mail_lang"), " ", langSel)),
    el("p", { class: "muted" }, t("mail_help")),
    el("p", {}, save, " ", status));
  return mailBox;
}

// Your-turn push notifications in this browser (server/push.py, web/sw.js): the toggle subscribes this browser
// with its push service, using the site's key, and hands the subscription to the server; off unsubscribes both.
let pushBox = null, pushLang = null;
const PUSH_WAIT_MS = 20000; // Why: a browser whose push service cannot be reached may never answer subscribe()

function pushKey(b64) {
  const raw = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function within(promise, ms) {
  return Promise.race([promise, new Promise((_, no) => setTimeout(() => no(new Error("timeout")), ms))]);
}

function pushSection() {
  if (pushBox && pushLang === lang) return pushBox; // the same node across the 15 s refresh
  pushLang = lang;
  const box = el("input", { type: "checkbox", id: "push-toggle", disabled: true });
  const status = el("span", { class: "muted", id: "push-status" });
  const say = (key) => { status.textContent = key ? t(key) : ""; };
  pushBox = el("section", { id: "push-settings" }, el("h2", {}, t("push_title")),
    el("p", {}, el("label", {}, box, " ", t("push_turns"))),
    el("p", { class: "muted" }, t("push_help")),
    el("p", {}, status));
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("push_unsupported");
    return pushBox;
  }
  const ready = navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready);
  ready.then((reg) => reg.pushManager.getSubscription()).then((sub) => {
    box.checked = !!sub;
    box.disabled = false;
  }).catch(() => say("push_unsupported"));
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      const reg = await ready;
      if (box.checked) {
        say("push_working");
        if (await Notification.requestPermission() !== "granted") { box.checked = false; say("push_denied"); return; }
        const { key } = await api("GET", "/api/push/key");
        let sub;
        try {
          sub = await within(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: pushKey(key) }), PUSH_WAIT_MS);
        } catch { box.checked = false; say("push_unreachable"); return; }
        try {
          await api("PUT", "/api/me/push", { body: { ...sub.toJSON(), lang } });
        } catch (e) { await sub.unsubscribe(); box.checked = false; status.textContent = e.message; return; }
        say("push_on");
      } else {
        const sub = await reg.pushManager.getSubscription();
        if (sub) {
          await api("DELETE", "/api/me/push", { body: { endpoint: sub.endpoint } });
          await sub.unsubscribe();
        }
        say("push_off");
      }
    } catch (e) { status.textContent = e.message; } finally { box.disabled = false; }
  });
  return pushBox;
}

function draw() {
  document.title = `${t("my_games")} — boardlab`;
  if (!me) {
    $("page").replaceChildren(el("section", {}, el("p", {}, t("sign_in_first")), el("a", { href: "/signin?next=/me" }, el("button", { class: "primary" }, t("sign_in")))));
    return;
  }
  const turn = tables.filter((x) => x.my_turn);
  const rows = tables.map((x) => el("li", { class: `my-table${x.my_turn ? " my-turn" : ""}` },
    x.my_turn ? el("span", { class: "badge turn" }, t("your_turn")) : x.over ? el("span", { class: "badge" }, t("game_over")) : el("span", { class: "badge" }, t("waiting")),
    // the game and when it last moved, not the table's random id (which told a player nothing: "Cacao · 1_B3wTl1DJ4M")
    " ", el("a", { href: x.over ? `/r/${x.table}` : x.link, class: "table-link", "data-table": x.table }, gameTitle(games, x.game, lang)),
    " ", el("span", { class: "muted table-when" }, new Date(x.updated * 1000).toLocaleString(lang, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" })),
    x.over ? el("span", {}, " ", el("a", { href: x.link }, t("open"))) : null));
  $("page").replaceChildren(el("section", {},
    el("h2", {}, t("my_games"), turn.length ? el("span", { class: "badge turn" }, String(turn.length)) : null),
    tables.length ? el("ul", { class: "my-tables" }, rows) : el("p", { class: "muted" }, t("no_tables_yet")),
    el("p", {}, el("a", { href: "/" }, el("button", { class: "primary" }, t("new_table")))),
    el("p", {}, el("button", { type: "button", id: "signout-everywhere", onclick: async () => {
      try { await api("POST", "/api/account/signout/everywhere"); location.reload(); } catch (e) { toast(e.message); }
    } }, t("sign_out_everywhere")))), socialLists(draw), mailSection() || "", pushSection());
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
  if (me) { try { mail = await api("GET", "/api/me/mail"); } catch { mail = null; } }
  await refresh();
  setInterval(refresh, 15000);
}
main();
