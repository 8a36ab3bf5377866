// The replay viewer: step through a finished game, as this link's seat saw it (spectators: public).
import { api, el, gameInfo, lang, langSwitch, loadLang, loadRenderer, seatName, t, toast, tokensFor } from "/static/common.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const token = tokensFor(tableId)[0];
const $ = (id) => document.getElementById(id);
let total = 0, step = 0, renderer = null, games = null;

async function show(k) {
  try {
    const r = await api("GET", `/api/tables/${tableId}/replay?step=${k}&lang=${lang}`, { token });
    total = r.total; step = r.step;
    $("slider").max = total; $("slider").value = step;
    $("step").textContent = t("step", { k: step, n: total });
    $("who").textContent = r.seat === null ? t("spectating") : `${t("view")}: ${seatName(r.seats, r.seat)}`;
    if (!renderer) renderer = await loadRenderer(r.game, games);
    renderer.render($("board"), { view: r.view, seat: r.seat, state: r, legal: [], act: () => {}, lang, t });
    $("log").replaceChildren(...r.log.map((e) => el("li", {}, el("strong", {}, seatName(r.seats, e.seat)), " ",
      e.text === null ? t("hidden_action") : e.text)));
    $("log").scrollTop = $("log").scrollHeight;
  } catch (e) { toast(e.message); }
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(() => show(step)));
  games = await gameInfo();
  $("back").href = `/t/${tableId}`;
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(Math.max(0, step - 1));
  $("next").onclick = () => show(Math.min(total, step + 1));
  $("last").onclick = () => show(total);
  $("slider").oninput = () => show(Number($("slider").value));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") show(Math.max(0, step - 1));
    if (e.key === "ArrowRight") show(Math.min(total, step + 1));
  });
  show(0);
}
main();
