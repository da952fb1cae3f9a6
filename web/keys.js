// The keyboard, declared once: each shortcut with the keys that press it, what the help panel
// says of it (help.js draws its table from KEYMAP) and the name of what it does (app.js binds
// the names). The buttons of a prompt are pressed by their own key (C, H, Enter, Esc) first.
// Keys typed in a form field or while a dialog is open, and keys on the set-up screen, do
// nothing to the game.

// Rows of the help panel; `bind` maps a key ("e", "ArrowLeft", "ctrl+z") to an action's name
// (none: keys of a prompt's buttons, listed for the player).
const DIGITS = Object.fromEntries([..."0123456789"].map((d) => [d, "typeDigit"]));

export const KEYMAP = [
  { label: "Tab / Shift+Tab", help: "select the next / the previous of your units that can act",
    bind: { Tab: "nextUnit", "shift+Tab": "previousUnit" } },
  { label: "0-9", help: "type a hex number (such as 0803): as a click on that hex (select a " +
    "unit, walk there, fire or attack there; again, or Enter, to confirm)", bind: DIGITS },
  { label: "Enter", help: "confirm the fire or attack shown", bind: { Enter: "confirm" } },
  { label: "E", help: "end the phase", bind: { e: "endPhase" } },
  { label: "U, Ctrl+Z", help: "undo your last action (a whole walk, an attack)",
    bind: { u: "undo", "ctrl+z": "undo" } },
  { label: "R, Ctrl+Y", help: "redo", bind: { r: "redo", "ctrl+y": "redo" } },
  { label: "C / H", help: "charge / hold, when cavalry must decide", bind: {} },
  { label: "Enter / Esc", help: "go on / stop a step under reaction fire", bind: {} },
  { label: "M", help: "the AI moves now", bind: { m: "moveNow" } },
  { label: "P / N", help: "watching two AIs: pause or go on / the next move while paused",
    bind: { p: "pauseWatch", n: "stepWatch" } },
  { label: "V", help: "review the game (← → step through it)", bind: { v: "review" } },
  { label: "+ − F", help: "zoom in, out, the whole map",
    bind: { "+": "zoomIn", "=": "zoomIn", "-": "zoomOut", f: "zoomFit" } },
  { label: "arrows", help: "pan the map",
    bind: { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" } },
  { label: "wheel, drag", help: "zoom at the pointer, pan", bind: {} },
  { label: "Esc", help: "unselect", bind: { Escape: "unselect" } },
  { label: "?", help: "this help", bind: { "?": "help" } },
];

const BOUND = Object.assign({}, ...KEYMAP.map((row) => row.bind));

// Handles one keydown: `actions` maps an action's name to what it does (given the key);
// `view` is the page's view (its screen and its buttons with their keys).
export function onKey(event, actions, view) {
  const target = event.target;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  if (target.tagName === "BUTTON" && event.key === "Enter") return;  // presses the button focused
  if (document.querySelector("dialog[open]") || view.screen !== "game") return;
  const pressed = event.key === "Escape" ? "esc" : event.key.toLowerCase();
  const named = view.buttons.find((b) => b.key && b.key.toLowerCase() === pressed);
  if (named && !event.ctrlKey) {
    named.onClick();
    return;
  }
  const key = event.ctrlKey ? `ctrl+${event.key.toLowerCase()}`
    : event.shiftKey && event.key === "Tab" ? "shift+Tab"
      : event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const action = BOUND[key];
  if (action) {
    event.preventDefault();
    actions[action](key);
  }
}
