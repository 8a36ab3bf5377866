// "Suggest a move" (issue #31): on an unrated table, the seat to move may ask the table's bot what it would
// play and why (POST /api/tables/{id}/hint: the move in words and a sentence on the terms it changes most).
// Nothing is played: the answer is shown under the button. Rated tables get no button (the server refuses too).
import { api, el, errorText, lang, t } from "/static/common.js";

let shownFor = null; // the version the shown suggestion belongs to

/** Draw the hint box into `slot` for state `s` (the seat's latest state message), asking with `token`. */
export function drawHint(slot, s, token, tableId) {
  const mine = s.seat !== null && !s.over && (s.legal || []).length > 0 && !!token;
  const rated = !!(s.site && s.site.rated);
  if (!mine || rated) { slot.replaceChildren(); shownFor = null; return; }
  if (shownFor === s.version && slot.querySelector(".hint-answer")) return; // keep the answer for this position
  const answer = el("p", { class: "hint-answer", "aria-live": "polite" });
  const button = el("button", { id: "hint", class: "hint-button", onclick: async () => {
    button.disabled = true;
    answer.textContent = t("hint_thinking");
    try {
      const r = await api("POST", `/api/tables/${tableId}/hint?lang=${lang}`, { token, body: { move: s.version } });
      shownFor = s.version;
      answer.replaceChildren(el("strong", {}, t("hint_says", { bot: t(`level_${r.bot}`) })), " ", r.text, lang === "zh-TW" ? "。" : ". ", r.why);
      answer.dataset.action = r.action;
    } catch (e) {
      answer.textContent = e.body ? errorText(e.body) : e.message;
    } finally { button.disabled = false; }
  } }, t("hint"));
  shownFor = null;
  slot.replaceChildren(button, answer);
}
