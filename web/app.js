// The morne browser client (docs/client.md): set up a game, play it on the map against an
// agent (or two humans, or watch two agents), with the engine's previews before each click,
// the AI's reasoning while it thinks and after it moves, undo, and game records. Everything
// goes through the engine protocol over the page's WebSocket (protocol.js).

import { Engine } from "./protocol.js";
import { MapView } from "./map.js";
import { renderCombatPreview, renderFirePreview, renderStepPreview, renderAnalysis,
  renderResult, renderTargets, describeUnit } from "./panels.js";

const $ = (id) => document.getElementById(id);

const app = {
  engine: null,
  info: null,     // the "scenario" reply
  map: null,
  state: null,    // the position as this client may see it
  status: null,
  legal: [],      // legal actions [{action, text, index}]
  selected: null, // unit id
  pending: null,  // an action awaiting its second click: {text, hex}
  mode: null,     // {humans: Set of sides, agents: {blue, orange}, thinkMs, delayMs}
  busy: false,
  watching: false,
  generation: 0,  // bumped on every new game: a stale AI loop stops
};
window.morne = app; // for the browser test and curious users

// --- messages and the log ---------------------------------------------------------------

function message(text, kind = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = kind;
}

function logEvents(events) {
  const log = $("log");
  for (const e of events || []) {
    if (e.event === "phase_skipped") continue;
    const line = document.createElement("div");
    line.className = `event ${e.event}`;
    line.textContent = e.text;
    log.appendChild(line);
  }
  log.scrollTop = log.scrollHeight;
}

function logLine(text, kind = "note") {
  logEvents([{ event: kind, text }]);
}

// --- the game ------------------------------------------------------------------------------

const sideOf = (color) => (color === "blue" ? 0 : 1);
const isHuman = (side) => app.mode.humans.has(side);

async function refresh() {
  const [state, legal] = await Promise.all([app.engine.must("state"), app.engine.must("legal")]);
  app.state = state.state;
  app.status = legal.status;
  app.legal = legal.actions;
  app.map.drawUnits(app.state, app.selected);
  renderStatus();
  if (app.status.terminal) {
    const result = await app.engine.must("result");
    renderResult($("result"), result, app.info);
    $("result").hidden = false;
    message("The game is over.");
  }
}

function renderStatus() {
  const s = app.status;
  const names = app.info.sides;
  const side = s.side === "blue" ? `blue (${names[0]})` : `orange (${names[1]})`;
  $("status").textContent = s.terminal ? "Game over" :
    `Turn ${s.turn} of ${app.info.turns} · ${side} · ${s.phase}${s.chance ? " · dice" : ""}`;
  $("status").dataset.side = s.side;
  $("status").dataset.phase = s.phase;
  const humanTurn = !s.terminal && !s.chance && isHuman(sideOf(s.side));
  $("end-phase").disabled = !humanTurn || !app.legal.some((a) => a.text === "end");
  $("undo").disabled = app.busy;
}

// Plays one action or outcome; shows its events; returns the reply (ok or not).
async function apply(fields) {
  const reply = await app.engine.request("apply", fields);
  if (!reply.ok) {
    message(reply.error.message, "refused");
    return reply;
  }
  logEvents(reply.events);
  return reply;
}

// Rolls pending dice, lets the agents move, and stops when a human is to act or the game ends.
async function advance() {
  const generation = app.generation;
  app.busy = true;
  try {
    for (;;) {
      await refresh();
      if (generation !== app.generation || app.status.terminal) return;
      if (app.status.chance) {
        const r = await app.engine.must("roll");
        logEvents(r.events);
        continue;
      }
      const side = sideOf(app.status.side);
      if (isHuman(side)) {
        message(`Your move (${app.status.side}, ${app.status.phase} phase).`);
        return;
      }
      await agentMove(app.status.side);
      if (app.mode.delayMs > 0) await new Promise((r) => setTimeout(r, app.mode.delayMs));
      if (generation !== app.generation) return;
    }
  } catch (error) {
    message(error.message, "refused");
  } finally {
    app.busy = false;
    renderStatus();
  }
}

