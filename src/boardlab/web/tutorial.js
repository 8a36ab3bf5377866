// The guided first game's panel (issue #31), one for every game: it reads the state message's `tutorial` part
// (core/tutorial.py: the step's text and rule, the expected move and that move in words, what to highlight),
// shows it beside the board, marks the part of the board the step is about (.tutorial-look) and the one element
// to click (.tutorial-target: the renderer's own button or board element for that move, else the shell's move
// button), and turns other moves away with a gentle word while the script runs. After the script it says that
// the guided part is over and the game goes on as a normal game.
import { el, t, toast } from "/static/common.js";

/** The element that plays `move`: a renderer's exact button, a board element offering it, the status bar's
 * answer, else the shell's move button (its folded list opened). */
function targetFor(move) {
  const q = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length);
  const exact = q("[data-action]").filter((e) => e.dataset.action === move && !e.closest("#moves"));
  const board = exact.find((e) => e.closest("#board")) || exact.find((e) => !e.closest("#answers"));
  if (board) return board;
  const offering = q("#board [data-actions]").filter((e) => e.dataset.actions.split("|").includes(move));
  if (offering.length) return offering.find((e) => e.dataset.actions === move) || offering[0];
  if (exact.length) return exact[0];
  const shell = [...document.querySelectorAll("#moves button[title]")].find((b) => b.title === move);
  if (shell) {
    const folded = shell.closest("details");
    if (folded && !folded.open) folded.open = true;
    return shell;
  }
  return null;
}

export function tutorialPanel() {
  const box = el("section", { id: "tutorial", class: "tutorial", hidden: true, "aria-live": "polite" });
  let part = null;      // the latest state's tutorial part
  let mine = false;     // the player is to move now
  let marking = false;
  let serial = 0;       // counts the changes of the marked target (tests wait on it)
  let lastTarget = null;

  const active = () => part && !part.done && part.move && mine;

  function nudge() {
    const msg = t("tutorial_not_that", { move: part.move_text || part.move });
    const n = box.querySelector(".tutorial-nudge");
    if (n) { n.textContent = msg; n.hidden = false; }
    toast(msg);
  }

  function mark() {
    if (marking) return;
    marking = true;
    try {
      document.querySelectorAll(".tutorial-target").forEach((e) => e.classList.remove("tutorial-target"));
      document.querySelectorAll(".tutorial-look").forEach((e) => e.classList.remove("tutorial-look"));
      if (!active()) { box.dataset.target = ""; return; }
      const look = part.highlight ? document.querySelector(`#board ${part.highlight.split(",").join(", #board ")}`) : null;
      if (look) look.classList.add("tutorial-look");
      box.dataset.look = look ? "1" : "0";
      const target = targetFor(part.move);
      if (target) target.classList.add("tutorial-target");
      if (target !== lastTarget) { lastTarget = target; serial += 1; }
      box.dataset.target = target ? String(serial) : "";
    } finally {
      marking = false;
    }
  }

  // a renderer may redraw or open a menu by itself: mark again after the DOM settles
  let queued = false;
  new MutationObserver(() => {
    if (marking || queued || !active()) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; mark(); });
  }).observe(document.body, { childList: true, subtree: true });

  // other moves are turned away during the script: a click on an element that plays something else
  document.addEventListener("click", (ev) => {
    if (!active() || !(ev.target instanceof Element) || ev.target.closest("#tutorial")) return;
    const e = ev.target;
    const one = e.closest("[data-action]");
    const several = e.closest("#board [data-actions]");
    const shell = e.closest("#moves button[title]");
    const wrong = (one && one.dataset.action !== part.move && !one.closest(".tutorial-target"))
      || (!one && several && !several.dataset.actions.split("|").includes(part.move))
      || (shell && shell.title !== part.move);
    if (wrong) { ev.preventDefault(); ev.stopImmediatePropagation(); nudge(); }
  }, true);

  function draw(s, isMine) {
    part = s.tutorial || null;
    mine = !!isMine;
    box.hidden = !part;
    if (!part) return;
    box.dataset.step = String(part.step);
    box.dataset.done = part.done ? "1" : "0";
    box.dataset.move = part.move || "";
    // folded to its title (a phone's screen is small): the player's choice holds until they unfold it
    const fold = el("button", { type: "button", class: "tutorial-fold", "aria-expanded": box.classList.contains("folded") ? "false" : "true",
      onclick: () => { box.classList.toggle("folded"); draw(s, isMine); } }, box.classList.contains("folded") ? t("tutorial_show") : t("tutorial_hide"));
    const head = el("h2", {}, t("tutorial_title"), " ", fold);
    const body = [];
    if (part.done) {
      body.push(el("p", { class: "tutorial-done" }, el("strong", {}, t("tutorial_done_title"))), el("p", {}, part.done_text));
    } else {
      body.push(el("p", { class: "tutorial-count" }, t("tutorial_step", { n: Math.min(part.step + 1, part.steps), total: part.steps })));
      if (part.step === 0) body.push(el("p", { class: "tutorial-intro muted" }, part.intro));
      if (part.move && mine) {
        body.push(el("p", { class: "tutorial-text" }, part.text),
          el("p", { class: "tutorial-do" }, el("strong", {}, t("tutorial_do")), " ", part.move_text || part.move),
          el("blockquote", { class: "tutorial-rules" }, el("strong", {}, `${t("tutorial_rules")}${t("colon")}`), part.rules),
          el("p", { class: "tutorial-nudge", hidden: true }));
      } else {
        body.push(el("p", { class: "tutorial-wait muted" }, t("tutorial_wait")));
      }
    }
    box.replaceChildren(head, ...body);
    mark();
  }

  /** False (and a gentle word) when `notation` is not the move the script teaches now. */
  function allows(notation) {
    if (!active() || notation === part.move) return true;
    nudge();
    return false;
  }

  return { box, draw, mark, allows, running: () => !!(part && !part.done) };
}
