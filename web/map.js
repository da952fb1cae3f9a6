// The map in SVG from the scenario document (docs/scenario-format.md): pointy-top hexes in
// rows, terrain, elevation and its contour lines, watercourses on hexsides with their bridges
// and fords, roads, tracks, objectives with their VP, set-up zones; then the unit counters of a
// state, and highlights (reachable hexes, targets, paths). Every hex is a
// <g class="hex" data-hex="CCRR"> and every counter a <g class="unit" data-unit="ID">, which
// the browser test reads.

import { Zoom } from "./zoom.js";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 30; // hex radius in SVG units
const ROOT3 = Math.sqrt(3);

const TERRAIN = {
  ".": ["clear", "#ece6c8"], clear: ["clear", "#ece6c8"],
  r: ["rough", "#cdbf98"], rough: ["rough", "#cdbf98"],
  c: ["coppice", "#bccf8f"], coppice: ["coppice", "#bccf8f"],
  o: ["orchard", "#cfdc92"], orchard: ["orchard", "#cfdc92"],
  w: ["woods", "#7fa565"], woods: ["woods", "#7fa565"],
  v: ["village", "#c99f78"], village: ["village", "#c99f78"],
  h: ["hamlet", "#dcb995"], hamlet: ["hamlet", "#dcb995"],
  m: ["marsh", "#a3c7bd"], marsh: ["marsh", "#a3c7bd"],
  p: ["palm grove", "#bccb7c"], palm_grove: ["palm grove", "#bccb7c"],
  d: ["dune", "#ead38e"], dune: ["dune", "#ead38e"],
  f: ["fort", "#b0aca6"], fort: ["fort", "#b0aca6"],
};
const WATER_WIDTH = { stream: 3, river: 6, major_river: 9 };
// The sides' colours: white counter text on each has a contrast above 4.5:1 (WCAG AA): 5.8 on
// blue, 4.8 on orange.
export const SIDE_COLOR = ["#3a5fc4", "#b35a00"];
const TYPE_SYMBOL = {
  infantry: "X", light_infantry: "LX", cavalry: "/", artillery: "•", foot_artillery: "•",
  horse_artillery: "•/", general: "★", dromedary: "D",
};

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// The codes of one terrain or elevation row: one per character, or separated by spaces.
function rowCodes(row, width) {
  const parts = row.trim().split(/\s+/);
  return parts.length === width ? parts : Array.from(row);
}

export function label(col, row) {
  return String(col + 1).padStart(2, "0") + String(row + 1).padStart(2, "0");
}

// The arrows of a side's decisions (the protocol's JSON actions, in order), in the side's
// colour (`color`): a walk as one arrow from its first hex to its last, a fire or an attack
// from the unit to its target, a placement as a ring; ends of phases and holds draw nothing.
export function decisionArrows(actions, color) {
  const arrows = [];
  for (const a of actions) {
    if (!a || !a.type || a.type === "end" || a.type === "hold") continue;
    const last = arrows[arrows.length - 1];
    if (a.type === "move" && last && last.unit === a.unit && last.type === "move" && last.to === a.from) {
      last.to = a.to;
      continue;
    }
    arrows.push({ from: a.from || a.to, to: a.to, kind: `ai ${a.type} ${color}`, unit: a.unit,
      type: a.type });
  }
  return arrows;
}

export class MapView {
  // `info`: the protocol's "scenario" reply; `onHexClick(hex)` is called with a label.
  constructor(svg, info, onHexClick) {
    this.svg = svg;
    this.info = info;
    this.doc = info.scenario;
    this.map = this.doc.map;
    this.units = new Map(info.units.map((u, i) => [u.id, { ...u, index: i }]));
    this.onHexClick = onHexClick;
    this.centers = new Map();
    this.terrain = new Map();
    this.levels = new Map();
    const odd = (this.map.layout || "odd-r") === "odd-r";
    for (let r = 0; r < this.map.height; r++) {
      const terrain = rowCodes(this.map.terrain[r], this.map.width);
      const levels = this.map.elevation ? rowCodes(this.map.elevation[r], this.map.width) : [];
      for (let c = 0; c < this.map.width; c++) {
        if (terrain[c] === "-") continue;
        const shift = (r % 2 === 1) === odd ? 0.5 : 0;
        const hex = label(c, r);
        this.centers.set(hex, [SIZE * ROOT3 * (c + shift + 0.5) + 4, SIZE * (1.5 * r + 1) + 4]);
        this.terrain.set(hex, terrain[c]);
        this.levels.set(hex, Number(levels[c] || 0));
      }
    }
    const w = SIZE * ROOT3 * (this.map.width + 0.5) + 8;
    const h = SIZE * (1.5 * this.map.height + 0.5) + 8;
    svg.innerHTML = "";
    this.zoom = new Zoom(svg, w, h);
    this.zoom.fit();
    svg.classList.toggle("tiny", false);
    for (const layer of ["hexes", "contours", "roads", "water", "marks", "highlights", "counters",
      "objectives", "overlay", "arrows"]) {
      this[layer] = el("g", { class: layer }, svg);
    }
    this.drawHexes();
    this.drawContours();
    this.drawRoads();
    this.drawWater();
    this.drawMarks();
  }

