// The keyboard: the buttons of a prompt by their key (C, H, Enter, Esc), then the shortcuts.
// Keys typed in a form field or while a dialog is open, and keys on the set-up screen, do
// nothing to the game.

// Handles one keydown: `keys` maps a key ("e", "ArrowLeft", "ctrl+z") to its action; `view` is
// the page's view (its screen and its buttons with their keys).
export function onKey(event, keys, view) {
  const target = event.target;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  if (document.querySelector("dialog[open]") || view.screen !== "game") return;
  const pressed = event.key === "Escape" ? "esc" : event.key.toLowerCase();
  const named = view.buttons.find((b) => b.key && b.key.toLowerCase() === pressed);
  if (named && !event.ctrlKey) {
    named.onClick();
    return;
  }
  const key = event.ctrlKey ? `ctrl+${event.key.toLowerCase()}`
    : event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (keys[key]) {
    event.preventDefault();
    keys[key]();
  }
}
