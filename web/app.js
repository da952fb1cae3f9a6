// The morne browser client (docs/client.md): set up a game, play it on the map against an
// agent (or two humans, or watch two agents), with the engine's previews before each click,
// the AI's reasoning while it thinks and after it moves, undo and redo by action, a review mode
// with a value graph, and games saved in the browser after every decision. Everything goes
// through the engine protocol over the page's WebSocket (protocol.js).
//
// This file is the game flow (set-up, the agents' turns, undo and redo, saving, review) and the
// page's one renderer, drawPage(). What the client holds is declared in state.js; every change
// of the page goes through its show(), which calls drawPage; the input on the map is input.js,
// the keyboard keys.js. Refusals from the engine reach the player through one function,
// refuse().

import { app, view, show, render, onRender } from "./state.js";
import { onHexClick, clearSelection, useGameFlow, selectNextUnit, typeDigit, confirmPending,
  unselect } from "./input.js";
import { Engine } from "./protocol.js";
import { MapView, decisionArrows } from "./map.js";
import { onKey } from "./keys.js";
import { drawCoordinates, followPointer } from "./coordinates.js";
import { watchGate, togglePause, stepOnce, resetWatch, renderWatchControls,
  initWatchControls } from "./watch.js";
import { decisionPrompt } from "./prompt.js";
import { renderCombatPreview, renderFirePreview, renderStepPreview, renderAnalysis,
  renderResult, renderTargets, renderScore, renderTurnDecisions, actionInWords } from "./panels.js";
import { saveGame, savedGame, forgetGame, downloadRecord, readGameFile } from "./storage.js";
import { Review, renderReview } from "./review.js";
import { ownBudget, showHelp } from "./help.js";
import { fillSetup, offerLevels, readMode, writeMode, renderBudgetNote, offerSaved,
  mayDiscard } from "./setup.js";

const $ = (id) => document.getElementById(id);

window.morne = app; // for the browser test and curious users
app.click = (hex) => onHexClick(hex);  // a click on a hex, as the map sends it
window.morneView = view;

const PANELS = {
  fire: (box, data) => renderFirePreview(box, data, app.info),
  combat: (box, data) => renderCombatPreview(box, data, app.info),
  step: (box, data) => renderStepPreview(box, data, app.info),
  targets: (box, data) => renderTargets(box, data,
    (id) => onHexClick(app.map.units.get(id).state.hex)),
};

let loggedLines = 0; // the log's lines already on the page

// Why End phase cannot be pressed now, or "" when it can.
function endPhaseBlocked() {
  const s = app.status;
  if (!s) return "no game";
  if (s.terminal) return "the game is over";
  if (app.review) return "leave the review first";
  if (s.chance) return "dice are being thrown";
  if (!isHuman(sideOf(s.side))) return `${s.side} (the AI) is to move`;
  if (app.busy) return "wait for the move in progress";
  if (!app.legal.some((a) => a.text === "end")) return "a decision must be made first (see above)";
  return "";
}

// The toolbar, on every screen: without a game in play its game buttons are disabled.
function renderToolbar() {
  const inGame = view.screen === "game" && !!app.engine && !!app.map;
  const blocked = inGame ? endPhaseBlocked() : "no game";
  $("end-phase").disabled = blocked !== "";
  // The button names the phase it ends: E never ends a phase the player has not seen named.
  const phase = inGame && app.status && !app.status.terminal ? app.status.phase : "";
  $("end-phase-name").textContent = phase ? `End ${phase}` : "End phase";
  $("end-phase").title = blocked ? `End phase is not possible: ${blocked}` : `end the ${phase} phase (E)`;
  // Watching two agents: nothing to take back.
  const noUndo = !inGame || app.busy || !!app.review || app.mode.humans.size === 0;
  $("undo").disabled = noUndo || app.ply === 0;
  $("redo").disabled = noUndo || app.ply >= app.plies;
  $("review").disabled = !inGame || app.busy;
  $("review").textContent = app.review ? "Back to the game" : "Review";
}

