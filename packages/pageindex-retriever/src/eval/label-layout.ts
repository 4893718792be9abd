/** An axis-aligned rectangle: top-left corner and size. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A point to label: a circle and the size of its label. */
export interface LabelRequest {
  cx: number;
  cy: number;
  r: number;
  width: number;
  height: number;
}

/** Area two boxes share (0 when apart or only touching). */
export function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

const GAP = 4;

/** Label positions around a point, nearest first: beside, then above and below, then further out. */
function candidates(p: LabelRequest): Box[] {
  const { cx, cy, r, width, height } = p;
  const right = cx + r + GAP;
  const left = cx - r - GAP - width;
  const centre = cx - width / 2;
  const middle = cy - height / 2;
  const above = cy - r - GAP - height;
  const below = cy + r + GAP;
  const near: Array<[number, number]> = [
    [right, middle],
    [left, middle],
    [right, above],
    [right, below],
    [left, above],
    [left, below],
    [centre, above],
    [centre, below],
  ];
  const out = near.map(([x, y]) => ({ x, y, width, height }));
  // Further out: beside the point, a label height up or down at a time.
  for (let step = 1; step <= 6; step += 1) {
    for (const x of [right, left]) {
      for (const dy of [-step, step]) out.push({ x, y: middle + dy * (height + GAP), width, height });
    }
  }
  return out;
}

const inside = (box: Box, frame: Box) =>
  box.x >= frame.x &&
  box.y >= frame.y &&
  box.x + box.width <= frame.x + frame.width &&
  box.y + box.height <= frame.y + frame.height;

const clampInto = (box: Box, frame: Box): Box => ({
  ...box,
  x: Math.min(Math.max(box.x, frame.x), frame.x + frame.width - box.width),
  y: Math.min(Math.max(box.y, frame.y), frame.y + frame.height - box.height),
});

/**
 * Places one label per point inside `frame`, greedily in the given order: the first candidate
 * position that overlaps no point and no label already placed; when every candidate collides
 * (a crowded chart), the one with the least overlap.
 */
export function placeLabels(points: readonly LabelRequest[], frame: Box): Box[] {
  const dots: Box[] = points.map((p) => ({ x: p.cx - p.r, y: p.cy - p.r, width: 2 * p.r, height: 2 * p.r }));
  const placed: Box[] = [];
  for (const point of points) {
    let best: Box | undefined;
    let bestCost = Number.POSITIVE_INFINITY;
    for (const raw of candidates(point)) {
      const box = inside(raw, frame) ? raw : clampInto(raw, frame);
      const cost = [...dots, ...placed].reduce((sum, other) => sum + overlapArea(box, other), 0);
      // An unclamped spot costs nothing extra; a clamped one may sit farther from its point.
      const total = cost + (box === raw ? 0 : 0.5);
      if (total < bestCost) {
        best = box;
        bestCost = total;
      }
      if (total === 0) break;
    }
    placed.push(best as Box);
  }
  return placed;
}
