// The admins' page (/admin): the reported chat lines, newest first, each as it was when reported (issue #34).
import { api, el, errorText, langSwitch, lang, loadLang, t } from "/static/common.js";
import { me, mountAccount } from "/static/account.js";

const $ = (id) => document.getElementById(id);
let reports = null, error = null;

function draw() {
  document.title = `${t("reports")} — boardlab`;
  if (!me) {
    $("page").replaceChildren(el("section", {}, el("p", {}, t("err_not_signed_in")),
      el("a", { href: "/signin?next=/admin" }, el("button", { class: "primary" }, t("sign_in")))));
    return;
  }
  if (error) { $("page").replaceChildren(el("section", {}, el("p", { class: "warn" }, errorText(error)))); return; }
  const when = (at) => new Date(at * 1000).toLocaleString(lang === "zh-TW" ? "zh-TW" : "en");
  const rows = (reports || []).map((r) => el("tr", { class: "report-row" },
    el("td", {}, when(r.at)), el("td", {}, r.reporter),
    el("td", {}, r.author, r.author_account ? "" : ` ${t("guest_author")}`),
    el("td", { class: "report-text" }, r.text), el("td", {}, t(`channel_${r.channel}`)),
    el("td", {}, el("a", { href: `/t/${encodeURIComponent(r.table)}`, title: r.table }, t("open")))));
  $("page").replaceChildren(el("section", {}, el("h2", {}, t("reports")),
    rows.length ? el("table", { class: "grid", id: "reports" },
      el("tr", {}, ...["report_when", "report_by", "report_author", "report_text", "report_channel", "report_table"].map((k) => el("th", {}, t(k)))),
      ...rows) : el("p", { class: "muted" }, t("no_reports"))));
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(draw));
  await mountAccount();
  if (me) {
    try { reports = (await api("GET", "/api/admin/reports")).reports; } catch (e) { error = e.body || { error: "error" }; }
  }
  draw();
}
main();
