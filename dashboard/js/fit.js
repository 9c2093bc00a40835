// Text that must never be cut (a player's name, the header, a chip): it is made smaller until it fits its box on
// one line; where that would take it below WRAP_AT of its size and it may take up to `lines` lines, it takes them,
// at the largest size that fits them (a long name on two lines reads better from afar than on one tiny line).
// Only below the smallest size allowed would an ellipsis cut it. Marked in the DOM with `data-fit`:
//   <div class="name" data-fit="0.45,2">  (the smallest size as a fraction of the CSS size, the lines allowed)
// `fitAll(root)` fits every marked element under `root`; results are remembered by text and width, so a render
// that shows the same name again costs one lookup. Pages call it after each render and on resize.

const WRAP_AT = 0.75;
const memo = new Map(); // `${class}|${text}|${width}|${base}` -> [font size px, lines]

function parse(el) {
  const [min = "0.5", lines = "1"] = (el.dataset.fit || "").split(",");
  return { min: Number(min), lines: Number(lines) };
}

// A glyph's box is taller than a tight line (line-height under 1.2): that much below the last line is no overflow.
const GLYPH_SLACK = 0.2;

function overflows(el, lines, size) {
  if (el.scrollWidth > el.clientWidth + 1) return true;
  if (lines === 1) return false; // nowrap: a longer text only gets wider
  const lh = parseFloat(getComputedStyle(el).lineHeight) || size * 1.15;
  return el.scrollHeight > lh * lines + Math.max(1, GLYPH_SLACK * size);
}

/** The largest size in [lo, hi] px at which `el` fits (lo if none does): a binary search to half a pixel. */
function largest(el, lo, hi, lines) {
  el.style.fontSize = `${hi}px`;
  if (!overflows(el, lines, hi)) return hi;
  while (hi - lo > 0.5) {
    const mid = (lo + hi) / 2;
    el.style.fontSize = `${mid}px`;
    if (overflows(el, lines, mid)) hi = mid; else lo = mid;
  }
  el.style.fontSize = `${lo}px`;
  return lo;
}

/** Fit one element (see the top of this file). */
export function fit(el) {
  if (!el.isConnected || !el.getClientRects().length) return;
  el.style.fontSize = "";
  el.classList.remove("fit-wrap");
  const base = parseFloat(getComputedStyle(el).fontSize);
  const { min, lines } = parse(el);
  const key = `${el.className}|${el.textContent}|${el.clientWidth}|${base}|${lines}`;
  const known = memo.get(key);
  if (known) {
    el.style.fontSize = `${known[0]}px`;
    if (known[1] > 1) el.classList.add("fit-wrap");
    return;
  }
  let size = largest(el, base * min, base, 1);
  let used = 1;
  const cut = overflows(el, 1, size); // not even at the smallest size
  if (lines > 1 && (size < base * WRAP_AT || cut)) {
    el.classList.add("fit-wrap"); // white-space: normal; the line height stays the element's
    const wrapped = largest(el, base * min, base, lines);
    if (wrapped > size * 1.05 || cut) {
      size = wrapped;
      used = lines;
    } else {
      el.classList.remove("fit-wrap"); // two lines would not be larger: one line it is
    }
    el.style.fontSize = `${size}px`;
  }
  if (memo.size > 500) memo.clear();
  memo.set(key, [size, used]);
}

/** Fit every `[data-fit]` element under `root` (the document by default). */
export function fitAll(root = document) {
  for (const el of root.querySelectorAll("[data-fit]")) fit(el);
}

/** Fit again when the window changes size (a new width: new sizes), and each time a font has loaded (a text
 * measured in the fallback font is measured again: what was remembered is forgotten). */
export function fitOnResize(refit) {
  let timer = null;
  const again = () => { clearTimeout(timer); timer = setTimeout(() => { memo.clear(); refit(); }, 30); };
  addEventListener("resize", again);
  if (document.fonts) {
    document.fonts.addEventListener("loadingdone", again);
    document.fonts.ready.then(again);
  }
}
