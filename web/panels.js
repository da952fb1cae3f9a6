// The side panels of the client: previews (fire, combat, a step under reaction fire) with their
// exact distributions as bar charts, the AI's reasoning, a unit's description, the result.
// Each outcome row carries data-num and data-den: the exact probability the engine gave.

const pct = (p) => `${(100 * p).toFixed(1)}%`;

function node(tag, attrs = {}, text = null) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") n.className = v;
    else n.setAttribute(k, v);
  }
  if (text !== null) n.textContent = text;
  return n;
}

// What became of one unit in an outcome: "O-I1 retreats to 0306 (into 1 enemy ZOC), VC 3 MO 2".
function unitFate(u) {
  if (u.eliminated) return `${u.unit} eliminated`;
  const parts = [u.unit];
  if (u.retreated) parts.push(`retreats to ${u.hex}` +
    (u.retreat_zocs ? ` (into ${u.retreat_zocs} enemy ZOC: −${u.retreat_zocs} MO)` : ""));
  if (u.advanced) parts.push(`advances to ${u.hex}`);
  if (u.routed) parts.push("routed");
  if (u.pursuing) parts.push(`pursues to ${u.hex}`);
  if (u.halted) parts.push("halts");
  parts.push(`VC ${u.vc} MO ${u.mo}`);
  if (u.victorious) parts.push("victorious");
  return parts.join(" ");
}

const gcd = (a, b) => (b === 0n ? a : gcd(b, a % b));

// The outcomes that read the same (an eliminated unit's last coin, say) as one, their exact
// probabilities added: [{num, den, probability, outcome, merged}] in the engine's order.
function mergedOutcomes(outcomes, describe) {
  const byText = new Map();
  for (const o of outcomes) {
    const text = describe(o);
    const seen = byText.get(text);
    if (!seen) {
      byText.set(text, { num: BigInt(o.num), den: BigInt(o.den), outcome: o, merged: 1, text });
      continue;
    }
    const num = seen.num * BigInt(o.den) + BigInt(o.num) * seen.den;
    const den = seen.den * BigInt(o.den);
    const g = gcd(num, den);
    Object.assign(seen, { num: num / g, den: den / g, merged: seen.merged + 1 });
  }
  return [...byText.values()].map((m) => ({ ...m, probability: Number(m.num) / Number(m.den) }));
}

// Outcome rows: a bar as long as the probability, the exact fraction, and what happens; rows
// that would read the same are one row (data-merged: how many of the engine's outcomes).
function outcomeChart(outcomes, describe) {
  const chart = node("div", { class: "chart" });
  for (const o of mergedOutcomes(outcomes, describe)) {
    const row = node("div", {
      "data-merged": String(o.merged),
      class: "outcome", "data-num": String(o.num), "data-den": String(o.den),
      "data-probability": String(o.probability),
    });
    const bar = node("div", { class: "bar" });
    bar.style.width = `${Math.max(1, 100 * o.probability)}%`;
    row.append(node("span", { class: "p" }, `${pct(o.probability)} (${o.num}/${o.den})`),
      node("div", { class: "track" }), node("span", { class: "what" }, o.text));
    row.querySelector(".track").appendChild(bar);
    chart.appendChild(row);
  }
  return chart;
}

export function renderCombatPreview(box, p) {
  box.innerHTML = "";
  box.dataset.kind = "combat";
  box.dataset.attacker = p.attacker;
  box.dataset.defender = p.defender;
  box.append(node("h3", {}, `${p.attacker} attacks ${p.defender}: ${p.attack} against ${p.defence}, odds ${p.odds}`));
  const units = node("ul", { class: "contributors" });
  for (const u of p.units) {
    const effects = u.effects.length ? ` (${u.effects.join(", ")})` : "";
    units.append(node("li", {}, `${u.role} ${u.unit}: VC ${u.vc} → ${u.modified_vc}${effects}`));
  }
  box.append(units);
  const m = p.die_modifiers;
  const mods = Object.entries(m).filter(([k, v]) => k !== "total" && v !== 0)
    .map(([k, v]) => `${k} ${v > 0 ? "+" : ""}${v}`);
  box.append(node("p", {}, `die modifiers: ${mods.length ? mods.join(", ") : "none"} (total ${m.total})`));
  const dice = p.dice.map((d) => `${d.d6}→${d.die}: ${d.result}`).join(" · ");
  box.append(node("p", { class: "dice" }, `d6 (modified): ${dice}`));
  const t = p.morale_tests;
  box.append(node("p", {}, `morale tests: attacker ${pct(t.attacker.tested.probability)} taken, ` +
    `${pct(t.attacker.failed.probability)} failed; defender ${pct(t.defender.tested.probability)} ` +
    `taken, ${pct(t.defender.failed.probability)} failed`));
  if (p.attack_refused.num > 0) {
    box.append(node("p", {}, `the attacker's nerve fails (no attack): ` +
      `${pct(p.attack_refused.probability)}`));
  }
  box.append(outcomeChart(p.outcomes, (o) => `${unitFate(o.attacker)}; ${unitFate(o.defender)}`));
}

