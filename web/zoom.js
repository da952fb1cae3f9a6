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
    this.full = { w: width, h: height };
    this.scale = 1;
    this.centre = { x: width / 2, y: height / 2 };  // the map point at the view's centre
    this.onChange = () => {};
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const [x, y] = this.toMap(event.clientX, event.clientY);
      this.zoomBy(event.deltaY < 0 ? 1.25 : 0.8, x, y);
    }, { passive: false });
    svg.addEventListener("pointerdown", (event) => this.pressed(event));
  }

  // The view in map units: the element's shape, the whole map at scale 1, centred on `centre`,
  // which stays on the map.
  get box() {
    const r = this.svg.getBoundingClientRect();
    const aspect = r.width > 0 && r.height > 0 ? r.width / r.height : this.full.w / this.full.h;
    const fitW = Math.max(this.full.w, this.full.h * aspect);
    const w = fitW / this.scale, h = w / aspect;
    const cx = Math.min(Math.max(this.centre.x, 0), this.full.w);
    const cy = Math.min(Math.max(this.centre.y, 0), this.full.h);
    return { x: cx - w / 2, y: cy - h / 2, w, h };
  }

  // The map point under a point of the window.
  toMap(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const b = this.box;
    return [b.x + ((clientX - r.left) / r.width) * b.w, b.y + ((clientY - r.top) / r.height) * b.h];
  }

  // Zooms by `factor` keeping the map point (x, y) where it is on the screen (the centre by
  // default).
  zoomBy(factor, x = null, y = null) {
    const before = this.box;
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.scale * factor));
    const px = x === null ? before.x + before.w / 2 : x;
    const py = y === null ? before.y + before.h / 2 : y;
    const fx = (px - before.x) / before.w, fy = (py - before.y) / before.h;
    const k = this.scale / scale;  // the new view's size over the old's
    this.scale = scale;
    this.centre = scale === MIN_SCALE ? { x: this.full.w / 2, y: this.full.h / 2 }
      : { x: px + (0.5 - fx) * before.w * k, y: py + (0.5 - fy) * before.h * k };
    this.apply();
  }

  // Pans by a fraction of the visible width and height.
  panBy(dx, dy) {
    const b = this.box;
    this.centre = { x: b.x + b.w / 2 + dx * b.w, y: b.y + b.h / 2 + dy * b.h };
    this.apply();
  }

  // Shows the whole map.
  fit() {
    this.scale = 1;
    this.centre = { x: this.full.w / 2, y: this.full.h / 2 };
    this.apply();
  }

  // Draws the view (after a zoom, a pan, or a change of the element's size).
  apply() {
    const b = this.box;
    this.centre = { x: b.x + b.w / 2, y: b.y + b.h / 2 };  // kept on the map
    this.svg.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
    this.svg.dataset.scale = this.scale.toFixed(2);
    this.onChange();
  }

  // A drag pans; a press that hardly moves stays a click for the hex under it.
  pressed(event) {
    if (event.button !== 0 || this.scale <= MIN_SCALE) return;
    const start = { x: event.clientX, y: event.clientY, centre: { ...this.centre } };
    let dragging = false;
    const move = (e) => {
      const dx = e.clientX - start.x, dy = e.clientY - start.y;
      if (!dragging && Math.hypot(dx, dy) < DRAG_PIXELS) return;
      dragging = true;
      const k = this.box.w / this.svg.getBoundingClientRect().width;
      this.centre = { x: start.centre.x - dx * k, y: start.centre.y - dy * k };
      this.apply();
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
