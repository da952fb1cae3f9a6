// The game in progress, saved in the browser's storage after every decision, so that a reload, a
// lost connection or a server restart resumes it (docs/client.md, "Games survive"). One game is
// kept: its record (the protocol's `save`), how it is played (sides, agents, budgets), the
// plies where each of the player's actions began (undo by action), and when it was saved.
// A saved game that cannot be read back is kept aside under its own key and reported, never
// dropped.

const KEY = "morne.game";
const KEPT_ASIDE = "morne.game.unreadable";

// Saves `game`: {record, mode, actionStarts, ply}; returns false when the browser refuses
// (storage full or disabled).
export function saveGame(game) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...game, savedAt: new Date().toISOString() }));
    return true;
  } catch (error) {
    return false;
  }
}

// The saved game, or null when there is none. A saved text that is not a game is moved aside
// (KEPT_ASIDE) and reported by throwing an Error that says where it is kept.
export function savedGame() {
  const text = localStorage.getItem(KEY);
  if (text === null) return null;
  let game = null;
  try {
    game = JSON.parse(text);
  } catch (error) {
    game = null;
  }
  if (game && game.record && game.record.format === "morne-game/1" && game.mode) return game;
  localStorage.setItem(KEPT_ASIDE, text);
  localStorage.removeItem(KEY);
  throw new Error(`the saved game could not be read; it is kept in this browser's storage ` +
    `under "${KEPT_ASIDE}"`);
}

// Forgets the saved game (a new game replaces it).
export function forgetGame() {
  localStorage.removeItem(KEY);
}