// The agent of `color` thinks in the open (analyze, reports every 200 ms) and plays its choice.
async function agentMove(color) {
  const spec = app.mode.agents[color];
  $("ai").hidden = false;
  $("ai-title").textContent = `${color} (${spec}) is thinking…`;
  const report = (r) => renderAnalysis($("ai-body"), r, app.info, false);
  const reply = await app.engine.request("analyze", {
    agent: spec, ms: app.mode.thinkMs, period_ms: 200, top: 5, play: true,
  }, report);
  if (!reply.ok) throw new Error(reply.error.message);
  if (reply.hidden) {
    $("ai-title").textContent = `${color} moved (hidden until game turn 2, S-4)`;
    $("ai-body").textContent = "";
  } else {
    $("ai-title").textContent = `${color} played ${reply.text}`;
    renderAnalysis($("ai-body"), reply, app.info, true);
  }
  logEvents(reply.events);
}

// --- clicks on the map -----------------------------------------------------------------------

function actionsOf(unitHex) {
  return app.legal.filter((a) => a.action.from === unitHex);
}

function clearSelection() {
  app.selected = null;
  app.pending = null;
  app.map.clearHighlights();
  $("actions").innerHTML = "";
  $("preview").innerHTML = "";
  $("selection").textContent = "";
}

async function onHexClick(hex) {
  if (app.busy || !app.status || app.status.terminal) return;
  const myTurn = !app.status.chance && isHuman(sideOf(app.status.side));
  const unit = app.map.unitAt(hex);
  // Set-up: a click on a hex of the zone places the next unit (S-2, S-3).
  if (myTurn && app.status.phase === "setup") {
    const reply = await apply({ text: `place ${hex}` });
    if (reply.ok) { clearSelection(); await advance(); }
    return;
  }
  // A second click on a previewed target or hex confirms it.
  if (myTurn && app.pending && app.pending.hex === hex) {
    const text = app.pending.text;
    clearSelection();
    const reply = await apply({ text });
    if (reply.ok) await advance();
    return;
  }
  if (unit && unit.side === app.status.side && myTurn) {
    await selectUnit(unit);
    return;
  }
  if (myTurn && app.selected) {
    await actOnHex(hex, unit);
    return;
  }
  if (unit) await showUnit(unit);
}

// Shows a unit that is not the mover's: its state and where it could go when its side moves.
async function showUnit(unit) {
  clearSelection();
  $("selection").textContent = describeUnit(unit, app.info);
  const reach = await app.engine.must("reachable", { unit: unit.id });
  app.map.highlight("threat", reach.hexes.map((h) => ({ hex: h.hex })));
}

async function selectUnit(unit) {
  clearSelection();
  app.selected = unit.id;
  app.map.drawUnits(app.state, app.selected);
  $("selection").textContent = describeUnit(unit, app.info);
  const hex = unit.state.hex;
  const mine = actionsOf(hex);
  const phase = app.status.phase;
  if (phase === "movement") {
    const reach = await app.engine.must("reachable", { unit: unit.id });
    app.map.highlight("reach", reach.hexes.map((h) => ({
      hex: h.hex, text: `${h.cost}${h.stops ? "!" : ""}`,
    })));
    app.reach = new Map(reach.hexes.map((h) => [h.hex, h]));
    if (reach.legal_now && !reach.hexes.length) message(`${unit.id} cannot move this phase.`);
  } else if (phase === "bombardment") {
    const targets = mine.filter((a) => a.action.type === "fire");
    app.map.highlight("target", targets.map((a) => ({ hex: a.action.to })));
    if (!targets.length) message(`${unit.id} has no target in range and line of sight.`);
    // Every target with what the fire would do to it.
    const previews = await Promise.all(targets.map((a) => app.engine.must("preview_fire",
      { gun: hex, target: a.action.to })));
    renderTargets($("preview"), previews, (id) => onHexClick(app.map.units.get(id).state.hex));
  } else if (phase === "combat") {
    const targets = mine.filter((a) => a.action.type === "attack");
    app.map.highlight("target", targets.map((a) => ({ hex: a.action.to })));
    if (!targets.length) message(`${unit.id} has no enemy to attack.`);
  }
  // The other decisions of this unit (charge, hold) as buttons.
  for (const a of app.legal.filter((x) => ["charge", "hold"].includes(x.action.type) &&
    (x.action.from === hex || x.action.unit === unit.id))) {
    const button = document.createElement("button");
    button.textContent = a.text;
    button.dataset.action = a.text;
    button.onclick = async () => {
      clearSelection();
      const reply = await apply({ text: a.text });
      if (reply.ok) await advance();
    };
    $("actions").appendChild(button);
  }
}