  corners(hex) {
    const [x, y] = this.centers.get(hex);
    const points = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 180) * (60 * k - 30);
      points.push([x + SIZE * Math.cos(a), y + SIZE * Math.sin(a)]);
    }
    return points;
  }

  // The two ends of the hexside between adjacent hexes a and b.
  edge(a, b) {
    const [ax, ay] = this.centers.get(a);
    const [bx, by] = this.centers.get(b);
    const mx = (ax + bx) / 2, my = (ay + by) / 2;
    const d = Math.hypot(bx - ax, by - ay);
    const px = (-(by - ay) / d) * SIZE / 2, py = ((bx - ax) / d) * SIZE / 2;
    return [[mx + px, my + py], [mx - px, my - py]];
  }

  adjacent(a, b) {
    if (!this.centers.has(a) || !this.centers.has(b)) return false;
    const [ax, ay] = this.centers.get(a);
    const [bx, by] = this.centers.get(b);
    return Math.abs(Math.hypot(bx - ax, by - ay) - SIZE * ROOT3) < 1;
  }

  drawHexes() {
    for (const hex of this.centers.keys()) {
      const g = el("g", { class: "hex", "data-hex": hex }, this.hexes);
      const [name, color] = TERRAIN[this.terrain.get(hex)] || ["?", "#fff"];
      const level = this.levels.get(hex);
      const poly = el("polygon", {
        points: this.corners(hex).map((p) => p.join(",")).join(" "),
        fill: color, stroke: "#8a8470", "stroke-width": 0.6,
      }, g);
      if (level !== 0) {  // higher ground darker, lower lighter
        el("polygon", {
          points: poly.getAttribute("points"), "pointer-events": "none",
          fill: level > 0 ? "#5b3a14" : "#ffffff",
          "fill-opacity": Math.min(0.45, 0.12 * Math.abs(level)),
        }, g);
      }
      const [x, y] = this.centers.get(hex);
      el("text", { x, y: y - SIZE * 0.62, class: "hexlabel" }, g).textContent = hex;
      if (name === "village" || name === "hamlet") {
        el("rect", { x: x - 6, y: y + 8, width: 5, height: 5, class: "house" }, g);
        if (name === "village") el("rect", { x: x + 1, y: y + 10, width: 5, height: 5, class: "house" }, g);
      } else if (name === "woods" || name === "coppice" || name === "orchard" || name === "palm grove") {
        el("text", { x, y: y + 16, class: "glyph" }, g).textContent = name === "palm grove" ? "♣♣" : "♣";
      } else if (name === "marsh") {
        el("text", { x, y: y + 16, class: "glyph" }, g).textContent = "≈";
      } else if (name === "fort") {
        el("rect", { x: x - 9, y: y + 5, width: 18, height: 10, class: "fort" }, g);
      }
      el("title", {}, g).textContent = `${hex}: ${name}, level ${level}`;
      g.addEventListener("click", () => this.onHexClick(hex));
    }
  }

  // One brown line per contour on each hexside between different levels (M-ELEV-2): one is a
  // slope, two or more a cliff.
  drawContours() {
    const hexes = [...this.centers.keys()];
    for (const a of hexes) {
      for (const b of hexes) {
        if (a >= b || !this.adjacent(a, b)) continue;
        const lines = Math.abs(this.levels.get(a) - this.levels.get(b));
        for (let i = 0; i < lines; i++) {
          const low = this.levels.get(a) < this.levels.get(b) ? a : b;
          const [[x1, y1], [x2, y2]] = this.edge(a, b);
          const [lx, ly] = this.centers.get(low);
          const t = 0.08 * (i + 0.5);  // toward the lower hex
          el("line", {
            x1: x1 + (lx - x1) * t, y1: y1 + (ly - y1) * t, x2: x2 + (lx - x2) * t,
            y2: y2 + (ly - y2) * t, class: lines > 1 ? "contour cliff" : "contour",
          }, this.contours);
        }
      }
    }
    for (const [a, b] of this.map.tracks || []) {
      const [[x1, y1], [x2, y2]] = this.edge(a, b);
      el("line", { x1, y1, x2, y2, class: "track" }, this.contours);
    }
  }

  drawRoads() {
    for (const road of this.map.roads || []) {
      const points = road.filter((h) => this.centers.has(h)).map((h) => this.centers.get(h).join(","));
      el("polyline", { points: points.join(" "), class: "road" }, this.roads);
    }
  }

  drawWater() {
    for (const course of this.map.watercourses || []) {
      for (const [a, b] of course.hexsides) {
        if (!this.centers.has(a) || !this.centers.has(b)) continue;
        const [[x1, y1], [x2, y2]] = this.edge(a, b);
        el("line", {
          x1, y1, x2, y2, class: `water ${course.type}`,
          "stroke-width": WATER_WIDTH[course.type] || 3,
        }, this.water);
      }
    }
    for (const crossing of this.map.crossings || []) {
      const [a, b] = crossing.hexside;
      const [ax, ay] = this.centers.get(a);
      const [bx, by] = this.centers.get(b);
      const mx = (ax + bx) / 2, my = (ay + by) / 2;
      const angle = (Math.atan2(by - ay, bx - ax) * 180) / Math.PI;
      el("rect", {
        x: mx - 9, y: my - 4, width: 18, height: 8, class: crossing.type,
        transform: `rotate(${angle} ${mx} ${my})`,
      }, this.water);
    }
  }

  drawMarks() {
    this.doc.sides.forEach((side, s) => {
      for (const hex of side.setup_zone || []) {
        if (!this.centers.has(hex)) continue;
        el("polygon", {
          points: this.corners(hex).map((p) => p.join(",")).join(" "),
          class: "zone", stroke: SIDE_COLOR[s],
        }, this.marks);
      }
    });
    for (const o of this.doc.objectives || []) {
      if (!this.centers.has(o.hex)) continue;
      const [x, y] = this.centers.get(o.hex);
      // Above the counters, on a plate below the counter's place: a unit on the objective
      // leaves it readable, and its holder's colour shows.
      const g = el("g", { class: `objective ${o.kind}`, "data-objective": o.hex }, this.objectives);
      el("rect", { x: x - 14, y: y + 17, width: 28, height: 10, rx: 3, class: "plate" }, g);
      el("text", { x: x - 7, y: y + 26, class: "star" }, g).textContent =
        o.kind === "passing" ? "⚑" : "★";
      el("text", { x: x + 6, y: y + 25, class: "vp" }, g).textContent =
        `${o.vp.blue}/${o.vp.orange}`;
      el("title", {}, g).textContent =
        `${o.kind} objective: ${o.vp.blue} VP blue, ${o.vp.orange} VP orange`;
    }
  }

  // Colours each objective's star with the side that holds it now (V-HEX-1, V-HEX-2):
  // `holders` is the "result" reply's `objectives`, [{hex, holder}] with holder null for none.
  drawHolders(holders) {
    for (const { hex, holder } of holders) {
      const g = this.objectives.querySelector(`g.objective[data-objective='${hex}']`);
      if (!g) continue;
      g.dataset.holder = holder || "none";
      g.querySelector(".star").style.fill = holder ? SIDE_COLOR[holder === "blue" ? 0 : 1] : "#777";
    }
  }

  // The counters of `state` (the protocol's saved-state form); `phasing` is the side to move,
  // whose units out of command are shown so.
  drawUnits(state, selected = null) {
    this.units.forEach((u) => { u.state = null; });
    this.counters.innerHTML = "";
    const phasing = state.side === "blue" ? 0 : 1;
    for (const us of state.units) {
      const info = this.units.get(us.id);
      info.state = us;
      if (!us.hex || !this.centers.has(us.hex)) continue;
      const [x, y] = this.centers.get(us.hex);
      const side = info.side === "blue" ? 0 : 1;
      const flags = new Set(us.flags);
      const general = info.type === "general";
      const classes = ["unit", info.side];
      if (!general && us.mo === 0) classes.push("demoralised");
      if (side === phasing && !flags.has("in_command")) classes.push("out-of-command");
      if (us.id === selected) classes.push("selected");
      const g = el("g", {
        class: classes.join(" "), "data-unit": us.id, "data-hex": us.hex,
        transform: `translate(${x},${y})`,
      }, this.counters);
      el("rect", { x: -17, y: -17, width: 34, height: 34, rx: 3, fill: SIDE_COLOR[side] }, g);
      el("text", { x: 0, y: -5, class: "symbol" }, g).textContent = TYPE_SYMBOL[info.type] || "?";
      el("text", { x: 0, y: 12, class: "values" }, g).textContent =
        general ? `${us.vc}` : `${us.vc}-${us.mo}`;
      const badges = [];
      if (flags.has("fired")) badges.push("F");
      if (flags.has("attacked")) badges.push("A");
      if (flags.has("charged")) badges.push("C");
      // The variant modules' states (docs/variants.md).
      const morale = new Set(us.morale ? us.morale.status : []);
      if (morale.has("routed")) badges.push("R");
      if (morale.has("pursuing")) badges.push("P");
      if (morale.has("halt_held")) badges.push("H");
      if (badges.length) el("text", { x: 15, y: -9, class: "badge" }, g).textContent = badges.join("");
      if (flags.has("victorious")) el("rect", { x: -17, y: 15, width: 34, height: 3, class: "victorious" }, g);
      el("title", {}, g).textContent =
        `${us.id} ${info.name || ""} (${info.type}), VC ${us.vc}${general ? "" : `, MO ${us.mo}`}, ` +
        `MP ${us.mp}${us.flags.length ? ", " + us.flags.join(", ") : ""}` +
        (morale.size ? `, ${[...morale].join(", ")}` : "") +
        (us.morale && us.morale.fatigue ? `, fatigue ${us.morale.fatigue}` : "");
      g.addEventListener("click", (event) => { event.stopPropagation(); this.onHexClick(us.hex); });
    }
  }

  // Marks `hexes` ([{hex, text}]) with the highlight `kind` (reach, target, path, place).
  highlight(kind, hexes) {
    for (const { hex, text } of hexes) {
      if (!this.centers.has(hex)) continue;
      const g = el("g", { class: `mark ${kind}`, "data-hex": hex }, this.highlights);
      el("polygon", { points: this.corners(hex).map((p) => p.join(",")).join(" ") }, g);
      if (text !== undefined) {
        const [x, y] = this.centers.get(hex);
        el("text", { x, y: y + SIZE * 0.75, class: "marktext" }, g).textContent = text;
      }
      g.addEventListener("click", () => this.onHexClick(hex));
    }
  }

  // A line through the centres of `hexes`.
  path(hexes) {
    const points = hexes.filter((h) => this.centers.has(h)).map((h) => this.centers.get(h).join(","));
    el("polyline", { points: points.join(" "), class: "pathline" }, this.overlay);
  }

  // Arrows from hex to hex: `arrows` is [{from, to, kind, text}] (kind: "ai" for the opponent's
  // last moves, "candidate" for an analysis's candidates, "pv" for a line shown on hover).
  drawArrows(arrows) {
    this.arrows.innerHTML = "";
    for (const { from, to, kind, text } of arrows) {
      if (!this.centers.has(from)) continue;
      const [x1, y1] = this.centers.get(from);
      const [x2, y2] = this.centers.get(to || from);
      const g = el("g", { class: `arrow ${kind}`, "data-from": from, "data-to": to || from },
        this.arrows);
      if (to && to !== from) {
        const d = Math.hypot(x2 - x1, y2 - y1);
        const ux = (x2 - x1) / d, uy = (y2 - y1) / d;
        const tx = x2 - ux * 8, ty = y2 - uy * 8;
        el("line", { x1, y1, x2: tx, y2: ty }, g);
        el("polygon", { points: `${x2},${y2} ${tx - uy * 6},${ty + ux * 6} ${tx + uy * 6},${ty - ux * 6}` }, g);
      } else {
        el("circle", { cx: x1, cy: y1, r: SIZE * 0.7 }, g);
      }
      if (text) el("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, class: "arrowtext" }, g)
        .textContent = text;
    }
  }

  // Hides the hex labels while hexes are too small on the screen to read them.
  fitLabels() {
    const k = this.svg.getBoundingClientRect().width / this.zoom.box.w;
    this.svg.classList.toggle("tiny", SIZE * k < 20);
  }

  // The name of a hex's terrain ("woods").
  terrainName(hex) {
    const t = TERRAIN[this.terrain.get(hex)];
    return t ? t[0] : "clear";
  }

  // The centre of a hex in map units (for zooming onto it).
  centre(hex) {
    return this.centers.get(hex);
  }

  clearHighlights() {
    this.highlights.innerHTML = "";
    this.overlay.innerHTML = "";
  }

  unitAt(hex) {
    for (const u of this.units.values()) if (u.state && u.state.hex === hex) return u;
    return null;
  }
}
