// Sign in or create an account; then back to where the player came from (?next=...).
import { api, el, langSwitch, lang, loadLang, t } from "/static/common.js";
import { mountAccount } from "/static/account.js";

const $ = (id) => document.getElementById(id);
const next = (() => {
  // Only a path of this site: parsed as the browser will follow it ("/\\host", tabs and newlines inside
  // "//host" lead elsewhere), kept only if it stays on this origin, and followed in its normalised form.
  const n = new URLSearchParams(location.search).get("next") || "/me";
  try {
    const u = new URL(n, location.origin);
    if (n.startsWith("/") && u.origin === location.origin) return u.pathname + u.search + u.hash;
  } catch {
    // not a URL at all
  }
  return "/me";
})();

function form(kind) {
  const name = el("input", { name: "name", autocomplete: "username", required: true, maxlength: 20, id: `${kind}-name` });
  const pw = el("input", { name: "password", type: "password", required: true, minlength: 8, maxlength: 128, id: `${kind}-password`,
    autocomplete: kind === "signup" ? "new-password" : "current-password" });
  const err = el("p", { class: "error", role: "alert" });
  const f = el("form", { id: `${kind}-form`, class: "stack" },
    el("h2", {}, t(kind === "signup" ? "sign_up" : "sign_in")),
    el("label", {}, t("account_name"), name),
    el("label", {}, t("password"), pw),
    kind === "signup" ? el("p", { class: "muted" }, t("name_rules")) : null,
    err,
    el("button", { class: "primary", type: "submit" }, t(kind === "signup" ? "sign_up" : "sign_in")));
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    f.querySelector("button").disabled = true;
    try {
      await api("POST", `/api/account/${kind}`, { body: { name: name.value, password: pw.value } });
      location.href = next;
    } catch (e) { err.textContent = e.message; } finally { f.querySelector("button").disabled = false; }
  });
  return el("section", {}, f);
}

function draw() {
  document.title = `${t("sign_in")} — boardlab`;
  $("page").replaceChildren(el("div", { class: "two-cols" }, form("signin"), form("signup")));
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(draw));
  await mountAccount();
  draw();
}
main();
