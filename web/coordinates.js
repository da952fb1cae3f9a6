// Map coordinates that can always be read: the column numbers along the top edge and the row
// numbers along the left edge of the map pane, placed at the hexes they name at every zoom and
// pan (a label every few columns where they would crowd), and the hex under the pointer or
// finger with its terrain, in the pane's corner. A hex's number is its column then its row
// (0803: column 08, row 03), as the log and the AI's moves name it.

const $ = (id) => document.getElementById(id);
const MIN_GAP = 18;  // pixels between two edge labels

// The screen position, relative to the board, of the map point (x, y) under `zoom`.
function onScreen(zoom, svg, board, x, y) {
  const r = svg.getBoundingClientRect();
  const b = board.getBoundingClientRect();
  const box = zoom.box;
  return [r.left - b.left + ((x - box.x) / box.w) * r.width,
    r.top - b.top + ((y - box.y) / box.h) * r.height];
}

// Labels along one edge: `at(i)` gives label i's position along the edge (pixels) or null.
function edgeLabels(strip, count, at, text) {
  strip.innerHTML = "";
  let last = -Infinity;
  for (let i = 0; i < count; i++) {
    const p = at(i);
    if (p === null || p - last < MIN_GAP) continue;
    last = p;
    const span = document.createElement("span");
    span.textContent = text(i);
    span.style[strip.id === "edge-cols" ? "left" : "top"] = `${p}px`;
    strip.appendChild(span);
  }
}

// Draws the edge labels of `mapView` as its zoom stands.
export function drawCoordinates(mapView) {
  const svg = mapView.svg, board = $("board"), zoom = mapView.zoom;
  const { width, height } = mapView.map;
  const pane = svg.getBoundingClientRect();
  const box = board.getBoundingClientRect();
  const within = (p, lo, hi) => (p >= lo && p <= hi ? p : null);
  // A hex centre of each column and of each row (any row of a column, any column of a row),
  // in one pass over the map.
  const colCentre = new Map(), rowCentre = new Map();
  for (const [hex, centre] of mapView.centers) {
    const col = Number(hex.slice(0, 2)) - 1, row = Number(hex.slice(2)) - 1;
    if (!colCentre.has(col)) colCentre.set(col, centre);
    if (!rowCentre.has(row)) rowCentre.set(row, centre);
  }
  edgeLabels($("edge-cols"), width, (c) => {
    const centre = colCentre.get(c);
    if (!centre) return null;
    const [x] = onScreen(zoom, svg, board, centre[0], centre[1]);
    return within(x, pane.left - box.left + 8, pane.right - box.left - 8);
  }, (c) => String(c + 1).padStart(2, "0"));
  edgeLabels($("edge-rows"), height, (r) => {
    const centre = rowCentre.get(r);
    if (!centre) return null;
    const [, y] = onScreen(zoom, svg, board, centre[0], centre[1]);
    return within(y, pane.top - box.top + 8, pane.bottom - box.top - 8);
  }, (r) => String(r + 1).padStart(2, "0"));
}

// The hex under the pointer (or a finger), named with its terrain in the pane's corner.
export function followPointer(mapView) {
  const show = (event) => {
    const [x, y] = mapView.zoom.toMap(event.clientX, event.clientY);
    let best = null, bestDistance = Infinity;
    for (const [hex, [cx, cy]] of mapView.centers) {
      const d = (cx - x) ** 2 + (cy - y) ** 2;
      if (d < bestDistance) [best, bestDistance] = [hex, d];
    }
    $("hover-hex").textContent = best ? `hex ${best} · ${mapView.terrainName(best)}` : "";
  };
  mapView.svg.addEventListener("pointermove", show);
  mapView.svg.addEventListener("pointerdown", show);
  mapView.svg.addEventListener("pointerleave", () => { $("hover-hex").textContent = ""; });
}
