// Shared by every page: language (en / zh-TW), translations, API calls, seat tokens.
// Tokens travel in the URL fragment (#s=...), which browsers never send to the server, and are
// kept in localStorage so that closing the browser and coming back by the same link just works.
export const LANGS = ["en", "zh-TW"];
let dict = {};
export let lang = localStorage.getItem("boardlab:lang") || (navigator.language.startsWith("zh") ? "zh-TW" : "en");
if (!LANGS.includes(lang)) lang = "en";

export async function loadLang(l) {
  lang = LANGS.includes(l) ? l : "en";
  localStorage.setItem("boardlab:lang", lang);
  dict = await (await fetch(`/static/i18n/${lang}.json`)).json();
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  // parts drawn by other modules (the header's account links) redraw themselves on this (issue #34)
  document.dispatchEvent(new CustomEvent("boardlab:lang", { detail: lang }));
  return dict;
}

/** The key to say `key` by in `table` (one language's words): its `_one` form where the count `vars.n` is 1 and
 * that language has one ("1 key", not "1 keys"; issue #34). Languages without plural forms have no `_one` keys. */
export function countedKey(table, key, vars) {
  return vars && Number(vars.n) === 1 && table && table[`${key}_one`] !== undefined ? `${key}_one` : key;
}

/** "head: body" with the colon of the language: full width (：) in Chinese, where a half-width one reads as a typo. */
export function labelled(l, head, body) {
  return `${head}${colon(l)}${body}`;
}

/** `text` in brackets after a word, in language `l`: "（暫定）" in Chinese (full width, no space), " (provisional)". */
export function bracket(l, text) {
  return String(l).startsWith("zh") ? `（${text}）` : ` (${text})`;
}

/** What goes between the items of a list in language `l`: the enumeration comma 、 in Chinese, ", " in English. */
export function listing(l) {
  return String(l).startsWith("zh") ? "、" : ", ";
}

/** The colon that follows a label in language `l` ("手牌：", "hand: "). */
export function colon(l) {
  return String(l).startsWith("zh") ? "：" : ": ";
}

export function t(key, vars = {}) {
  let s = dict[countedKey(dict, key, vars)] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}

/** Errors whose detail the server words in the page's language (the reason a move is refused, in the
 * language the page said hello in): the reason itself is shown, not only "that move is not allowed". */
const WORDED = new Set(["illegal_action"]);

export function errorText(body) {
  if (!body) return t("error");
  if (WORDED.has(body.error) && typeof body.detail === "string" && body.detail) return body.detail;
  const key = `err_${body.error}`;
  return dict[key] ? dict[key] : `${t("error")}${t("colon")}${typeof body.detail === "string" ? body.detail : body.error}`;
}

// the signed-in session's CSRF token (account.js sets it from GET /api/me); sent with every change
let csrfToken = null;
export function setCsrf(v) { csrfToken = v; }

export async function api(method, path, { body, token } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrfToken && method !== "GET") headers["X-CSRF-Token"] = csrfToken;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) { const e = new Error(errorText(data)); e.body = data; e.status = r.status; throw e; }
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** Add a renderer's stylesheet once and wait for it, so the first drawing is already styled. */
export function loadStylesheet(href) {
  return new Promise((resolve) => {
    if (document.querySelector(`link[href="${href}"]`)) { resolve(); return; }
    const link = el("link", { rel: "stylesheet", href });
    link.onload = resolve; link.onerror = resolve;
    document.head.append(link);
  });
}

export function tokensFor(tableId) {
  const m = location.hash.match(/[#&]s=([^&]*)/);
  const key = `boardlab:tokens:${tableId}`;
  if (m && m[1]) {
    const toks = m[1].split(",").filter(Boolean);
    localStorage.setItem(key, JSON.stringify(toks));
    // out of the address bar once read: not in screenshots, shared screens, history or bookmarks
    history.replaceState(history.state, "", location.pathname + location.search);
    return toks;
  }
  try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch { return []; }
}

export function langSwitch(onChange) {
  const sel = el("select", { "aria-label": "language", class: "lang" },
    ...LANGS.map((l) => el("option", { value: l, selected: l === lang }, l === "en" ? "English" : "繁體中文")));
  sel.addEventListener("change", async () => { await loadLang(sel.value); onChange && onChange(); });
  return sel;
}

export async function gameInfo() {
  return api("GET", "/api/games");
}

export function toast(msg) {
  const box = document.getElementById("toast");
  if (!box) return alert(msg);
  box.textContent = msg;
  box.hidden = false;
  clearTimeout(box._timer);
  box._timer = setTimeout(() => { box.hidden = true; }, 4000);
}

export async function loadRenderer(game, games) {
  const info = games.games.find((g) => g.name === game);
  try {
    if (info && info.renderer) return await import(info.renderer);
  } catch (e) { console.warn("renderer failed to load, using the generic one", e); }
  return import("/static/generic.js");
}

// a seat's own name in the page's language: a bot keeps the server's default English name ("medium bot"), a guest
// the server's "#2" (issue #34: shown as "#2"), an open seat has none yet
function ownName(s, i) {
  if (s.kind === "open") return t("seat_n", { n: i + 1 });
  const m = s.name.match(/^(\w+) bot$/);
  if (m && dict[`level_${m[1]}`]) return t("bot_name", { level: t(`level_${m[1]}`) });
  const g = s.name.match(/^#(\d+)$/);
  if (g) return t("guest_n", { n: g[1] });
  return s.name;
}

// two seats of one table never read alike: a name shared by several seats is numbered in seat order ("Easy bot 1",
// "Easy bot 2"), so a result never says "Winner: Easy bot" of two Easy bots (issue #34)
export function seatName(seats, i) {
  const s = seats && seats[i];
  if (!s) return t("seat_n", { n: i + 1 });
  const name = ownName(s, i);
  const same = seats.map((x, j) => j).filter((j) => ownName(seats[j], j) === name);
  return same.length > 1 ? t("numbered", { name, n: same.indexOf(i) + 1 }) : name;
}
