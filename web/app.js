// The morne browser client (docs/client.md): set up a game, play it on the map against an
// agent (or two humans, or watch two agents), with the engine's previews before each click,
// the AI's reasoning while it thinks and after it moves, undo, and game records. Everything
// goes through the engine protocol over the page's WebSocket (protocol.js).
//
// What the page shows is one declared object, `view`; show(changes) updates it and render()
// draws the page from it, the only function that writes to the panels and the map's marks.
// Refusals from the engine reach the player through one function, refuse().

import { Engine } from "./protocol.js";
import { MapView } from "./map.js";
import { renderCombatPreview, renderFirePreview, renderStepPreview, renderAnalysis,
  renderResult, renderTargets, describeUnit } from "./panels.js";

const $ = (id) => document.getElementById(id);

// The game and the engine session behind the page.
const app = {
  engine: null,
  info: null,     // the "scenario" reply
  map: null,
  state: null,    // the position as this client may see it
  status: null,
  legal: [],      // legal actions [{action, text, index}]
  selected: null, // unit id
  pending: null,  // an action awaiting its second click: {text, hex}
  reach: null,    // the selected unit's reachable hexes by label
  mode: null,     // {humans: Set of sides, agents: {blue, orange}, thinkMs, delayMs}
  busy: false,
  generation: 0,  // bumped on every new game: a stale AI loop stops
};

// Everything the page shows, drawn by render().
const view = {
  screen: "setup",                     // "setup" or "game"
  message: { text: "", kind: "info" }, // kind: info, warning, refused
  selection: "",                       // the selected (or shown) unit, described
  marks: [],                           // map highlights: [{kind, hexes: [{hex, text}]}]
  path: null,                          // the hexes of a walk, drawn as a line
  buttons: [],                         // [{text, id, action, onClick}]
  preview: null,                       // {kind: fire|combat|step|targets, data}
  ai: null,                            // {title, reply, final} or null (hidden)
  result: null,                        // the "result" reply once the game is over
  log: [],                             // lines of the game's log: {event, text}
};
window.morne = app; // for the browser test and curious users
window.morneView = view;

const PANELS = {
  fire: (box, data) => renderFirePreview(box, data, app.info),
  combat: (box, data) => renderCombatPreview(box, data, app.info),
  step: (box, data) => renderStepPreview(box, data, app.info),
  targets: (box, data) => renderTargets(box, data,
    (id) => onHexClick(app.map.units.get(id).state.hex)),
};

let loggedLines = 0; // the log's lines already on the page

// Draws the page from `view` and the game.
function render() {
  $("setup").hidden = view.screen !== "setup";
  $("game").hidden = view.screen !== "game";
  $("watch-speed").hidden = $("mode").value !== "watch";
  $("message").textContent = view.message.text;
  $("message").className = view.message.kind;
  if (view.screen !== "game" || !app.map) return;

  const s = app.status;
  if (s) {
    const names = app.info.sides;
    const side = s.side === "blue" ? `blue (${names[0]})` : `orange (${names[1]})`;
    $("status").textContent = s.terminal ? "Game over" :
      `Turn ${s.turn} of ${app.info.turns} · ${side} · ${s.phase}${s.chance ? " · dice" : ""}`;
    $("status").dataset.side = s.side;
    $("status").dataset.phase = s.phase;
    const humanTurn = !s.terminal && !s.chance && isHuman(sideOf(s.side));
    $("end-phase").disabled = !humanTurn || !app.legal.some((a) => a.text === "end");
  }
  $("undo").disabled = app.busy;

  if (app.state) app.map.drawUnits(app.state, app.selected);
  app.map.clearHighlights();
  for (const m of view.marks) app.map.highlight(m.kind, m.hexes);
  if (view.path) app.map.path(view.path);

  $("selection").textContent = view.selection;
  $("actions").innerHTML = "";
  for (const b of view.buttons) {
    const button = document.createElement("button");
    button.textContent = b.text;
    if (b.id) button.id = b.id;
    if (b.action) button.dataset.action = b.action;
    button.onclick = b.onClick;
    $("actions").appendChild(button);
  }
  $("preview").innerHTML = "";
  if (view.preview) PANELS[view.preview.kind]($("preview"), view.preview.data);

  $("ai").hidden = !view.ai;
  if (view.ai) {
    $("ai-title").textContent = view.ai.title;
    if (view.ai.reply) renderAnalysis($("ai-body"), view.ai.reply, app.info, view.ai.final);
    else $("ai-body").textContent = "";
  }
  $("result").hidden = !view.result;
  if (view.result) renderResult($("result"), view.result, app.info);

  const log = $("log");
  if (view.log.length < loggedLines) {
    log.innerHTML = "";
    loggedLines = 0;
  }
  for (; loggedLines < view.log.length; ++loggedLines) {
    const e = view.log[loggedLines];
    const line = document.createElement("div");
    line.className = `event ${e.event}`;
    line.textContent = e.text;
    log.appendChild(line);
  }
  log.scrollTop = log.scrollHeight;
}

