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

export class Review {
  // `ctx`: the client's app, view, show, render, refresh, ask and logLine, and `record`, the
  // game (the protocol's "save").
  constructor(ctx) {
    Object.assign(this, ctx);
    this.returnPly = ctx.app.ply;
    this.ply = ctx.app.ply;
    this.statuses = [];  // the status before each ply, and after the last
    this.values = new Map();  // ply -> value for blue of the position before it (decisions only)
    this.analysis = null;  // the analysis shown: its last report
  }

  async open() {
    $("review-panel").hidden = false;
    $("review-prev").onclick = () => this.step(-1);
    $("review-next").onclick = () => this.step(1);
    $("review-start").onclick = () => this.goTo(0);
    $("review-end").onclick = () => this.goTo(this.record.plies.length);
    $("review-evaluate").onclick = () => this.evaluate();
    $("review-analyse").onclick = () => this.analyse();
    $("review-stop").onclick = () => this.app.engine.request("stop").catch(() => {});
    this.logLine(`review: ${this.record.plies.length} plies`);
    this.app.busy = true;
    try {
      for (let p = 0; p <= this.record.plies.length; ++p) {
        const r = await this.ask("replay", { ply: p });
        if (!r) return;
        this.statuses.push(r.status);
      }
    } finally {
      this.app.busy = false;
    }
    this.drawList();
    this.drawGraph();
    await this.goTo(this.ply);
  }

  async close() {
    if (this.analysing) await this.app.engine.request("stop").catch(() => {});
    $("review-panel").hidden = true;
    this.show({ arrows: [] });
  }

  // The decision plies: the ones a side chose (the others are dice).
  decisions() {
    return this.record.plies.map((p, i) => (typeof p === "string" ? i : -1)).filter((i) => i >= 0);
  }

  async step(delta) {
    await this.goTo(Math.min(this.record.plies.length, Math.max(0, this.ply + delta)));
  }

  // Shows the position after `ply` plies, with the ply that led to it marked on the map.
  async goTo(ply) {
    if (this.app.busy) return;
    this.app.busy = true;
    try {
      const r = await this.ask("replay", { ply });
      if (!r) return;
      this.ply = r.ply;
      this.app.ply = r.ply;
      this.app.plies = r.plies;
      await this.refresh();
    } finally {
      this.app.busy = false;
    }
    const last = ply > 0 ? hexesOf(plyText(this.record.plies[ply - 1])) : null;
    this.analysis = null;
    this.show({ arrows: last ? [{ ...last, kind: "last" }] : [], marks: [], selection: "",
      buttons: [], preview: null, message: { kind: "info", text: `Review: position after ply ` +
        `${ply} of ${this.record.plies.length}` + (ply > 0 ? ` (${plyText(this.record.plies[ply - 1])})` : "") +
        ". ← → step; Back to the game to play on from where you left it." } });
    for (const e of document.querySelectorAll("#review-list .ply")) {
      e.classList.toggle("current", Number(e.dataset.ply) === ply);
    }
    const current = document.querySelector("#review-list .ply.current");
    if (current) current.scrollIntoView({ block: "nearest" });
    $("review-position").textContent = `ply ${ply} of ${this.record.plies.length}`;
    this.drawGraph();
    $("review-analysis").innerHTML = "";
  }

  // The move list: one block per player-turn, each ply a clickable entry (dice in small type).
  drawList() {
    const list = $("review-list");
    list.innerHTML = "";
    let block = null;
    let key = "";
    this.record.plies.forEach((p, i) => {
      const s = this.statuses[i];
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
      entry.onclick = () => this.goTo(i + 1);
      block.appendChild(entry);
    });
  }

