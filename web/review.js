// Review mode: the game's record as a move list grouped by player-turn, stepping back and
// forward through it (the protocol's `replay`, which keeps every ply), the value graph over the
// game (an agent's evaluation of each recorded decision, for blue: +1 won, -1 lost, as KaTrain
// and lichess draw it; click a point to go there), and "analyse this position" (a streamed
// `analyze`) with its candidates drawn on the map and the principal variation on hover.

import { renderAnalysis } from "./panels.js";

const $ = (id) => document.getElementById(id);
const GRAPH_W = 380, GRAPH_H = 110;

// "move 0707>0706" -> {from: "0707", to: "0706"}; "place 0203" -> {from: "0203", to: "0203"}.
function hexesOf(text) {
  const m = /(\d{4})(?:>(\d{4}))?/.exec(text || "");
  return m ? { from: m[1], to: m[2] || m[1] } : null;
}

function plyText(p) {
  return typeof p === "string" ? p : `${p.chance} ${p.outcome}`;
}

// What review mode shows, in `view.review` (state.js): the record, the position shown, the
// values evaluated, the progress line and the analysis. Null when review mode is closed.
function reviewView(record) {
  return { plies: record.plies, statuses: [], ply: 0, values: [], progress: "", analysis: null,
    analysing: false };
}

export class Review {
  // `ctx`: the client's app, view, show, refresh, ask and logLine, and `record`, the game (the
  // protocol's "save"). What it shows is view.review, drawn by renderReview.
  constructor(ctx) {
    Object.assign(this, ctx);
    this.returnPly = ctx.app.ply;
  }

  // What this review shows (view.review).
  get shown() {
    return this.view.review;
  }
  // The position shown: plies from the record's start.
  get ply() {
    return this.shown ? this.shown.ply : 0;
  }
  // Changes what this review shows by `changes` (and the rest of the view by `viewChanges`),
  // and draws the page.
  update(changes, viewChanges = {}) {
    this.show({ ...viewChanges, review: { ...this.view.review, ...changes } });
  }

  async open() {
    this.show({ review: { ...reviewView(this.record), ply: this.app.ply } });
    this.logLine(`review: ${this.record.plies.length} plies`);
    this.app.busy = true;
    const statuses = [];  // the status before each ply, and after the last
    try {
      for (let p = 0; p <= this.record.plies.length; ++p) {
        const r = await this.ask("replay", { ply: p });
        if (!r) return;
        statuses.push(r.status);
      }
    } finally {
      this.app.busy = false;
    }
    this.update({ statuses });
    await this.goTo(this.shown.ply);
  }

  async close() {
    if (this.shown && this.shown.analysing) await this.app.engine.request("stop").catch(() => {});
    this.show({ review: null, arrows: [] });
  }

  // The decision plies: the ones a side chose (the others are dice).
  decisions() {
    return this.record.plies.map((p, i) => (typeof p === "string" ? i : -1)).filter((i) => i >= 0);
  }

  async step(delta) {
    await this.goTo(Math.min(this.record.plies.length, Math.max(0, this.shown.ply + delta)));
  }

  // Shows the position after `ply` plies, with the ply that led to it marked on the map.
  async goTo(ply) {
    if (this.app.busy) return;
    this.app.busy = true;
    try {
      const r = await this.ask("replay", { ply });
      if (!r) return;
      ply = r.ply;
      this.app.ply = r.ply;
      this.app.plies = r.plies;
      await this.refresh();
    } finally {
      this.app.busy = false;
    }
    const last = ply > 0 ? hexesOf(plyText(this.record.plies[ply - 1])) : null;
    this.update({ ply, analysis: null }, { arrows: last ? [{ ...last, kind: "last" }] : [],
      marks: [], selection: "", buttons: [], preview: null, message: { kind: "info",
        text: `Review: position after ply ${ply} of ${this.record.plies.length}` +
          (ply > 0 ? ` (${plyText(this.record.plies[ply - 1])})` : "") +
          ". ← → step; Back to the game to play on from where you left it." } });
  }

  // Evaluates every decision of the record with the chosen agent (the value of the position the
  // decision was made in, for blue), drawing the graph as it goes.
  async evaluate() {
    if (this.app.busy) return;
    const [agent, ms] = $("review-evaluator").value.split("|");
    const back = this.shown.ply;
    const decisions = this.decisions();
    const values = [];
    this.update({ values });
    this.app.busy = true;
    try {
      for (const [k, p] of decisions.entries()) {
        this.update({ progress: `evaluating decision ${k + 1} of ${decisions.length}…` });
        const r = await this.ask("replay", { ply: p });
        if (!r) return;
        const fields = { agent, top: 1 };
        if (Number(ms) > 0) fields.ms = Number(ms);
        const g = await this.app.engine.request("genmove", fields);
        if (g.ok) values.push([p, r.status.side === "blue" ? g.value : -g.value]);
        this.update({ values: [...values] });
      }
      this.update({ progress: `${values.length} decisions evaluated by ${agent}` +
        (Number(ms) > 0 ? `, ${ms} ms each` : "") });
    } finally {
      this.app.busy = false;
    }
    await this.goTo(back);
  }

  // Searches the position shown, reporting as it goes: the candidates as arrows on the map,
  // the principal variation on hover over a candidate's row.
  async analyse() {
    const s = this.shown.statuses[this.shown.ply];
    if (this.app.busy || !s || s.chance || s.terminal) return;
    this.app.busy = true;
    this.update({ analysing: true });
    const shown = (r) => this.update({ analysis: r }, { arrows: candidateArrows(r) });
    try {
      shown(await this.app.engine.must("analyze", { agent: $("review-analyst").value,
        ms: 5000, period_ms: 250, top: 5 }, shown));
    } catch (error) {
      this.show({ message: { text: error.message, kind: "refused" } });
    } finally {
      this.app.busy = false;
      this.update({ analysing: false });
    }
  }

