// The account in the header of every page: who is signed in (GET /api/me), sign in / out, My games.
import { icon } from "/static/icons.js";
import { api, bracket, el, lang, setCsrf, t, toast } from "/static/common.js";

export let me = null;

export async function loadMe() {
  try { me = (await api("GET", "/api/me")).user; } catch { me = null; }
  setCsrf(me ? me.csrf : null);
  return me;
}

/** Header links: "Sign in" for guests; "My games", the profile and "Sign out" when signed in. */
export function accountBox() {
  const box = el("span", { class: "account" });
  const draw = () => {
    // every page (issue #34); on a phone the trophy alone, so the header keeps to two lines
    const leaders = el("a", { href: "/leaders", id: "leaders-link", title: t("leaderboard"), "aria-label": t("leaderboard") },
      icon("trophy"), el("span", { class: "wide-only" }, t("leaderboard")));
    if (!me) {
      box.replaceChildren(leaders, " ", el("a", { href: `/signin?next=${encodeURIComponent(location.pathname + location.hash)}`, id: "signin-link" }, t("sign_in")));
      return;
    }
    const n = turns === null ? 0 : turns;
    box.replaceChildren(leaders, " ",
      el("a", { href: "/me", id: "my-games-link", title: n ? t("my_turn_count", { n }) : t("my_games") }, t("my_games"),
        n ? el("span", { class: "badge turn", id: "my-turn-count" }, String(n)) : null), " ",
      el("a", { href: `/u/${encodeURIComponent(me.name)}`, id: "profile-link" }, icon("user"), me.name), " ",
      el("button", { type: "button", class: "link", id: "signout", onclick: async () => {
        try { await api("POST", "/api/account/signout"); me = null; setCsrf(null); location.reload(); } catch (e) { toast(e.message); }
      } }, t("sign_out")));
  };
  draw();
  box.redraw = draw;
  document.addEventListener("boardlab:lang", draw); // a language switch redraws the links at once, not on reload
  if (me) watchTurns(draw);
  return box;
}

// How many tables wait for your move, on every page (issue #34): asked when the page opens, every 30 s while it
// is shown, and at once when it is shown again (a hidden tab asks nothing)
let turns = null;
function watchTurns(draw) {
  const ask = async () => {
    if (document.visibilityState === "hidden" || !me) return;
    try { const r = await api("GET", "/api/me/turns"); if (r.count !== turns) { turns = r.count; draw(); } } catch { /* keep the last count */ }
  };
  ask();
  setInterval(ask, 30000);
  document.addEventListener("visibilitychange", ask);
  document.addEventListener("boardlab:turns", ask); // a page that knows a turn changed (the table page) asks now
}

/** Load the session and put the account links into #account (if the page has one). */
export async function mountAccount() {
  await loadMe();
  const slot = document.getElementById("account");
  if (slot) { slot.replaceChildren(accountBox()); }
  return me;
}

export function gameTitle(games, name, lang) {
  const g = games && games.games.find((x) => x.name === name);
  return g ? (g.titles[lang] || g.titles.en || name) : name;
}

/** A rating change as the game-over box and the profile show it (`site.changes` / a profile row, issue #34):
 * "1500 → 1542 (+42)" on a settled rating; on a provisional one (the server's `delta` is null) only the new figure
 * with "?" and which provisional game it was, "1317? (provisional: game 1 of 5)": a first game moves the figure
 * far (1500 → 1317 on a loss) and a signed −183 would read as a verdict the number cannot give yet. */
export function changeText(c) {
  if (c.delta === null || c.delta === undefined) {
    const n = c.rated_games ? t("provisional_game", { n: c.rated_games, of: c.settles_at }) : t("provisional");
    return `${c.after}?${bracket(lang, n)}`;
  }
  return `${c.before} → ${c.after}${c.provisional_after ? "?" : ""}${bracket(lang, `${c.delta >= 0 ? "+" : "−"}${Math.abs(c.delta)}`)}`;
}
