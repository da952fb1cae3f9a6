// The player's input on the map: a click selects a unit (its reach, its targets with their
// odds), previews an action and confirms it with a second click, walks a path step by step
// (a step under reaction fire waits for the player's word), or places a unit in set-up. The
// keyboard does the same: Tab selects the units that can act in turn, a typed hex number is a
// click on that hex, Enter confirms. The game flow it drives (act, apply, advance...) comes
// from app.js through useGameFlow().

import { app, view, show } from "./state.js";
import { describeUnit } from "./panels.js";

let flow = null;  // {act, apply, ask, refuse, refresh, roll, advance, beginAction, isHuman, sideOf}

// Hands in the game flow this module drives; called once by app.js before any click.
export function useGameFlow(gameFlow) {
  flow = gameFlow;
}

function actionsOf(unitHex) {
  return app.legal.filter((a) => a.action.from === unitHex);
}

export function clearSelection() {
  app.selected = null;
  app.pending = null;
  app.reach = null;
  show({ marks: [], path: null, buttons: [], preview: null, selection: "" });
}

export async function onHexClick(hex) {
  if (app.review) {
    await app.review.onHexClick(hex);
    return;
  }
  if (app.busy || !app.status || app.status.terminal) return;
  const myTurn = !app.status.chance && flow.isHuman(flow.sideOf(app.status.side));
  const unit = app.map.unitAt(hex);
  // Set-up: a click on a hex of the zone places the next unit (S-2, S-3).
  if (myTurn && app.status.phase === "setup") {
    await flow.act(`place ${hex}`);
    return;
  }
  // A second click on a previewed target or hex confirms it.
  if (myTurn && app.pending && app.pending.hex === hex) {
    await flow.act(app.pending.text);
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
  const reach = await flow.ask("reachable", { unit: unit.id });
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
    const reach = await flow.ask("reachable", { unit: unit.id });
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
    .map((a) => ({ text: a.text, action: a.text, onClick: () => flow.act(a.text) }));
  show(next);
}

async function actOnHex(hex) {
  const from = app.map.units.get(app.selected).state.hex;
  const phase = app.status.phase;
  if (phase === "movement") {
    const target = app.reach && app.reach.get(hex);
    if (target) {
      await walk(target.path);
    } else {
      flow.refuse(`${app.selected} cannot reach ${hex} this phase: the green hexes are where it can ` +
        `go (MV-GEN-2, MV-COST-1).`);
    }
    return;
  }
  const kind = phase === "bombardment" ? "fire" : phase === "combat" ? "attack" : null;
  if (!kind) return;
  const text = `${kind} ${from}>${hex}`;
  const preview = await flow.ask(kind === "fire" ? "preview_fire" : "preview_combat",
    kind === "fire" ? { gun: from, target: hex } : { attacker: from, defender: hex });
  if (!preview) return;
  app.pending = { text, hex };
  show({
    preview: { kind: kind === "fire" ? "fire" : "combat", data: preview },
    message: { text: `Click ${hex} again, or press Enter (or the button), to ${kind}.`, kind: "info" },
    buttons: [{ text, id: kind === "fire" ? "do-fire" : "do-attack", key: "Enter",
      onClick: () => onHexClick(hex) }],
  });
}

// Walks a path step by step, as one action of the player; a step that draws reaction fire is
// shown first and waits for the player's word (F-REACT-2). A marsh test on the way is thrown
// at once: passed, the walk goes on; failed, the unit stays and the message says why
// (MV-MARSH-1).
async function walk(path) {
  let from = app.map.units.get(app.selected).state.hex;
  const unitId = app.selected;
  let stuck = null;  // the failed marsh test that stopped the walk
  flow.beginAction();
  app.busy = true;
  show({ path: [from, ...path] });
  for (const to of path) {
    const text = `move ${from}>${to}`;
    const preview = await flow.ask("preview_step", { text });
    if (!preview) break;
    if (preview.reaction_fire.length) {
      app.busy = false;
      show({ preview: { kind: "step", data: preview } });
      const go = await confirmStep(text);
      app.busy = true;
      if (!go) break;
    }
    if (!(await flow.apply({ text }))) break;
    from = to;
    if (to === path[path.length - 1]) break;  // advance() below refreshes once
    await flow.refresh();
    if (app.status.chance && (await flow.ask("chance")).event.kind === "marsh_test") {
      const test = (await flow.roll()).events.find((e) => e.event === "marsh_test");
      if (test && test.stuck) stuck = { hex: to, test };
      await flow.refresh();
    }
    const us = app.map.units.get(unitId).state;
    if (stuck || app.status.chance || !us || us.hex !== to || app.legal.every((a) =>
      a.action.from !== to || a.action.type !== "move")) break;  // dice, a stop, or a charge: the engine leads
  }
  app.busy = false;
  clearSelection();
  await flow.advance();
  if (stuck) {
    show({ message: { kind: "warning", text: `${unitId} stopped in ${stuck.hex}, short of ` +
      `${path[path.length - 1]}: stuck in the marsh (d4 = ${stuck.test.die}, not above ` +
      `${stuck.test.threshold}; MV-MARSH-1).` } });
  }
}

function confirmStep(text) {
  return new Promise((resolve) => {
    show({
      buttons: [
        { text: `${text} under fire`, id: "confirm-step", key: "Enter", onClick: () => resolve(true) },
        { text: "stop here", id: "cancel-step", key: "Esc", onClick: () => resolve(false) },
      ],
      message: { text: "This step draws reaction fire: see the odds, then go on or stop.",
        kind: "warning" },
    });
  });
}


// --- the keyboard ---------------------------------------------------------------------------

let typed = "";  // the digits of a hex number being typed

// The units of the side to move that have a legal action now, in hex order.
function unitsThatCanAct() {
  const hexes = new Set(app.legal.map((a) => a.action.from).filter(Boolean));
  return [...app.map.units.values()]
    .filter((u) => u.side === app.status.side && u.state && hexes.has(u.state.hex))
    .sort((a, b) => a.state.hex.localeCompare(b.state.hex));
}

// Tab: selects the next (`step` 1) or previous (-1) unit that can act, as a click on it.
export async function selectNextUnit(step) {
  if (app.review || app.busy || !app.status || app.status.chance || app.status.terminal ||
    !flow.isHuman(flow.sideOf(app.status.side))) return;
  const units = unitsThatCanAct();
  if (!units.length) {
    show({ message: { text: "None of your units can act in this phase: E ends it.", kind: "info" } });
    return;
  }
  const at = units.findIndex((u) => u.id === app.selected);
  const next = units[(at + step + units.length * 2) % units.length];
  typed = "";
  await onHexClick(next.state.hex);
}

// A digit of a hex number: four make a hex, then it is clicked.
export async function typeDigit(digit) {
  if (!app.map || app.busy) return;
  typed += digit;
  if (typed.length < 4) {
    show({ typed: `hex ${typed.padEnd(4, "_")}` });
    return;
  }
  const hex = typed;
  typed = "";
  if (!app.map.centers.has(hex)) {
    show({ typed: "", message: { text: `There is no hex ${hex} on this map.`, kind: "refused" } });
    return;
  }
  show({ typed: "" });
  await onHexClick(hex);
}

// Enter: confirms the fire or attack previewed (as its second click).
export async function confirmPending() {
  if (app.pending) await onHexClick(app.pending.hex);
}

// Esc: forgets a half-typed hex number, then the selection.
export function unselect() {
  if (typed) {
    typed = "";
    show({ typed: "" });
    return;
  }
  clearSelection();
}