  // The value graph: one point per recorded decision that has been evaluated.
  drawGraph() {
    const svg = $("review-graph");
    const n = Math.max(1, this.record.plies.length);
    const x = (ply) => 4 + (GRAPH_W - 8) * (ply / n);
    const y = (v) => GRAPH_H / 2 - (GRAPH_H / 2 - 6) * v;
    svg.setAttribute("viewBox", `0 0 ${GRAPH_W} ${GRAPH_H}`);
    const points = [...this.values.entries()].sort((a, b) => a[0] - b[0]);
    let html = `<line class="axis" x1="0" x2="${GRAPH_W}" y1="${y(0)}" y2="${y(0)}"/>` +
      `<line class="now" x1="${x(this.ply)}" x2="${x(this.ply)}" y1="0" y2="${GRAPH_H}"/>`;
    if (points.length) {
      html += `<polyline class="values" points="${points.map(([p, v]) => `${x(p)},${y(v)}`).join(" ")}"/>`;
    }
    for (const [p, v] of points) {
      html += `<circle class="point" data-ply="${p}" data-value="${v.toFixed(3)}" cx="${x(p)}" ` +
        `cy="${y(v)}" r="3"><title>ply ${p + 1}: ${plyText(this.record.plies[p])}, ` +
        `value for blue ${v.toFixed(2)}</title></circle>`;
    }
    svg.innerHTML = html;
    for (const c of svg.querySelectorAll("circle.point")) {
      c.onclick = () => this.goTo(Number(c.dataset.ply));  // the position the decision was made in
    }
  }

  // Evaluates every decision of the record with the chosen agent (the value of the position the
  // decision was made in, for blue), drawing the graph as it goes.
  async evaluate() {
    if (this.app.busy) return;
    const [agent, ms] = $("review-evaluator").value.split("|");
    const back = this.ply;
    const decisions = this.decisions();
    this.values.clear();
    this.app.busy = true;
    try {
      for (const [k, p] of decisions.entries()) {
        $("review-progress").textContent = `evaluating decision ${k + 1} of ${decisions.length}…`;
        const r = await this.ask("replay", { ply: p });
        if (!r) return;
        const fields = { agent, top: 1 };
        if (Number(ms) > 0) fields.ms = Number(ms);
        const g = await this.app.engine.request("genmove", fields);
        if (g.ok) this.values.set(p, r.status.side === "blue" ? g.value : -g.value);
        this.drawGraph();
      }
      $("review-progress").textContent = `${this.values.size} decisions evaluated by ${agent}` +
        (Number(ms) > 0 ? `, ${ms} ms each` : "");
    } finally {
      this.app.busy = false;
    }
    await this.goTo(back);
  }

  // Searches the position shown, reporting as it goes: the candidates as arrows on the map,
  // the principal variation on hover over a candidate's row.
  async analyse() {
    if (this.app.busy || this.statuses[this.ply].chance || this.statuses[this.ply].terminal) return;
    this.app.busy = true;
    this.analysing = true;
    $("review-stop").hidden = false;
    const shown = (r) => {
      this.analysis = r;
      renderAnalysis($("review-analysis"), r, this.app.info, false);
      this.show({ arrows: r.children.map((c, i) => ({ ...hexesOf(c.text), kind: i === 0 ?
        "candidate best" : "candidate", text: `${Math.round((100 * c.visits) / Math.max(1,
        r.simulations))}%` })).filter((a) => a.from) });
      for (const [i, row] of [...$("review-analysis").querySelectorAll("table.candidates tr")]
        .slice(1).entries()) {
        row.onmouseenter = () => this.showLine(r, i);
        row.onmouseleave = () => shown(r);
      }
    };
    try {
      const r = await this.app.engine.must("analyze", { agent: $("review-analyst").value,
        ms: 5000, period_ms: 250, top: 5 }, shown);
      shown(r);
    } catch (error) {
      this.show({ message: { text: error.message, kind: "refused" } });
    } finally {
      this.analysing = false;
      this.app.busy = false;
      $("review-stop").hidden = true;
      this.render();
    }
  }

  // A candidate's line: the candidate, then the principal variation when it is the best.
  showLine(r, index) {
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
