// The replay viewer: step through a finished game, as this link's seat saw it (spectators: public).
import { api, el, gameInfo, lang, langSwitch, loadLang, loadRenderer, seatName, t, toast, tokensFor } from "/static/common.js";
import { mountAccount } from "/static/account.js";
import { chatLine } from "/static/site-table.js";
import { installTooltip, loadExplanations } from "/static/explain.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const token = tokensFor(tableId)[0];
const $ = (id) => document.getElementById(id);
let total = 0, step = 0, renderer = null, games = null, timer = null, chat = [];

async function show(k) {
  try {
    const r = await api("GET", `/api/tables/${tableId}/replay?step=${k}&lang=${lang}`, { token });
    total = r.total; step = r.step;
    $("slider").max = total; $("slider").value = step;
    $("step").textContent = t("step", { k: step, n: total });
    $("who").textContent = r.seat === null ? t("spectating") : `${t("view")}${t("colon")}${seatName(r.seats, r.seat)}`;
    if (!renderer) renderer = await loadRenderer(r.game, games);
    await loadExplanations(r.game, lang);
    const rs = { ...r, over: k === total, seats: r.seats.map((x, i) => ({ ...x, name: seatName(r.seats, i) })) };
    renderer.render($("board"), { view: r.view, seat: r.seat, state: rs, legal: [], act: () => {}, lang, t, replay: true });
    $("log").replaceChildren(...r.log.map((e) => el("li", {}, el("strong", {}, seatName(r.seats, e.seat)), " ",
      e.text === null ? t("hidden_action") : e.text)));
    $("log").scrollTop = $("log").scrollHeight;
    if (step >= total) stop();
  } catch (e) { toast(e.message); stop(); }
}

// autoplay: one move every 2.4 s / speed; any manual step stops it
function stop() { clearInterval(timer); timer = null; $("play").textContent = `▶ ${t("autoplay")}`; }
function play() {
  if (timer) { stop(); return; }
  if (step >= total) show(0);
  $("play").textContent = `❚❚ ${t("pause")}`;
  timer = setInterval(() => show(Math.min(total, step + 1)), 2400 / Number($("speed").value));
}

async function loadChat() {
  chat = [];
  try { // the whole chat of a finished game, a page at a time (newest pages first)
    for (let before = null, more = true; more && chat.length < 20000;) {
      const r = await api("GET", `/api/tables/${tableId}/chat${before === null ? "" : `?before=${before}`}`);
      chat = [...r.chat, ...chat];
      more = r.more && r.chat.length > 0;
      if (r.chat.length) before = r.chat[0].n;
    }
  } catch { /* show what came */ }
  $("replay-chat").replaceChildren(...chat.map(chatLine));
  $("chat-section").hidden = !chat.length;
}

async function main() {
  await loadLang(lang);
  $("lang").append(langSwitch(() => show(step)));
  games = await gameInfo();
  $("back").href = `/t/${tableId}`;
  await mountAccount();
  $("first").onclick = () => { stop(); show(0); };
  $("prev").onclick = () => { stop(); show(Math.max(0, step - 1)); };
  $("next").onclick = () => { stop(); show(Math.min(total, step + 1)); };
  $("last").onclick = () => { stop(); show(total); };
  $("slider").oninput = () => { stop(); show(Number($("slider").value)); };
  $("play").onclick = play;
  $("speed").onchange = () => { if (timer) { stop(); play(); } };
  stop();
  loadChat();
  installTooltip();
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") show(Math.max(0, step - 1));
    if (e.key === "ArrowRight") show(Math.min(total, step + 1));
  });
  show(0);
}
main();