async function actOnHex(hex, unit) {
  const from = app.map.units.get(app.selected).state.hex;
  const phase = app.status.phase;
  if (phase === "movement") {
    const target = app.reach && app.reach.get(hex);
    if (!target) {  // not reachable: the engine says why
      const reply = await apply({ text: `move ${from}>${hex}` });
      if (reply.ok) { clearSelection(); await advance(); }
      return;
    }
    await walk(target.path);
    return;
  }
  const kind = phase === "bombardment" ? "fire" : phase === "combat" ? "attack" : null;
  if (!kind) return;
  const text = `${kind} ${from}>${hex}`;
  const preview = await app.engine.request(kind === "fire" ? "preview_fire" : "preview_combat",
    kind === "fire" ? { gun: from, target: hex } : { attacker: from, defender: hex });
  if (!preview.ok) {
    message(preview.error.message, "refused");
    return;
  }
  if (kind === "fire") renderFirePreview($("preview"), preview, app.info);
  else renderCombatPreview($("preview"), preview, app.info);
  app.pending = { text, hex };
  message(`Click ${hex} again (or the button) to ${kind}.`);
  const go = document.createElement("button");
  go.id = kind === "fire" ? "do-fire" : "do-attack";
  go.textContent = text;
  go.onclick = () => onHexClick(hex);
  $("actions").innerHTML = "";
  $("actions").appendChild(go);
}

// Walks a path step by step; a step that draws reaction fire is shown first and waits for the
// player's word (F-REACT-2).
async function walk(path) {
  let from = app.map.units.get(app.selected).state.hex;
  const unitId = app.selected;
  app.map.path([from, ...path]);
  for (const to of path) {
    const text = `move ${from}>${to}`;
    const preview = await app.engine.request("preview_step", { text });
    if (!preview.ok) {
      message(preview.error.message, "refused");
      break;
    }
    if (preview.reaction_fire.length) {
      renderStepPreview($("preview"), preview, app.info);
      const go = await confirmStep(text);
      if (!go) break;
    }
    const reply = await apply({ text });
    if (!reply.ok) break;
    from = to;
    if (to === path[path.length - 1]) break;  // advance() below refreshes once
    await refresh();
    const us = app.map.units.get(unitId).state;
    if (app.status.chance || !us || us.hex !== to || app.legal.every((a) => a.action.from !== to ||
      a.action.type !== "move")) break;  // dice, a stop, or a charge decision: the engine leads
  }
  clearSelection();
  await advance();
}

function confirmStep(text) {
  return new Promise((resolve) => {
    $("actions").innerHTML = "";
    const go = document.createElement("button");
    go.id = "confirm-step";
    go.textContent = `${text} under fire`;
    const stop = document.createElement("button");
    stop.id = "cancel-step";
    stop.textContent = "stop here";
    go.onclick = () => resolve(true);
    stop.onclick = () => resolve(false);
    $("actions").append(go, stop);
    message("This step draws reaction fire: see the odds, then go on or stop.", "warning");
  });
}

// --- buttons and keys --------------------------------------------------------------------