  // Shows a candidate's line on the map: the candidate, then the principal variation when it is
  // the best; or, with no index, the candidates again.
  showLine(index) {
    const r = this.shown.analysis;
    if (!r) return;
    if (index === null) {
      this.show({ arrows: candidateArrows(r) });
      return;
    }
    const c = r.children[index];
    const steps = index === 0 ? r.pv.filter((s) => s.text).map((s) => s.text) : [c.text];
    this.show({ arrows: steps.map((t, i) => ({ ...hexesOf(t), kind: "pv", text: String(i + 1) }))
      .filter((a) => a.from) });
  }

  onHexClick() {
    this.show({ message: { kind: "info", text: "Review mode shows the game; Back to the game " +
      "(V) to play on." } });
  }
}

// An analysis's candidates as arrows, with their share of the simulations.
function candidateArrows(r) {
  return r.children.map((c, i) => ({ ...hexesOf(c.text), kind: i === 0 ? "candidate best" :
    "candidate", text: `${Math.round((100 * c.visits) / Math.max(1, r.simulations))}%` }))
    .filter((a) => a.from);
}

// What the review panel last drew of the things that are slow to draw again: the record of its
// move list and the analysis of its table.
const drawn = { plies: null, analysis: null };

// Draws the review panel from `shown` (view.review; null: hidden), its controls acting on
// `review` (the open Review). Called by the page's renderer on every change.
export function renderReview(shown, review, info) {
  $("review-panel").hidden = !shown;
  if (!shown) {
    drawn.plies = drawn.analysis = null;
    return;
  }
  $("review-prev").onclick = () => review.step(-1);
  $("review-next").onclick = () => review.step(1);
  $("review-start").onclick = () => review.goTo(0);
  $("review-end").onclick = () => review.goTo(shown.plies.length);
  $("review-evaluate").onclick = () => review.evaluate();
  $("review-analyse").onclick = () => review.analyse();
  $("review-stop").onclick = () => review.app.engine.request("stop").catch(() => {});
  $("review-stop").hidden = !shown.analysing;
  $("review-progress").textContent = shown.progress;
  $("review-position").textContent = `ply ${shown.ply} of ${shown.plies.length}`;
  if (drawn.plies !== shown.plies && shown.statuses.length) {
    drawList($("review-list"), shown, review);
    drawn.plies = shown.plies;
  }
  for (const e of document.querySelectorAll("#review-list .ply")) {
    const current = Number(e.dataset.ply) === shown.ply;
    if (current && !e.classList.contains("current")) e.scrollIntoView({ block: "nearest" });
    e.classList.toggle("current", current);
  }
  drawGraph($("review-graph"), shown, review);
  if (drawn.analysis !== shown.analysis) {
    drawn.analysis = shown.analysis;
    const box = $("review-analysis");
    box.innerHTML = "";
    if (shown.analysis) {
      renderAnalysis(box, shown.analysis, info, false);
      for (const [i, row] of [...box.querySelectorAll("table.candidates tr")].slice(1).entries()) {
        row.onmouseenter = () => review.showLine(i);
        row.onmouseleave = () => review.showLine(null);
      }
    }
  }
}

// The move list: one block per player-turn, each ply a clickable entry (dice in small type).
function drawList(list, shown, review) {
  list.innerHTML = "";
  let block = null;
  let key = "";
  shown.plies.forEach((p, i) => {
    const s = shown.statuses[i];
    const k = `${s.turn}/${s.side}`;
    if (k !== key) {
      key = k;
      block = document.createElement("div");
      block.className = `turn ${s.side}`;
      block.appendChild(Object.assign(document.createElement("span"), {
        className: "turn-name", textContent: `Turn ${s.turn} · ${s.side}` }));
      list.appendChild(block);
    }
    const entry = document.createElement("span");
    entry.className = typeof p === "string" ? "ply decision" : "ply dice";
    entry.dataset.ply = String(i + 1);
    entry.textContent = plyText(p);
    entry.title = `ply ${i + 1}, ${s.phase} phase`;
    entry.onclick = () => review.goTo(i + 1);
    block.appendChild(entry);
  });
}

// The value graph: one point per recorded decision that has been evaluated.
function drawGraph(svg, shown, review) {
  const n = Math.max(1, shown.plies.length);
  const x = (ply) => 4 + (GRAPH_W - 8) * (ply / n);
  const y = (v) => GRAPH_H / 2 - (GRAPH_H / 2 - 6) * v;
  svg.setAttribute("viewBox", `0 0 ${GRAPH_W} ${GRAPH_H}`);
  const points = [...shown.values].sort((a, b) => a[0] - b[0]);
  let html = `<line class="axis" x1="0" x2="${GRAPH_W}" y1="${y(0)}" y2="${y(0)}"/>` +
    `<line class="now" x1="${x(shown.ply)}" x2="${x(shown.ply)}" y1="0" y2="${GRAPH_H}"/>`;
  if (points.length) {
    html += `<polyline class="values" points="${points.map(([p, v]) => `${x(p)},${y(v)}`).join(" ")}"/>`;
  }
  for (const [p, v] of points) {
    html += `<circle class="point" data-ply="${p}" data-value="${v.toFixed(3)}" cx="${x(p)}" ` +
      `cy="${y(v)}" r="3"><title>ply ${p + 1}: ${plyText(shown.plies[p])}, ` +
      `value for blue ${v.toFixed(2)}</title></circle>`;
  }
  svg.innerHTML = html;
  for (const c of svg.querySelectorAll("circle.point")) {
    c.onclick = () => review.goTo(Number(c.dataset.ply));  // the position the decision was made in
  }
}