export function renderFirePreview(box, p) {
  box.innerHTML = "";
  box.dataset.kind = "fire";
  box.append(node("h3", {}, `${p.gun} fires at ${p.target} (VT ${p.vt}, ${p.distance} hexes)`));
  const m = p.modifiers;
  box.append(node("p", {}, `modifiers: distance ${m.distance}, target ${m.target_type}, ` +
    `terrain ${m.terrain} (total ${m.total}); loss points for d4 = 1..4: ${p.losses_by_d4.join(", ")}`));
  box.append(outcomeChart(p.outcomes, (o) => unitFate(o.target)));
}

// A gun's targets, each with its loss points, its chance of elimination and the VC it keeps on
// average; clicking one calls `onPick(unitId)`.
export function renderTargets(box, previews, onPick) {
  box.innerHTML = "";
  box.dataset.kind = "targets";
  if (!previews.length) return;
  box.append(node("h3", {}, `${previews[0].gun}: targets in range and line of sight`));
  const list = node("ul", { class: "targets" });
  for (const p of previews) {
    const eliminated = p.outcomes.filter((o) => o.target.eliminated)
      .reduce((sum, o) => sum + o.probability, 0);
    const vc = p.outcomes.reduce((sum, o) => sum + o.probability * o.target.vc, 0);
    const item = node("li", { "data-target": p.target }, `${p.target} at ${p.distance} hexes: ` +
      `loss points ${p.losses_by_d4.join("/")} for d4 = 1..4, eliminated ${pct(eliminated)}, ` +
      `VC ${vc.toFixed(2)} on average after`);
    item.onclick = () => onPick(p.target);
    list.append(item);
  }
  box.append(list);
}

export function renderStepPreview(box, p) {
  box.innerHTML = "";
  box.dataset.kind = "step";
  box.append(node("h3", {}, `${p.unit} ${p.from}→${p.to}: ${p.cost} MP, ${p.mp_left} left` +
    (p.stops ? ", stops (enemy ZOC)" : "") + (p.marsh_test ? ", marsh test" : "")));
  for (const g of p.reaction_fire) {
    box.append(node("p", { class: "warning" }, `reaction fire from ${g.gun} (${pct(g.probability)}): ` +
      `loss points for d4 = 1..4: ${g.losses_by_d4.join(", ")} (modifiers ${g.modifiers.total})`));
  }
  if (p.charge_offered) box.append(node("p", {}, "a charge will be offered before the fire"));
  box.append(outcomeChart(p.outcomes, (o) => unitFate(o.unit)));
}