async function endPhase() {
  if ($("end-phase").disabled || app.busy) return;
  clearSelection();
  const reply = await apply({ text: "end" });
  if (reply.ok) await advance();
}

async function undo() {
  if (app.busy) return;
  app.generation++;
  clearSelection();
  // Back to the last decision of a human side, through the agents' replies to it.
  for (;;) {
    const reply = await app.engine.request("undo");
    if (!reply.ok) {
      message(reply.error.message, "refused");
      break;
    }
    logLine(`undo: back to ply ${reply.ply}`);
    if (isHuman(sideOf(reply.status.side)) && !reply.status.chance) break;
    if (reply.ply === 0) break;
  }
  $("result").hidden = true;
  await advance();
}

async function save() {
  const reply = await app.engine.request("save");
  if (!reply.ok) {
    message(reply.error.message, "refused");
    return;
  }
  const blob = new Blob([JSON.stringify(reply.record, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `morne-${app.info.name}-ply${reply.ply}.json`;
  link.click();
  message(`Saved the game record (${reply.ply} plies).`);
}

// A game record (load_game) or a saved position (set_state on its scenario).
async function loadFile(file) {
  const doc = JSON.parse(await file.text());
  await startGame(async () => {
    if (doc.format === "morne-state/1") {
      await app.engine.must("load", { scenario: doc.scenario, seed: Number($("seed").value) });
      await app.engine.must("set_state", { state: doc });
    } else {
      await app.engine.must("load_game", { record: doc });
    }
  });
}

function readMode() {
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

async function startGame(loadIt) {
  app.generation++;
  if (app.engine) app.engine.socket.close();
  app.mode = readMode();
  app.engine = new Engine(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  app.engine.onClose = (reason) =>
    message(
      `The connection to the server is closed${reason ? ` (${reason})` : ""}; start a new game.`,
      "refused",
    );
  try {
    await app.engine.connect();
  } catch (error) {
    message(error.message, "refused");
    return;
  }
  await loadIt();
  // A human second player facing an agent sees only what he may (S-4).
  if (app.mode.kind === "orange") await app.engine.must("bind", { side: "orange" });
  app.info = await app.engine.must("scenario");
  app.map = new MapView($("map"), app.info, onHexClick);
  $("log").innerHTML = "";
  $("result").hidden = true;
  $("ai").hidden = true;
  $("setup").hidden = true;
  $("game").hidden = false;
  clearSelection();
  logLine(`${app.info.title}: ${app.info.sides[0]} (blue) against ${app.info.sides[1]} (orange), ` +
    `${app.info.turns} turns`);
  await advance();
}

async function newGame() {
  const scenario = $("scenario").value;
  await startGame(() => app.engine.must("load", { scenario, seed: Number($("seed").value) }));
}

async function init() {
  // The scenario list comes from a short-lived session.
  const probe = new Engine(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  try {
    await probe.connect();
    const list = await probe.must("scenarios");
    for (const s of list.scenarios) {
      const option = document.createElement("option");
      option.value = s.name;
      option.textContent = `${s.title} (${s.name}, ${s.turns} turns: ${s.sides[0]} v ${s.sides[1]})`;
      $("scenario").appendChild(option);
    }
    $("scenario").value = "duel";
    probe.socket.close();
  } catch (error) {
    message(error.message, "refused");
  }
  $("start").onclick = newGame;
  $("end-phase").onclick = endPhase;
  $("undo").onclick = undo;
  $("save").onclick = save;
  $("new-game").onclick = () => {
    app.generation++;
    $("game").hidden = true;
    $("setup").hidden = false;
  };
  $("load-file").onchange = (event) => {
    if (event.target.files.length) loadFile(event.target.files[0]);
  };
  $("mode").onchange = () => {
    $("watch-speed").hidden = $("mode").value !== "watch";
  };
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.key === "e" || event.key === "E") endPhase();
    else if (event.key === "u" || event.key === "U" || (event.key === "z" && event.ctrlKey)) undo();
    else if (event.key === "Escape") clearSelection();
  });
}

init();
