// Game files: the game in progress, saved in the browser's storage after every decision, so that a reload, a
// lost connection or a server restart resumes it (docs/client.md, "Games survive"). One game is
// kept: its record (the protocol's `save`), how it is played (sides, agents, budgets), the
// plies where each of the player's actions began (undo by action), and when it was saved.
// A saved game that cannot be read back is kept aside under its own key and reported, never
// dropped. And records as files: downloaded, and read back from a file the player chose.

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

// Downloads a game record as a file named after its scenario and ply.
export function downloadRecord(record, ply) {
  const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `morne-${record.scenario.name || record.scenario}-ply${ply}.json`;
  link.click();
}

// The document of a file the player chose: a game record or a saved position; throws an Error
// that names the file and says what is wrong with it.
export async function readGameFile(file) {
  let doc;
  try {
    doc = JSON.parse(await file.text());
  } catch (error) {
    throw new Error(`${file.name} is not a game record or a position: it is not JSON ` +
      `(${error.message}).`);
  }
  if (!doc || (doc.format !== "morne-state/1" && doc.format !== "morne-game/1")) {
    throw new Error(`${file.name} is neither a game record ("format": "morne-game/1") nor a ` +
      `saved position ("morne-state/1").`);
  }
  return doc;
}
