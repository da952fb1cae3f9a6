// Zoom and pan of the map: the SVG's viewBox is the window onto the map. The whole map fits the
// space by default; the wheel zooms around the pointer, a drag pans, and zoomBy / panBy serve
// the buttons and keys. Hexes keep their own click handlers: the browser maps a click through
// the viewBox, so hit-testing stays exact at every zoom.

const MIN_SCALE = 1;  // the whole map
const MAX_SCALE = 8;
const DRAG_PIXELS = 4;  // a press that moves less is a click, not a pan

export class Zoom {
  // `svg`: the map's element; `width`, `height`: the map's size in SVG units.
  constructor(svg, width, height) {
    this.svg = svg;
    this.full = { x: 0, y: 0, w: width, h: height };
    this.box = { ...this.full };
    this.onChange = () => {};
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const [x, y] = this.toMap(event.clientX, event.clientY);
      this.zoomBy(event.deltaY < 0 ? 1.25 : 0.8, x, y);
    }, { passive: false });
    svg.addEventListener("pointerdown", (event) => this.pressed(event));
  }

  // The scale: 1 shows the whole map.
  get scale() {
    return this.full.w / this.box.w;
  }

  // The map point under a point of the window.
  toMap(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const k = Math.max(this.box.w / r.width, this.box.h / r.height);  // "meet" scaling
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    return [this.box.x + this.box.w / 2 + (clientX - cx) * k,
      this.box.y + this.box.h / 2 + (clientY - cy) * k];
  }

  // Zooms by `factor` keeping the map point (x, y) in place (the centre by default).
  zoomBy(factor, x = null, y = null) {
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.scale * factor));
    const w = this.full.w / scale, h = this.full.h / scale;
    const px = x === null ? this.box.x + this.box.w / 2 : x;
    const py = y === null ? this.box.y + this.box.h / 2 : y;
    const fx = (px - this.box.x) / this.box.w, fy = (py - this.box.y) / this.box.h;
    this.set({ x: px - fx * w, y: py - fy * h, w, h });
  }

  // Pans by a fraction of the visible width and height.
  panBy(dx, dy) {
    this.set({ ...this.box, x: this.box.x + dx * this.box.w, y: this.box.y + dy * this.box.h });
  }

  // Shows the whole map.
  fit() {
    this.set({ ...this.full });
  }

  // Centres the view on a map point, keeping the scale.
  centreOn(x, y) {
    this.set({ ...this.box, x: x - this.box.w / 2, y: y - this.box.h / 2 });
  }

  set(box) {
    const x = Math.min(Math.max(box.x, this.full.x), this.full.w - box.w);
    const y = Math.min(Math.max(box.y, this.full.y), this.full.h - box.h);
    this.box = { x, y, w: box.w, h: box.h };
    this.svg.setAttribute("viewBox", `${x} ${y} ${box.w} ${box.h}`);
    this.svg.dataset.scale = this.scale.toFixed(2);
    this.onChange();
  }

  // A drag pans; a press that hardly moves stays a click for the hex under it.
  pressed(event) {
    if (event.button !== 0 || this.scale <= MIN_SCALE) return;
    const start = { x: event.clientX, y: event.clientY, box: { ...this.box } };
    let dragging = false;
    const move = (e) => {
      const dx = e.clientX - start.x, dy = e.clientY - start.y;
      if (!dragging && Math.hypot(dx, dy) < DRAG_PIXELS) return;
      dragging = true;
      const r = this.svg.getBoundingClientRect();
      const k = Math.max(this.box.w / r.width, this.box.h / r.height);
      this.set({ ...start.box, x: start.box.x - dx * k, y: start.box.y - dy * k });
    };
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      if (dragging) {  // the click that ends a drag selects nothing
        window.addEventListener("click", (e) => e.stopPropagation(), { capture: true, once: true });
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  }
}
