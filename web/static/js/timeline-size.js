// How large the timeline's picture is drawn: large enough that its smallest text reads at
// 12.5 px or more, larger while the whole picture still fits the window's height, never
// wider than its column. The scale only grows while stepping (a moment with smaller text
// than those before it enlarges the picture; later ones do not shrink it back), so the
// picture does not jump in size from one record to the next.

const SMALLEST_TEXT = 12.5; // px on screen for the smallest text of the picture
const MOST_SCALE = 1.6; // a picture that fits anyway is not blown up beyond this
const PHONE = 700;
const BESIDE = 330; // px kept beside the picture for what changed, when the picture can spare it // px: below this the picture fits the screen unless enlarged

let needed = 1; // the largest scale any shown moment needed so far

function smallestText(svg) {
  let smallest = Infinity;
  for (const text of svg.querySelectorAll("text")) {
    if (!text.textContent.trim()) continue;
    const size = Number.parseFloat(text.getAttribute("font-size"));
    if (size > 0) smallest = Math.min(smallest, size);
  }
  return Number.isFinite(smallest) ? smallest : SMALLEST_TEXT;
}

/** The picture's width in px for ``room`` px of column, from its drawing's own size. */
export function pictureWidth(svg, room, windowHeight, above) {
  const box = svg.viewBox && svg.viewBox.baseVal;
  const width = box && box.width ? box.width : Number(svg.getAttribute("width")) || room;
  const height = box && box.height ? box.height : Number(svg.getAttribute("height")) || width;
  needed = Math.max(needed, SMALLEST_TEXT / smallestText(svg));
  const legible = width * needed;
  let larger = Math.min((width * Math.max(windowHeight - above, 200)) / height, width * MOST_SCALE);
  // Leave room for what changed beside the picture, unless the picture needs it.
  if (room - BESIDE >= legible) larger = Math.min(larger, room - BESIDE);
  return Math.floor(Math.min(room, Math.max(Math.ceil(legible), larger)));
}

/**
 * Size the picture of ``figure`` (figure.picture > svg) for its column; ``zoomed`` on a
 * phone draws it at its legible size inside its own sideways scroll box.
 */
export function sizePicture(figure, { zoomed = false } = {}) {
  const svg = figure && figure.querySelector("svg");
  if (!svg) return;
  const body = figure.parentElement;
  const room = body ? body.clientWidth : figure.clientWidth;
  const toolbar = document.getElementById("stepper");
  const above = (toolbar ? toolbar.offsetHeight : 0) + 24;
  const phone = window.innerWidth < PHONE;
  let width = pictureWidth(svg, room, window.innerHeight, above);
  if (phone && zoomed) {
    const box = svg.viewBox.baseVal;
    width = Math.ceil((box.width || room) * needed);
  }
  figure.classList.toggle("zoomed", phone && zoomed);
  svg.style.width = `${width}px`;
  svg.style.height = "auto";
}