// Changes what the page shows, and draws it.
function show(changes) {
  Object.assign(view, changes);
  render();
}

function message(text, kind = "info") {
  show({ message: { text, kind } });
}

// The one way a refusal (an engine's error reply, a closed connection) reaches the player.
function refuse(text) {
  message(text, "refused");
}

// Sends a request; returns its reply, or null after showing the engine's refusal.
async function ask(cmd, fields = {}, onUpdate = null) {
  const reply = await app.engine.request(cmd, fields, onUpdate);
  if (reply.ok) return reply;
  refuse(reply.error.message);
  return null;
}

function logEvents(events) {
  const lines = (events || []).filter((e) => e.event !== "phase_skipped");
  if (lines.length) show({ log: [...view.log, ...lines] });
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
  if (app.status.terminal) {
    const result = await app.engine.must("result");
    show({ result, message: { text: "The game is over.", kind: "info" } });
  } else {
    render();
  }
}

// Plays one action or outcome; shows its events; returns the reply, or null when refused.
async function apply(fields) {
  const reply = await ask("apply", fields);
  if (reply) logEvents(reply.events);
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
    refuse(error.message);
  } finally {
    app.busy = false;
    render();
  }
}

// The agent of `color` thinks in the open (analyze, reports every 200 ms) and plays its choice.
async function agentMove(color) {
  const spec = app.mode.agents[color];
  show({ ai: { title: `${color} (${spec}) is thinking…`, reply: null, final: false } });
  const report = (r) => show({ ai: { ...view.ai, reply: r, final: false } });
  const reply = await app.engine.must("analyze", {
    agent: spec, ms: app.mode.thinkMs, period_ms: 200, top: 5, play: true,
  }, report);
  if (reply.hidden) {
    show({ ai: { title: `${color} moved (hidden until game turn 2, S-4)`, reply: null } });
  } else {
    show({ ai: { title: `${color} played ${reply.text}`, reply, final: true } });
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
  app.reach = null;
  show({ marks: [], path: null, buttons: [], preview: null, selection: "" });
}

// Plays `text` and, when the engine takes it, goes on to the next decision.
async function play(text) {
  if (!(await apply({ text }))) return;
  clearSelection();
  await advance();
}

async function onHexClick(hex) {
  if (app.busy || !app.status || app.status.terminal) return;
  const myTurn = !app.status.chance && isHuman(sideOf(app.status.side));
  const unit = app.map.unitAt(hex);
  // Set-up: a click on a hex of the zone places the next unit (S-2, S-3).
  if (myTurn && app.status.phase === "setup") {
    await play(`place ${hex}`);
    return;
  }
  // A second click on a previewed target or hex confirms it.
  if (myTurn && app.pending && app.pending.hex === hex) {
    await play(app.pending.text);
    return;
  }
  if (unit && unit.side === app.status.side && myTurn) {
    await selectUnit(unit);
    return;
  }
  if (myTurn && app.selected) {
    await actOnHex(hex);
    return;
  }
  if (unit) await showUnit(unit);
}

// Shows a unit that is not the mover's: its state and where it could go when its side moves.
async function showUnit(unit) {
  clearSelection();
  const reach = await ask("reachable", { unit: unit.id });
  show({
    selection: describeUnit(unit, app.info),
    marks: reach ? [{ kind: "threat", hexes: reach.hexes.map((h) => ({ hex: h.hex })) }] : [],
  });
}

async function selectUnit(unit) {
  clearSelection();
  app.selected = unit.id;
  const hex = unit.state.hex;
  const mine = actionsOf(hex);
  const phase = app.status.phase;
  const next = { selection: describeUnit(unit, app.info), marks: [], preview: null };
  if (phase === "movement") {
    const reach = await ask("reachable", { unit: unit.id });
    if (!reach) return;
    next.marks = [{ kind: "reach", hexes: reach.hexes.map((h) => ({
      hex: h.hex, text: `${h.cost}${h.stops ? "!" : ""}`,
    })) }];
    app.reach = new Map(reach.hexes.map((h) => [h.hex, h]));
    if (reach.legal_now && !reach.hexes.length) {
      next.message = { text: `${unit.id} cannot move this phase.`, kind: "info" };
    }
  } else if (phase === "bombardment" || phase === "combat") {
    const kind = phase === "bombardment" ? "fire" : "attack";
    const targets = mine.filter((a) => a.action.type === kind);
    next.marks = [{ kind: "target", hexes: targets.map((a) => ({ hex: a.action.to })) }];
    if (!targets.length) {
      next.message = { text: kind === "fire" ? `${unit.id} has no target in range and line of sight.`
        : `${unit.id} has no enemy to attack.`, kind: "info" };
    }
    // A gun's targets, each with what the fire would do to it.
    if (kind === "fire") {
      const previews = await Promise.all(targets.map((a) => app.engine.must("preview_fire",
        { gun: hex, target: a.action.to })));
      next.preview = { kind: "targets", data: previews };
    }
  }
  // The other decisions of this unit (charge, hold) as buttons.
  next.buttons = app.legal.filter((x) => ["charge", "hold"].includes(x.action.type) &&
    (x.action.from === hex || x.action.unit === unit.id))
    .map((a) => ({ text: a.text, action: a.text, onClick: () => play(a.text) }));
  show(next);
}

async function actOnHex(hex) {
  const from = app.map.units.get(app.selected).state.hex;
  const phase = app.status.phase;
  if (phase === "movement") {
    const target = app.reach && app.reach.get(hex);
    if (!target) {  // not reachable: the engine says why
      await play(`move ${from}>${hex}`);
      return;
    }
    await walk(target.path);
    return;
  }
  const kind = phase === "bombardment" ? "fire" : phase === "combat" ? "attack" : null;
  if (!kind) return;
  const text = `${kind} ${from}>${hex}`;
  const preview = await ask(kind === "fire" ? "preview_fire" : "preview_combat",
    kind === "fire" ? { gun: from, target: hex } : { attacker: from, defender: hex });
  if (!preview) return;
  app.pending = { text, hex };
  show({
    preview: { kind: kind === "fire" ? "fire" : "combat", data: preview },
    message: { text: `Click ${hex} again (or the button) to ${kind}.`, kind: "info" },
    buttons: [{ text, id: kind === "fire" ? "do-fire" : "do-attack", onClick: () => onHexClick(hex) }],
  });
}

// Walks a path step by step; a step that draws reaction fire is shown first and waits for the
// player's word (F-REACT-2).
async function walk(path) {
  let from = app.map.units.get(app.selected).state.hex;
  const unitId = app.selected;
  show({ path: [from, ...path] });
  for (const to of path) {
    const text = `move ${from}>${to}`;
    const preview = await ask("preview_step", { text });
    if (!preview) break;
    if (preview.reaction_fire.length) {
      show({ preview: { kind: "step", data: preview } });
      const go = await confirmStep(text);
      if (!go) break;
    }
    if (!(await apply({ text }))) break;
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
    show({
      buttons: [
        { text: `${text} under fire`, id: "confirm-step", onClick: () => resolve(true) },
        { text: "stop here", id: "cancel-step", onClick: () => resolve(false) },
      ],
      message: { text: "This step draws reaction fire: see the odds, then go on or stop.",
        kind: "warning" },
    });
  });
}

