// The player's reference: the difficulty levels offered on the set-up screen, and the help
// panel (shortcuts, the legend of counters and marks, and the scenario's charts from the
// engine's "charts": the combat results table and the terrain costs, with their rule IDs).

import { KEYMAP } from "./keys.js";

// Named levels: an agent spec and the think time per decision. The server's trained networks
// are added after these (app.js, from its "models" list).
export const LEVELS = [
  { name: "custom", title: "Custom: the AI fields below", spec: "", ms: 0 },
  { name: "beginner", title: "Beginner: random legal moves", spec: "random", ms: 100 },
  { name: "easy", title: "Easy: rule-based, no search", spec: "rule", ms: 100 },
  { name: "medium", title: "Medium: search, 0.3 s a decision", spec: "mcts:threads=2", ms: 300 },
  { name: "hard", title: "Hard: search, 2 s a decision", spec: "mcts:threads=2", ms: 2000 },
  { name: "expert", title: "Expert: search, 6 s a decision", spec: "mcts:threads=2", ms: 6000 },
];

// Whether an agent spec sets its own search budget (sims=, ms=, turn_ms=): the think time then
// does not replace it.
export function ownBudget(spec) {
  return /(^|[:,])(sims|ms|turn_ms)=/.test(spec);
}


const LEGEND = [
  ["X, LX, /, •, •/, ★, D", "infantry, light infantry, cavalry, artillery, horse artillery, " +
    "general, dromedaries"],
  ["4-5 on a counter", "VC (strength) - MO (morale); a general shows its VC"],
  ["red border", "demoralised (MO 0)"], ["dashed border", "out of command (CMD-2): MA halved"],
  ["F, A, C badges", "fired, attacked, charged this turn"],
  ["R, P, H badges", "routed, pursuing, held by a halt (variant modules)"],
  ["grey bar", "victorious (C-VIC-1)"],
  ["green hexes, 1 2 3", "where the selected unit can go, and the MP it costs"],
  ["! after a cost", "the move ends there: enemy zone of control (MV-ZOC-2)"],
  ["0", "a free road step (MV-ROAD-2)"],
  ["red hexes", "targets of the selected gun or attacker"],
  ["orange wash", "where an enemy unit could go when its side moves"],
  ["arrows", "the AI's last moves (dark) or an analysis's candidates (purple)"],
  ["★ ⚑ with b/o", "occupied and passing objectives with their VP for blue/orange; the " +
    "symbol takes the colour of the side holding it now"],
];

function table(rows, head = null) {
  const t = document.createElement("table");
  if (head) {
    const tr = t.insertRow();
    for (const h of head) tr.appendChild(Object.assign(document.createElement("th"), { textContent: h }));
  }
  for (const row of rows) {
    const tr = t.insertRow();
    for (const cell of row) tr.insertCell().textContent = cell;
  }
  return t;
}

function section(box, title, ...content) {
  box.appendChild(Object.assign(document.createElement("h3"), { textContent: title }));
  for (const c of content) box.appendChild(typeof c === "string"
    ? Object.assign(document.createElement("p"), { textContent: c }) : c);
}

// Opens the help panel; the charts come from `engine` when a game is loaded.
export async function showHelp(engine) {
  const dialog = document.getElementById("help");
  const box = document.getElementById("help-body");
  box.innerHTML = "";
  section(box, "Shortcuts", table(KEYMAP.map((row) => [row.label, row.help])));
  section(box, "Counters and marks", table(LEGEND));
  dialog.showModal();
  if (!engine || engine.closed) return;
  const charts = await engine.request("charts").catch(() => null);
  if (!charts || !charts.ok) return;
  const crt = charts.crt;
  section(box, `Combat results table (${crt.rule})`,
    "Rows: the modified die; columns: the odds. \"1*/0\": the attacker loses 1 VC and tests " +
    "its morale (*), the defender loses 0 (C-CRT-1, C-MOR-1).",
    table(crt.rows.map((r) => [String(r.die), ...r.cells]), ["die", ...crt.columns]));
  const costs = charts.terrain_costs;
  const classes = Object.keys(costs.terrain[0] ? costs.terrain[0].costs : {});
  section(box, `Terrain effects on movement (${costs.rule})`,
    "Movement points to enter a hex, before the hexside costs of slopes and watercourses (MV-COST-2, MV-COST-3).",
    table(costs.terrain.map((t) => [t.terrain, ...classes.map((c) => String(t.costs[c]))]),
      ["terrain", ...classes]));
}