// The AI's search: value, candidates (visits, value, prior, an attack's odds), principal
// variation; after the move, "why": the alternatives it weighed.
export function renderAnalysis(box, r, info, final) {
  box.innerHTML = "";
  // An agent that does not search (rule) ranks its candidates by its own heuristic scores,
  // which are not values in -1..+1: they are shown as scores, without visits or priors.
  const searched = r.simulations > 0;
  const value = r.value >= 0 ? `+${r.value.toFixed(2)}` : r.value.toFixed(2);
  box.append(node("p", { class: "summary" }, searched
    ? `${final ? "chose" : "leaning to"} ${r.text} · value ${value} for the side to move (-1 a ` +
      `sure loss, +1 a sure win) · ${r.simulations} simulations in ${r.seconds.toFixed(1)} s`
    : `chose ${r.text}, the highest of its heuristic scores (points of its own, not a value ` +
      `in -1..+1; it does not search)`));
  const table = node("table", { class: "candidates" });
  const head = node("tr");
  head.append(node("th", {}, "candidate"));
  if (searched) head.append(node("th", {}, "visits"), node("th", {}, "value"), node("th", {}, "prior"));
  else head.append(node("th", {}, "score"));
  head.append(node("th", {}, "attack"));
  table.append(head);
  for (const c of r.children) {
    const tr = node("tr", c.text === r.text ? { class: "chosen" } : {});
    const a = c.attack ? `${c.attack.odds}: defender out ${pct(c.attack.defender_eliminated)}, ` +
      `retreats ${pct(c.attack.defender_retreats)}; attacker retreats ${pct(c.attack.attacker_retreats)}` : "";
    tr.append(node("td", {}, c.text));
    if (searched) {
      tr.append(node("td", {}, String(c.visits)), node("td", {}, c.value.toFixed(2)),
        node("td", {}, c.prior.toFixed(2)));
    } else {
      tr.append(node("td", {}, c.value.toFixed(2)));
    }
    tr.append(node("td", {}, a));
    table.append(tr);
  }
  box.append(table);
  const pv = r.pv.map((s) => (s.text ? s.text : `${s.chance}=${s.outcome}`)).join(" → ");
  if (pv) box.append(node("p", { class: "pv" }, `expected line: ${pv}`));
  if (final && r.children.length > 1) {
    const rejected = r.children.filter((c) => c.text !== r.text).slice(0, 3)
      .map((c) => searched ? `${c.text} (value ${c.value.toFixed(2)}, ${c.visits} visits)`
        : `${c.text} (score ${c.value.toFixed(2)})`);
    box.append(node("p", { class: "why" }, `rejected: ${rejected.join("; ")}`));
  }
}

export function describeUnit(u, info) {
  const s = u.state;
  const general = u.type === "general";
  const all = s.flags.concat(s.morale ? s.morale.status : []);
  const flags = all.length ? ` · ${all.join(", ").replaceAll("_", " ")}` : "";
  return `${u.id} ${u.name || ""} · ${u.side} ${u.type.replaceAll("_", " ")} · VC ${s.vc}` +
    (general ? ` · radius ${u.radius}` : ` · MO ${s.mo}`) + ` · MA ${u.ma}, ${s.mp} MP left` +
    (u.vt ? ` · VT ${u.vt}, range ${u.range}` : "") + (u.corps ? ` · corps ${u.corps}` : "") +
    (u.quality ? ` · ${u.quality.replaceAll("_", " ")}` : "") +
    (u.morale_factor ? ` · morale factor ${u.morale_factor}` : "") +
    (s.morale && s.morale.fatigue ? ` · fatigue ${s.morale.fatigue}` : "") +
    ` · at ${s.hex}${flags}`;
}

// Where the VP come from: each objective and zone with its holder and the VP it gives.
function vpBreakdown(r) {
  const list = node("ul", { class: "vp-breakdown" });
  for (const o of r.objectives || []) {
    list.append(node("li", { "data-hex": o.hex, "data-holder": o.holder || "none" },
      `${o.kind} objective ${o.hex}: ` + (o.holder ? `${o.holder}, ${o.vp} VP` : "held by no one")));
  }
  for (const z of r.zones || []) {
    list.append(node("li", {}, `${z.kind} zone ${z.name}: ` +
      (z.scored_by.length ? `${z.scored_by.join(" and ")}, ${z.vp} VP` : "scored by no one")));
  }
  return list;
}

// The scenario's handicap (its "balance") as text, "+1.5 VP to blue", or "" when it has none.
function handicapText(r) {
  const h = r.handicap || {};
  const side = h.blue ? "blue" : h.orange ? "orange" : null;
  return side ? `+${h[side]} VP to ${side}` : "";
}