// --- buttons and keys --------------------------------------------------------------------

async function endPhase() {
  if ($("end-phase").disabled || app.busy) return;
  await play("end");
}

async function undo() {
  if (app.busy) return;
  app.generation++;
  clearSelection();
  // Back to the last decision of a human side, through the agents' replies to it.
  for (;;) {
    const reply = await ask("undo");
    if (!reply) break;
    logLine(`undo: back to ply ${reply.ply}`);
    if (isHuman(sideOf(reply.status.side)) && !reply.status.chance) break;
    if (reply.ply === 0) break;
  }
  show({ result: null });
  await advance();
}

async function save() {
  const reply = await ask("save");
  if (!reply) return;
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

const socketUrl = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;

async function startGame(loadIt) {
  app.generation++;
  if (app.engine) app.engine.socket.close();
  app.mode = readMode();
  app.engine = new Engine(socketUrl());
  app.engine.onClose = (reason) => refuse(
    `The connection to the server is closed${reason ? ` (${reason})` : ""}; start a new game.`);
  try {
    await app.engine.connect();
    await loadIt();
    // A human second player facing an agent sees only what he may (S-4).
    if (app.mode.kind === "orange") await app.engine.must("bind", { side: "orange" });
    app.info = await app.engine.must("scenario");
  } catch (error) {
    refuse(error.message);
    return;
  }
  app.map = new MapView($("map"), app.info, onHexClick);
  app.state = null;
  app.status = null;
  app.selected = null;
  app.pending = null;
  show({ screen: "game", log: [], result: null, ai: null, marks: [], path: null, buttons: [],
    preview: null, selection: "" });
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
  const probe = new Engine(socketUrl());
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
    // The trained networks the server ships, offered beside the built-in agents.
    const models = await probe.must("models");
    for (const m of models.models) {
      const option = document.createElement("option");
      option.value = `az:model=${m.name}`;
      $("agent-specs").appendChild(option);
    }
    probe.socket.close();
  } catch (error) {
    refuse(error.message);
  }
  $("start").onclick = newGame;
  $("end-phase").onclick = endPhase;
  $("undo").onclick = undo;
  $("save").onclick = save;
  $("new-game").onclick = () => {
    app.generation++;
    show({ screen: "setup" });
  };
  $("load-file").onchange = (event) => {
    if (event.target.files.length) loadFile(event.target.files[0]);
  };
  $("mode").onchange = render;
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.key === "e" || event.key === "E") endPhase();
    else if (event.key === "u" || event.key === "U" || (event.key === "z" && event.ctrlKey)) undo();
    else if (event.key === "Escape") clearSelection();
  });
}

init();
