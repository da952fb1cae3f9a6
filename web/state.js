// Everything the client holds, declared once: `app`, the game and the engine session behind
// the page, and `view`, what the page shows. Every change of the page goes through show(),
// which updates `view` and draws the whole page with the one renderer app.js registers
// (onRender); nothing else writes to the panels or the map's marks.

// The game and the engine session behind the page.
export const app = {
  engine: null,
  info: null,        // the "scenario" reply
  map: null,
  state: null,       // the position as this client may see it
  status: null,
  legal: [],         // legal actions [{action, text, index}]
  result: null,      // the "result" reply for the position: VP now, or the final result
  ply: 0,            // plies played since the record's start
  plies: 0,          // plies in the record (more than ply after an undo: redo goes forward)
  actionStarts: [],  // the plies where each of the players' actions began (undo by action)
  selected: null,    // unit id
  pending: null,     // an action awaiting its second click: {text, hex}
  reach: null,       // the selected unit's reachable hexes by label
  mode: null,        // {kind, humans: Set of sides, agents: {blue, orange}, thinkMs, delayMs}
  busy: false,
  thinking: null,    // the side whose agent is searching now (Move now stops it)
  turnDecisions: [], // the agents' decisions since a player last acted: [{color, reply}]
  generation: 0,     // bumped on every new game: a stale AI loop stops
  review: null,      // the review mode (review.js) while it is open
  autoEnded: null,   // the phase of the player's that ended by itself since he last acted
};

// Everything the page shows, drawn by render().
export const view = {
  screen: "setup",                     // "setup" or "game"
  message: { text: "", kind: "info" }, // kind: info, warning, refused, prompt
  banner: "",                          // a phase that ended by itself: shown until the player acts
  typed: "",                           // a hex number being typed ("hex 08__")
  connection: null,                    // the lost connection's text, with a Reconnect button
  selection: "",                       // the selected (or shown) unit, described
  marks: [],                           // map highlights: [{kind, hexes: [{hex, text}]}]
  path: null,                          // the hexes of a walk, drawn as a line
  arrows: [],                          // [{from, to, kind, text}]: the AI's moves, candidates
  buttons: [],                         // [{text, id, action, key, onClick}]
  preview: null,                       // {kind: fire|combat|step|targets, data}
  ai: null,                            // {title, reply, final} or null (hidden)
  result: null,                        // the "result" reply once the game is over
  log: [],                             // lines of the game's log: {event, text}
  review: null,                        // review mode's panel (review.js), null when closed
};

let draw = () => {};

// Registers the function that draws the page from `app` and `view` (app.js's render).
export function onRender(renderer) {
  draw = renderer;
}

// Draws the page as `app` and `view` stand.
export function render() {
  draw();
}

// Changes what the page shows, and draws it.
export function show(changes) {
  Object.assign(view, changes);
  draw();
}
