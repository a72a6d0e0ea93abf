/**
 * Where the open toast goes: the first of a few places on the screen where it covers no control the
 * viewer could be about to use (a Save button, the chat's message box, a dialog's buttons) nor, where
 * one is free of both, the page's heading; or, when
 * every place covers one, where it covers the least. Measured on the page as it is, so it holds for
 * any page and any scroll position without each page saying where its controls are.
 */

/** A toast's box on the screen. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The viewport's offsets: the region is fixed at these, left or right and top or bottom. */
export interface ToastPlace {
  name: string;
  style: { top?: number; bottom?: number; left?: number; right?: number };
}

/** The gap between the toast and the screen's edge (the region's padding). */
const EDGE = 16;
/** The toast area's maximum width, padding included. */
export const TOAST_AREA_MAX_WIDTH = 420;
/** From this width the toast can sit in a corner; below it, it spans the screen. */
const WIDE_FROM = 640;

const CONTROLS = [
  "a[href]",
  "button",
  "input:not([type=hidden])",
  "select",
  "textarea",
  "iframe",
  "video[controls]",
  "summary",
  "[contenteditable=true]",
  '[role="button"]',
  '[role="link"]',
  '[role="checkbox"]',
  '[role="radio"]',
  '[role="switch"]',
  '[role="slider"]',
  '[role="tab"]',
  '[role="menuitem"]',
  '[tabindex]:not([tabindex="-1"])',
  "label:has(> input)",
  // What a page marks as not to be hidden even for a moment (the access code just bought).
  "[data-toast-avoid]",
  // The page's heading: on a phone the toast's first place is right under the top bar, where it is.
  "h1",
].join(",");

function overlap(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/** The bottom of the bar along the top of the screen (the site's or the stream's header, with its links), or 0. */
function topBarBottom(): number {
  let bottom = 0;
  for (const header of document.querySelectorAll("header")) {
    const rect = header.getBoundingClientRect();
    if (Math.abs(rect.top) <= 1 && rect.height > 0 && rect.bottom < window.innerHeight / 3) bottom = Math.max(bottom, rect.bottom);
  }
  return bottom;
}

/** The places to try, best first, with the toast's box at each for a toast `height` tall. */
export function candidatePlaces(height: number): { place: ToastPlace; box: Box }[] {
  const screenWidth = window.innerWidth;
  const screenHeight = window.innerHeight;
  const areaWidth = Math.min(TOAST_AREA_MAX_WIDTH, screenWidth);
  const width = areaWidth - 2 * EDGE;
  const underHeader = Math.round(topBarBottom());
  const tops = underHeader > 0 ? [0, underHeader] : [0];
  const rows = [
    { name: "bottom", style: { bottom: 0 }, y: screenHeight - EDGE - height },
    ...tops.map((top) => ({ name: top ? "under-header" : "top", style: { top }, y: top + EDGE })),
  ];
  const columns =
    screenWidth >= WIDE_FROM
      ? [
          { name: "right", style: { right: 0 }, x: screenWidth - areaWidth + EDGE },
          { name: "left", style: { left: 0 }, x: EDGE },
          { name: "center", style: { left: Math.round((screenWidth - areaWidth) / 2) }, x: Math.round((screenWidth - areaWidth) / 2) + EDGE },
        ]
      : [{ name: "full", style: { left: 0 }, x: EDGE }];
  // On a phone the top comes first (where the site's toasts have always been); on a wide screen, the corner.
  const ordered = screenWidth >= WIDE_FROM ? rows : [...rows.slice(1), rows[0]!];
  const places: { place: ToastPlace; box: Box }[] = [];
  for (const column of columns) {
    for (const row of ordered) {
      places.push({ place: { name: `${row.name}-${column.name}`, style: { ...row.style, ...column.style } }, box: { x: column.x, y: row.y, width, height } });
    }
  }
  return places;
}

/** Whether `element` is what the viewer sees (and would press) at its centre, not hidden under something else. */
function isOnTop(element: Element, rect: DOMRect, toastArea: Element): boolean {
  const x = Math.min(Math.max(rect.left + rect.width / 2, 0), window.innerWidth - 1);
  const y = Math.min(Math.max(rect.top + rect.height / 2, 0), window.innerHeight - 1);
  for (const hit of document.elementsFromPoint(x, y)) {
    if (toastArea.contains(hit)) continue;
    return element === hit || element.contains(hit) || (hit instanceof HTMLInputElement && hit.labels !== null && [...hit.labels].includes(element as HTMLLabelElement));
  }
  return false;
}

/** What covering the page's heading costs beside a control (1; the one in use, 20), per pixel covered. */
const HEADING_WEIGHT = 0.05;

/** Where an element is seen: a heading's own text, not its block's whole width (a centred title leaves the sides free). */
function boxOf(element: Element): DOMRect {
  if (element.tagName !== "H1") return element.getBoundingClientRect();
  const text = document.createRange();
  text.selectNodeContents(element);
  return text.getBoundingClientRect();
}

/** A control on the screen; `weight` is higher for the one in use (the Save button just pressed). */
interface Control {
  box: Box;
  weight: number;
}

/** The controls on the screen that a box in `within` could cover. */
function visibleControls(toastArea: Element, within: Box[]): Control[] {
  const controls: Control[] = [];
  const active = document.activeElement;
  for (const element of document.querySelectorAll(CONTROLS)) {
    if (toastArea.contains(element)) continue;
    const rect = boxOf(element);
    if (rect.width < 1 || rect.height < 1) continue;
    const box = { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
    if (!within.some((area) => overlap(area, box) > 0)) continue;
    if (!isOnTop(element, rect, toastArea)) continue;
    // The heading is kept clear where a place allows, but never at the price of covering a control.
    const weight = element.tagName === "H1" ? HEADING_WEIGHT : active && element.contains(active) ? 20 : 1;
    controls.push({ box, weight });
  }
  return controls;
}

/**
 * The place for a toast `height` tall: the first that covers no control, else the one covering the least
 * (and least of all the control in use).
 * `current` is kept while it covers nothing, so an open toast does not hop about as the page changes.
 */
export function chooseToastPlace(toastArea: Element, height: number, current: string | null): ToastPlace {
  const candidates = candidatePlaces(height);
  const controls = visibleControls(
    toastArea,
    candidates.map((c) => c.box),
  );
  const covered = candidates.map(({ place, box }) => ({ place, cost: controls.reduce((sum, control) => sum + control.weight * overlap(box, control.box), 0) }));
  const kept = covered.find((c) => c.place.name === current && c.cost === 0);
  if (kept) return kept.place;
  let best = covered[0]!;
  for (const c of covered) if (c.cost < best.cost) best = c;
  return best.place;
}