export function renderResult(box, r, info) {
  box.innerHTML = "";
  const winner = r.winner === null ? "a draw" :
    `${r.level_name} for ${r.winner} (${info.sides[r.winner === "blue" ? 0 : 1]})`;
  const handicap = handicapText(r);
  const score = handicap ? r.score : r.vp;
  const delta = Math.abs(score.blue - score.orange);
  box.append(node("h2", {}, `Result: ${winner}`),
    node("p", {}, `victory points: blue ${r.vp.blue}, orange ${r.vp.orange}` +
      (handicap ? `; the scenario's handicap ${handicap} makes the score blue ${score.blue}, ` +
        `orange ${score.orange}` : "") + `: a difference of ${delta} gives the level ` +
      "(V-LEVEL-1: 0 draw, 1 minor, 2 tactical, 3 major, 4+ total" +
      (handicap ? "; a half point, minor)" : ")")),
    vpBreakdown(r),
    node("p", { class: "hint" }, "Victory comes from objectives only (V-GEN-1): units destroyed " +
      "count through the hexes they can no longer hold."));
  box.dataset.winner = r.winner === null ? "draw" : r.winner;
}

// The score while playing: the VP now (what the result would be if the game ended here), the
// objectives' holders, and each side's losses (units eliminated, VC lost of the VC it began with).
export function renderScore(box, r, state, info) {
  box.innerHTML = "";
  if (!r || !state || r.terminal) return;
  const handicap = handicapText(r);
  box.append(node("h3", {}, `VP now: blue ${r.vp.blue} · orange ${r.vp.orange}`),
    ...(handicap ? [node("p", { class: "handicap" }, `handicap ${handicap}: score blue ` +
      `${r.score.blue} · orange ${r.score.orange}`)] : []),
    node("p", { class: "hint" }, r.winner === null ? "a draw if the game ended now" :
      `${r.level_name} for ${r.winner} if the game ended now`), vpBreakdown(r));
  const losses = node("table", { class: "losses" });
  const head = node("tr");
  head.append(node("th", {}, "side"), node("th", {}, "units"), node("th", {}, "VC"),
    node("th", {}, "eliminated"));
  losses.append(head);
  info.sides.forEach((name, s) => {
    const color = s === 0 ? "blue" : "orange";
    const units = info.units.filter((u) => u.side === color && u.type !== "general");
    const now = new Map(state.units.map((u) => [u.id, u]));
    const gone = units.filter((u) => now.get(u.id).flags.includes("eliminated"));
    const vcStart = units.reduce((sum, u) => sum + u.vc, 0);
    const vcNow = units.reduce((sum, u) => sum + (now.get(u.id).flags.includes("eliminated") ? 0
      : now.get(u.id).vc), 0);
    const tr = node("tr", { "data-side": color });
    tr.append(node("td", {}, `${color} (${name})`), node("td", {}, `${units.length - gone.length}` +
      ` of ${units.length}`), node("td", {}, `${vcNow} of ${vcStart}`),
    node("td", {}, gone.map((u) => u.id).join(", ") || "none"));
    losses.append(tr);
  });
  box.append(losses);
}

// The agents' decisions since the player last acted, oldest first.
// A decision in players' words, by unit name (the protocol's `applied` form), with the
// action's text when the form says no more: "B-I3 attacks O-I1 at 1307".
export function actionInWords(applied, text) {
  const a = applied || {};
  switch (a.type) {
    case "move": return `${a.unit} moves ${a.from} to ${a.to}`;
    case "fire": return `${a.unit} fires at ${a.target} at ${a.to}`;
    case "attack": return `${a.unit} attacks ${a.target} at ${a.to}`;
    case "charge": return `${a.unit} charges${a.target ? ` ${a.target}` : ""} at ${a.to}`;
    case "hold": return `${a.unit || "the cavalry"} holds`;
    case "place": return `${a.unit} is placed at ${a.to}`;
    case "end": return `ends the ${a.phase ? `${a.phase} phase` : "phase"}`;
    default: return text;
  }
}

export function renderTurnDecisions(box, decisions) {
  box.innerHTML = "";
  if (decisions.length < 2) return;
  box.append(node("h4", {}, "Its decisions since your last action"));
  const list = node("ol", { class: "turn-decisions" });
  for (const { color, reply } of decisions) {
    const number = reply.value >= 0 ? `+${reply.value.toFixed(2)}` : reply.value.toFixed(2);
    const how = reply.simulations ? `value ${number}, ${reply.simulations} simulations`
      : `score ${number}`;
    list.append(node("li", {}, `${color}: ${actionInWords(reply.applied, reply.text)} (${how})`));
  }
  box.append(list);
}
