// Watching two agents: pause, one move at a time, and the pace between moves. The game flow
// (app.js) waits at watchGate() before each agent's move when no side is a human's.

import { app, render, show } from "./state.js";

const $ = (id) => document.getElementById(id);

let paused = false;
let steps = 0;          // moves allowed while paused (Next)
let wake = null;        // resolves the gate's wait

// Whether the game on the page is two agents watched.
export const watching = () => !!app.mode && app.mode.humans.size === 0 && !app.review;

// Waits, before an agent's move, while the watch is paused and no Next was pressed.
export async function watchGate() {
  while (paused && steps === 0) {
    show({ message: { text: "Paused: N plays the next move, P goes on.", kind: "info" } });
    await new Promise((resolve) => { wake = resolve; });
  }
  if (steps > 0) steps -= 1;
}

function go() {
  if (wake) wake();
  wake = null;
  render();
}

// Pauses the watch after the move in progress, or goes on.
export function togglePause() {
  if (!watching()) return;
  paused = !paused;
  steps = 0;
  go();
}

// While paused: lets one more move be played.
export function stepOnce() {
  if (!watching() || !paused) return;
  steps += 1;
  go();
}

// A new game is not paused.
export function resetWatch() {
  paused = false;
  steps = 0;
  go();
}

// The controls, shown while watching: Pause/Go on, Next, and the pause between moves.
export function renderWatchControls() {
  $("watch-controls").hidden = !watching();
  $("watch-pause").firstChild.textContent = paused ? "Go on " : "Pause ";
  $("watch-step").disabled = !paused;
  const pace = app.mode ? String(app.mode.delayMs) : "";
  if ([...$("watch-pace").options].some((o) => o.value === pace)) $("watch-pace").value = pace;
}

// Wires the controls (once, at start).
export function initWatchControls() {
  $("watch-pause").onclick = togglePause;
  $("watch-step").onclick = stepOnce;
  $("watch-pace").onchange = () => {
    if (app.mode) app.mode.delayMs = Number($("watch-pace").value);
  };
}
