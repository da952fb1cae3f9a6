// The set-up screen: the scenarios, levels and agents the server offers, the game mode the form
// describes (and the form written back from a resumed game's mode), the scenario's card (its
// handicap and how even it plays), the note on search budgets,
// the saved game offered for resuming, and the question before a new game replaces it.

import { LEVELS, ownBudget } from "./help.js";
import { savedGame } from "./storage.js";

const $ = (id) => document.getElementById(id);

function option(list, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  $(list).appendChild(o);
}

// The card of each scenario offered: its briefing (who must do what) and its balance (the
// handicap and blue's measured share of wins).
const cardOf = new Map();

// Shows the chosen scenario's card under the list.
function renderScenarioCard() {
  const card = cardOf.get($("scenario").value) || { briefing: "", balance: "" };
  $("scenario-briefing").textContent = card.briefing;
  $("scenario-card").textContent = card.balance;
}

// Fills the form from a probe session: the scenarios and the trained networks, offered as
// levels, as agents and as evaluators of the review's value graph. Throws the engine's error.
export async function fillSetup(probe) {
  const list = await probe.must("scenarios");
  for (const s of list.scenarios) {
    option("scenario", s.name, `${s.title} (${s.name}, ${s.turns} turns: ${s.sides[0]} v ${s.sides[1]})`);
    cardOf.set(s.name, { briefing: s.description || "",
      balance: s.balance ? `Balance: ${s.balance}.` : "" });
  }
  // The README's scenario, against the Medium level, unless the player chooses otherwise.
  $("scenario").value = list.scenarios.some((s) => s.name === "crossing") ? "crossing"
    : list.scenarios[0].name;
  $("scenario").addEventListener("change", renderScenarioCard);
  renderScenarioCard();
  const models = await probe.must("models");
  for (const m of models.models) {
    option("agent-specs", `az:model=${m.name}`, "");
    LEVELS.push({ name: `net-${m.name}`, title: `Trained network "${m.name}", 0.5 s a decision`,
      spec: `az:model=${m.name}`, ms: 500 });
    option("review-evaluator", `az:model=${m.name}|200`, `trained network "${m.name}", 0.2 s a decision`);
  }
}

// The levels in their list; choosing one writes its agents and think time, editing those makes
// the level "custom". `onChange` redraws the page.
export function offerLevels(onChange) {
  for (const l of LEVELS) option("level", l.name, l.title);
  const choose = () => {
    const level = LEVELS.find((l) => l.name === $("level").value);
    if (level && level.spec) {
      $("agent-blue").value = level.spec;
      $("agent-orange").value = level.spec;
      $("think-ms").value = level.ms;
    }
  };
  $("level").value = "medium";
  choose();
  $("level").onchange = () => {
    choose();
    onChange();
  };
  for (const id of ["agent-blue", "agent-orange", "think-ms"]) {
    $(id).addEventListener("input", () => { $("level").value = "custom"; onChange(); });
  }
}

// The game the form describes: {kind, humans (Set of sides), agents, thinkMs, delayMs}.
export function readMode() {
  const mode = $("mode").value;
  const humans = new Set(mode === "blue" ? [0] : mode === "orange" ? [1] : mode === "two" ? [0, 1] : []);
  return {
    humans,
    kind: mode,
    agents: { blue: $("agent-blue").value.trim(), orange: $("agent-orange").value.trim() },
    thinkMs: Number($("think-ms").value),
    delayMs: mode === "watch" ? Number($("delay-ms").value) : 0,
  };
}

// Shows a mode in the form (what a resumed game is played with).
export function writeMode(mode, scenario) {
  if (typeof scenario === "string") $("scenario").value = scenario;
  renderScenarioCard();
  $("mode").value = mode.kind;
  $("agent-blue").value = mode.agents.blue;
  $("agent-orange").value = mode.agents.orange;
  $("think-ms").value = mode.thinkMs;
}

// The note under the think time: which AI fields search their own budget.
export function renderBudgetNote() {
  const own = ["agent-blue", "agent-orange"].map((id) => $(id).value.trim()).filter(ownBudget);
  $("budget-note").textContent = own.length ? `${own.join(", ")} sets its own budget in its spec; ` +
    `the think time applies to the other AI.` : "";
}

const savedName = (game) => game.record.scenario.name || game.record.scenario;
const savedWhen = (game) => new Date(game.savedAt).toLocaleString();

// Offers the game saved in this browser (Resume); returns it, or null. A saved game that cannot
// be read is reported through `refuse` (storage.js has kept it aside).
export function offerSaved(refuse) {
  let game = null;
  try {
    game = savedGame();
  } catch (error) {
    refuse(error.message);
  }
  if (game && game.record.result) game = null;  // a finished game is not resumed
  $("resume").hidden = !game;
  if (game) {
    $("resume").textContent = `Resume the saved game (${savedName(game)}, ply ${game.ply}, ` +
      `${savedWhen(game)})`;
  }
  return game;
}

// A question with two answers in a dialog of the page; resolves true for `yes`.
function confirmDialog(text, yes, no) {
  const dialog = $("confirm");
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = no;
  dialog.showModal();
  return new Promise((resolve) => {
    $("confirm-yes").onclick = () => { dialog.close(); resolve(true); };
    $("confirm-no").onclick = () => { dialog.close(); resolve(false); };
    dialog.oncancel = () => resolve(false);
  });
}

// Whether a new game may replace the saved one: asks when that game is not over.
export async function mayDiscard(refuse) {
  let game = null;
  try {
    game = savedGame();
  } catch (error) {
    refuse(error.message);  // kept aside: nothing is lost by going on
  }
  if (!game || game.record.result) return true;
  return confirmDialog(`Start another game? The game in progress (${savedName(game)}, ` +
    `${game.record.plies.length} plies, saved ${savedWhen(game)}) will be discarded.`,
  "Discard it and start", "Keep it");
}
