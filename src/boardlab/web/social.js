// Friends and blocks (issue #34): the buttons on a player's profile and the lists on the account page.
// What a block does is the server's (server/social.py): no seat at your tables, no chat lines to you.
import { api, el, t, toast } from "/static/common.js";
import { confirmBox } from "/static/site-table.js";

let lists = null; // {friends: [names], blocked: [names]} of the signed-in account

export async function loadLists() {
  try { lists = await api("GET", "/api/me/friends"); } catch { lists = { friends: [], blocked: [] }; }
  return lists;
}

const same = (a, b) => a.toLowerCase() === b.toLowerCase();
const has = (list, name) => list.some((x) => same(x, name));
const path = (kind, name) => `/api/me/${kind}/${encodeURIComponent(name)}`;

async function change(method, kind, name, redraw) {
  try { await api(method, path(kind, name)); await loadLists(); redraw(); } catch (e) { toast(e.message); }
}

/** On someone else's profile: add or remove the friend, block (after a confirmation) or unblock. */
export function socialButtons(name, redraw) {
  if (!lists) return null;
  const blocked = has(lists.blocked, name), friend = has(lists.friends, name);
  const box = el("p", { class: "social", id: "social" });
  if (blocked) {
    box.append(el("span", { class: "badge warn", id: "blocked-note" }, t("is_blocked")), " ",
      el("button", { id: "unblock", onclick: () => change("DELETE", "blocks", name, redraw) }, t("unblock")));
    return box;
  }
  if (friend) box.append(el("span", { class: "badge", id: "friend-note" }, t("is_friend")), " ");
  box.append(friend
    ? el("button", { id: "remove-friend", onclick: () => change("DELETE", "friends", name, redraw) }, t("remove_friend"))
    : el("button", { id: "add-friend", class: "primary", onclick: () => change("PUT", "friends", name, redraw) }, t("add_friend")),
  " ", el("button", { id: "block", onclick: () => confirmBox(t("block_confirm", { name }),
    () => change("PUT", "blocks", name, redraw)) }, t("block")));
  return box;
}

/** On the account page: your friends (to their profiles) and the players you blocked, each with Unblock. */
export function socialLists(redraw) {
  if (!lists) return null;
  const profile = (n) => el("a", { href: `/u/${encodeURIComponent(n)}` }, n);
  return el("section", { id: "social-lists" },
    el("h2", {}, t("friends")),
    lists.friends.length ? el("ul", { id: "friend-list" }, lists.friends.map((n) => el("li", {}, profile(n))))
      : el("p", { class: "muted" }, t("no_friends")),
    el("h2", {}, t("blocked_players")),
    lists.blocked.length ? el("ul", { id: "blocked-list" }, lists.blocked.map((n) => el("li", {}, profile(n), " ",
      el("button", { class: "unblock", onclick: () => change("DELETE", "blocks", n, redraw) }, t("unblock")))))
      : el("p", { class: "muted", id: "no-blocked" }, t("no_blocked")));
}