// Draws the page from `view` and the game (registered with state.js: render() and show()).
function drawPage() {
  $("setup").hidden = view.screen !== "setup";
  $("game").hidden = view.screen !== "game";
  $("watch-speed").hidden = $("mode").value !== "watch";
  for (const box of [$("message"), $("setup-message")]) {
    box.textContent = view.message.text;
    box.className = view.message.kind;
  }
  $("setup-message").hidden = !view.message.text;
  $("typed").hidden = !view.typed;
  $("typed").textContent = view.typed;
  $("banner").hidden = !view.banner;
  $("banner").textContent = view.banner;
  $("connection").hidden = !view.connection;
  $("connection-text").textContent = view.connection || "";
  renderBudgetNote();
  renderToolbar();
  renderWatchControls();
  renderReview(view.review, app.review, app.info);
  if (view.screen !== "game" || !app.map) return;

  const s = app.status;
  if (s) {
    const names = app.info.sides;
    const side = s.side === "blue" ? `blue (${names[0]})` : `orange (${names[1]})`;
    $("status").textContent = s.terminal ? "Game over" :
      `Turn ${s.turn} of ${app.info.turns} · ${side} · ${s.phase}${s.chance ? " · dice" : ""}`;
    $("status").dataset.side = s.side;
    $("status").dataset.phase = s.phase;
  }
  if (app.state) app.map.drawUnits(app.state, app.selected);
  app.map.clearHighlights();
  for (const m of view.marks) app.map.highlight(m.kind, m.hexes);
  if (view.path) app.map.path(view.path);
  app.map.drawArrows(view.arrows);
  if (app.result) app.map.drawHolders(app.result.objectives || []);

  $("selection").textContent = view.selection;
  $("actions").innerHTML = "";
  for (const b of view.buttons) {
    const button = document.createElement("button");
    button.textContent = b.key ? `${b.text} ` : b.text;
    if (b.key) button.appendChild(Object.assign(document.createElement("kbd"), { textContent: b.key }));
    if (b.id) button.id = b.id;
    if (b.action) button.dataset.action = b.action;
    button.onclick = b.onClick;
    $("actions").appendChild(button);
  }
  $("preview").innerHTML = "";
  if (view.preview) PANELS[view.preview.kind]($("preview"), view.preview.data);

  $("ai").hidden = !view.ai || !!app.review;
  $("score").hidden = !!app.review;
  if (view.ai) {
    $("ai-title").textContent = view.ai.title;
    $("move-now").hidden = !app.thinking;
    if (view.ai.reply) renderAnalysis($("ai-body"), view.ai.reply, app.info, view.ai.final);
    else $("ai-body").textContent = "";
    renderTurnDecisions($("ai-turn"), app.turnDecisions);
  }
  $("result").hidden = !view.result;
  if (view.result) renderResult($("result"), view.result, app.info);
  renderScore($("score"), app.result, app.state, app.info);

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

function message(text, kind = "info") {
  show({ message: { text, kind } });
}

// The one way a refusal (an engine's error reply, a closed connection) reaches the player.
function refuse(text) {
  message(text, "refused");
}

// Sends a request; returns its reply, or null after showing the engine's refusal.
async function ask(cmd, fields = {}, onUpdate = null) {
  let reply;
  try {
    reply = await app.engine.request(cmd, fields, onUpdate);
  } catch (error) {
    refuse(error.message);
    return null;
  }
  if (reply.ok) return reply;
  refuse(reply.error.message);
  return null;
}

function logEvents(events) {
  const lines = [];
  for (const e of events || []) {
    if (e.event === "phase_ends" && e.automatic) app.autoEnded = e.phase;
    if (e.event === "turn_begins") app.autoEnded = null;  // another player-turn
    if (e.event === "phase_skipped") continue;
    if (e.event === "turn_begins" && app.result && app.status) {  // G-TURN-2, step 6
      const vp = app.result.vp;
      lines.push({ event: "turn_ends", text: `End of the player-turn (G-TURN-2): VP blue ` +
        `${vp.blue}, orange ${vp.orange}` });
    }
    lines.push(e);
  }
  if (lines.length) show({ log: [...view.log, ...lines] });
}

function logLine(text, kind = "note") {
  logEvents([{ event: kind, text }]);
}

// --- the game ------------------------------------------------------------------------------

const sideOf = (color) => (color === "blue" ? 0 : 1);
const isHuman = (side) => app.mode.humans.has(side);

// Reads the position, its legal actions and its VP.
async function refresh() {
  const [state, legal, result] = await Promise.all([app.engine.must("state"),
    app.engine.must("legal"), app.engine.must("result")]);
  app.state = state.state;
  app.status = legal.status;
  app.legal = legal.actions;
  app.result = result;
  if (app.status.terminal) {
    show({ result, ai: view.ai && { ...view.ai, title: `Game over · ${view.ai.title}` },
      message: { text: "The game is over.", kind: "info" } });
  } else {
    show({ result: null });
  }
}

// Notes the ply that a reply reports (apply, roll, analyze with play, replay, load_game).
function notePly(reply) {
  if (reply.ply === undefined) return;
  app.ply = reply.ply;
  app.plies = reply.plies !== undefined ? reply.plies : reply.ply;
}

// Plays one action or outcome; shows its events; returns the reply, or null when refused.
async function apply(fields) {
  const reply = await ask("apply", fields);
  if (reply) {
    notePly(reply);
    logEvents(reply.events);
  }
  return reply;
}

// Throws the pending dice with the server's; shows their events; returns the reply.
async function roll() {
  const reply = await app.engine.must("roll");
  notePly(reply);
  logEvents(reply.events);
  return reply;
}

// A player's action begins at this ply: undo takes it back whole; the AI's marks go.
function beginAction() {
  app.autoEnded = null;
  view.banner = "";
  app.actionStarts = app.actionStarts.filter((p) => p < app.ply);
  app.actionStarts.push(app.ply);
  app.turnDecisions = [];
  show({ arrows: [] });
}

// Rolls pending dice, lets the agents move, and stops when a human is to act or the game ends;
// then saves the game in the browser.
async function advance() {
  const generation = app.generation;
  app.busy = true;
  try {
    await autosave();  // the player's action is kept before the agents answer it
    for (;;) {
      await refresh();
      if (generation !== app.generation) return;
      if (app.status.terminal) break;
      if (app.status.chance) {
        await roll();
        continue;
      }
      const side = sideOf(app.status.side);
      if (isHuman(side)) {
        prompt();
        break;
      }
      await watchGate();
      if (generation !== app.generation) return;
      await agentMove(app.status.side);
      if (app.mode.delayMs > 0) await new Promise((r) => setTimeout(r, app.mode.delayMs));
      if (generation !== app.generation) return;
    }
    await autosave();
  } catch (error) {
    refuse(error.message);
  } finally {
    if (generation === app.generation) {
      app.busy = false;
      app.thinking = null;
      render();
    }
  }
}

// Says what the player is to decide (prompt.js), the decisions that cannot wait as buttons.
function prompt() {
  const p = decisionPrompt(app.status, app.legal, app.state,
    (hex) => app.map.unitAt(hex).id, (id) => app.map.units.get(id).side);
  const changes = { message: p.message,
    buttons: p.buttons.map((b) => ({ ...b, onClick: () => act(b.action) })),
    banner: app.autoEnded && app.autoEnded !== app.status.phase
      ? `Your ${app.autoEnded} phase ended by itself: no decision was left in it. This is your ` +
        `${app.status.phase} phase.` : "" };
  if (p.marks) changes.marks = p.marks;
  show(changes);
}

// The agent of `color` plays: it thinks in the open (analyze, reports every 200 ms) for the
// think time, or, when its spec sets its own budget (sims=, ms=), searches that budget.
async function agentMove(color) {
  const spec = app.mode.agents[color];
  app.thinking = color;
  show({ ai: { title: `${color} (${spec}) is thinking…`, reply: null, final: false },
    message: { text: `${color} is thinking: its panel shows what it weighs; Move now (M) plays ` +
      `its best move at once.`, kind: "info" } });
  const report = (r) => show({ ai: { ...view.ai, reply: r, final: false } });
  const reply = ownBudget(spec)
    ? await app.engine.must("genmove", { agent: spec, play: true, top: 5 })
    : await app.engine.must("analyze", { agent: spec, ms: app.mode.thinkMs, period_ms: 200,
      top: 5, play: true }, report);
  app.thinking = null;
  notePly(reply);
  if (reply.hidden) {
    show({ ai: { title: `${color} moved (hidden until game turn 2, S-4)`, reply: null } });
  } else {
    // The arrows of the last player-turn only: the other side's turn begins a new list.
    const last = app.turnDecisions[app.turnDecisions.length - 1];
    if (last && last.color !== color) app.turnDecisions = [];
    app.turnDecisions.push({ color, reply });
    show({ ai: { title: `${color}: ${actionInWords(reply.applied, reply.text)}` +
      `${reply.stopped ? " (moved now)" : ""}`,
      reply, final: true }, arrows: decisionArrows(app.turnDecisions.map((d) => d.reply.applied ||
      d.reply.action), color) });
  }
  logEvents(reply.events);
}

// Plays one whole action of the player (`text`) and goes on to the next decision.
async function act(text) {
  if (app.busy) return;
  beginAction();
  app.busy = true;
  const played = await apply({ text });
  app.busy = false;
  if (!played) {
    render();
    return;
  }
  clearSelection();
  await advance();
}

// --- buttons and keys --------------------------------------------------------------------

async function endPhase() {
  if (endPhaseBlocked()) {
    if (app.status && !app.status.terminal) message(`End phase is not possible: ${endPhaseBlocked()}.`, "warning");
    return;
  }
  const phase = app.status.phase;
  if (app.autoEnded && app.autoEnded !== phase) {  // E meant for the phase that ended by itself
    show({
      message: { text: `Your ${app.autoEnded} phase has already ended by itself. End the ` +
        `${phase} phase too, without acting in it?`, kind: "warning" },
      buttons: [
        { text: `End ${phase}`, id: "confirm-end", key: "Enter", onClick: () => act("end") },
        { text: `Stay in ${phase}`, id: "cancel-end", key: "Esc", onClick: () => {
          app.autoEnded = null;
          prompt();
        } },
      ],
    });
    return;
  }
  await act("end");
}

// Takes back the player's last action whole (a walk, an attack with its dice) and the agents'
// replies to it; the plies stay in the record, so that redo plays them again.
async function undo() {
  if ($("undo").disabled) return;
  const before = app.actionStarts.filter((p) => p < app.ply);
  const to = before.length ? before[before.length - 1] : await lastHumanDecision();
  await goToPly(to, `undo: back to ply ${to}`);
}

// Plays again the action taken back last (and the agents' replies to it).
async function redo() {
  if ($("redo").disabled) return;
  const after = app.actionStarts.filter((p) => p > app.ply);
  const to = after.length ? after[0] : app.plies;
  await goToPly(to, `redo: forward to ply ${to}`);
}

// For a game loaded from a record (no action marks): the last ply before this one where a human
// side was to decide.
async function lastHumanDecision() {
  for (let p = app.ply - 1; p > 0; --p) {
    const r = await app.engine.must("replay", { ply: p });
    if (!r.status.chance && isHuman(sideOf(r.status.side))) return p;
  }
  return 0;
}

async function goToPly(ply, line) {
  app.generation++;
  clearSelection();
  const reply = await ask("replay", { ply });
  if (!reply) return;
  notePly(reply);
  app.turnDecisions = [];
  app.autoEnded = null;
  logLine(line);
  show({ result: null, arrows: [] });
  await advance();
}

// The record as a file: from the server, or from the browser's copy when the server is gone.
async function save() {
  let record = null;
  let ply = app.ply;
  if (app.engine && !app.engine.closed) {
    const reply = await ask("save");
    if (!reply) return;
    record = reply.record;
    ply = reply.ply;
  } else {
    const kept = savedGame();
    if (!kept) return refuse("There is no saved game to download.");
    record = kept.record;
  }
  downloadRecord(record, ply);
  message(`Saved the game record (${ply} plies).`);
}

// Keeps the game in the browser's storage; a bound orange player cannot save before game turn
// 2 (S-4): the game is saved from then on.
async function autosave() {
  const reply = await app.engine.request("save");
  if (!reply.ok) return;
  const mode = { ...app.mode, humans: [...app.mode.humans] };
  if (!saveGame({ record: reply.record, mode, actionStarts: app.actionStarts, ply: reply.ply })) {
    refuse("This browser refused to keep the game (storage full or disabled): use Save.");
  }
}

// A game record (load_game) or a saved position (set_state on its scenario).
async function loadFile(file) {
  let doc;
  try {
    doc = await readGameFile(file);
  } catch (error) {
    refuse(error.message);
    return;
  }
  if (!(await mayDiscard(refuse))) return;
  await startGame(readMode(), async () => {
    if (doc.format === "morne-state/1") {
      await app.engine.must("load", { scenario: doc.scenario, seed: Number($("seed").value),
        free_rerolls: $("free-rerolls").checked });
      return app.engine.must("set_state", { state: doc });
    }
    return app.engine.must("load_game", { record: doc });
  });
}

const socketUrl = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;

// Opens a session, loads the game with `loadIt` (which returns the reply that gave the ply) and
// plays on. Returns false, with the refusal shown, when the game could not start.
async function startGame(mode, loadIt, actionStarts = []) {
  app.generation++;
  if (app.review) app.review.close();
  app.review = null;
  if (app.engine) app.engine.close();
  app.mode = mode;
  app.engine = new Engine(socketUrl());
  const engine = app.engine;
  engine.onClose = (reason) => connectionLost(engine, reason);
  let loaded;
  try {
    await engine.connect();
    loaded = await loadIt();
    // A human second player facing an agent sees only what he may (S-4).
    if (mode.kind === "orange") await engine.must("bind", { side: "orange" });
    app.info = await engine.must("scenario");
  } catch (error) {
    engine.close();
    refuse(error.message);
    return false;
  }
  app.map = new MapView($("map"), app.info, onHexClick);
  app.map.zoom.onChange = () => {
    $("zoom-level").textContent = `${app.map.zoom.scale.toFixed(1)}×`;
    app.map.fitLabels();
    drawCoordinates(app.map);
  };
  followPointer(app.map);
  app.state = null;
  app.status = null;
  app.result = null;
  app.selected = null;
  app.pending = null;
  app.turnDecisions = [];
  app.autoEnded = null;
  resetWatch();
  app.ply = 0;
  app.plies = 0;
  notePly(loaded || {});
  app.actionStarts = actionStarts.filter((p) => p <= app.plies);
  show({ screen: "game", connection: null, log: [], result: null, ai: null, marks: [], path: null,
    banner: "",
    arrows: [], buttons: [], preview: null, selection: "" });
  app.map.zoom.fit();  // now that the map has its place on the screen
  logLine(`${app.info.title}: ${app.info.sides[0]} (blue) against ${app.info.sides[1]} (orange), ` +
    `${app.info.turns} turns`);
  await advance();
  return true;
}

// The server closed the game's connection (restart, network, idle limit): the game is in the
// browser's storage; Reconnect resumes it.
function connectionLost(engine, reason) {
  if (engine !== app.engine) return;
  app.generation++;
  app.busy = false;
  app.thinking = null;
  show({ connection: `The connection to the server is lost${reason ? ` (${reason})` : ""}. ` +
    `Your game is saved in this browser up to your last decision.` });
}

// Resumes the game saved in the browser; returns whether it did.
async function resumeSaved() {
  let game;
  try {
    game = savedGame();
  } catch (error) {
    refuse(error.message);
    return false;
  }
  if (!game) {
    refuse("There is no saved game to resume.");
    return false;
  }
  const mode = { ...game.mode, humans: new Set(game.mode.humans) };
  writeMode(mode, game.record.scenario);
  const resumed = await startGame(mode, () => app.engine.must("load_game",
    { record: game.record, ply: game.ply }), game.actionStarts || []);
  if (resumed) logLine(`resumed the game saved at ${new Date(game.savedAt).toLocaleString()}`);
  return resumed;
}

async function newGame() {
  if (!(await mayDiscard(refuse))) return;
  forgetGame();
  const scenario = $("scenario").value;
  if (!scenario) {
    refuse("No scenario to start: the server sent no list (see the message above).");
    return;
  }
  await startGame(readMode(), () => app.engine.must("load", { scenario, seed: Number($("seed").value),
    free_rerolls: $("free-rerolls").checked }));
}

async function toggleReview() {
  if ($("review").disabled) return;
  if (app.review) {
    const review = app.review;
    app.review = null;
    await review.close();
    await goToPly(review.returnPly, "back to the game");
    return;
  }
  const reply = await ask("save");
  if (!reply) return;
  app.generation++;
  clearSelection();
  app.review = new Review({ app, view, show, refresh, ask, logLine, record: reply.record });
  await app.review.open();
}

async function init() {
  onRender(drawPage);
  useGameFlow({ act, apply, ask, refuse, refresh, roll, advance, beginAction, isHuman, sideOf });
  // The scenario list comes from a short-lived session.
  const probe = new Engine(socketUrl());
  try {
    await probe.connect();
    await fillSetup(probe);
    probe.close();
  } catch (error) {
    refuse(`Cannot start a game: ${error.message}. Close other morne tabs or wait, then reload.`);
  }
  offerLevels(render);
  $("start").onclick = newGame;
  $("resume").onclick = resumeSaved;
  $("reconnect").onclick = resumeSaved;
  $("end-phase").onclick = endPhase;
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("save").onclick = save;
  $("review").onclick = toggleReview;
  $("move-now").onclick = () => app.engine.request("stop").catch(() => {});
  initWatchControls();
  $("help-button").onclick = () => showHelp(app.engine);
  $("help-close").onclick = () => $("help").close();
  $("zoom-in").onclick = () => app.map.zoom.zoomBy(1.25);
  $("zoom-out").onclick = () => app.map.zoom.zoomBy(0.8);
  $("zoom-fit").onclick = () => app.map.zoom.fit();
  $("new-game").onclick = () => {
    app.generation++;
    app.busy = false;
    offerSaved(refuse);
    show({ screen: "setup", message: { text: "", kind: "info" } });
  };
  $("load-file").onchange = (event) => {
    if (event.target.files.length) loadFile(event.target.files[0]);
  };
  $("mode").onchange = render;
  document.addEventListener("keydown", (event) => onKey(event, ACTIONS, view));
  window.addEventListener("resize", () => app.map && app.map.zoom.apply());
  const game = offerSaved(refuse);
  if (game && !game.record.result) await resumeSaved();  // a reload goes on with the game
  else render();
}

// What the shortcuts do, by the names of keys.js's KEYMAP.
const ACTIONS = {
  endPhase, undo, redo, review: toggleReview, help: () => showHelp(app.engine),
  moveNow: () => app.thinking && app.engine.request("stop").catch(() => {}),
  pauseWatch: togglePause, stepWatch: stepOnce,
  zoomIn: () => app.map && app.map.zoom.zoomBy(1.25),
  zoomOut: () => app.map && app.map.zoom.zoomBy(0.8),
  zoomFit: () => app.map && app.map.zoom.fit(),
  left: () => (app.review ? app.review.step(-1) : app.map && app.map.zoom.panBy(-0.2, 0)),
  right: () => (app.review ? app.review.step(1) : app.map && app.map.zoom.panBy(0.2, 0)),
  up: () => app.map && app.map.zoom.panBy(0, -0.2),
  down: () => app.map && app.map.zoom.panBy(0, 0.2),
  unselect,
  nextUnit: () => selectNextUnit(1),
  previousUnit: () => selectNextUnit(-1),
  typeDigit,
  confirm: confirmPending,
};

init();
