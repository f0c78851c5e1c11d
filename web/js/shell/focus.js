// @ts-check
// The page is drawn anew after every change, so the focus would fall back to the page's body each time:
// the element focused before the redraw is found again by its `data-key` and focused.

/** Notes what has the focus in `el`; the function returned focuses it again after a redraw. @param {HTMLElement} el */
export function keepFocus(el) {
  const key = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.key;
  return () => {
    if (key) /** @type {HTMLElement | null} */ (el.querySelector(`[data-key="${key}"]`))?.focus();
  };
}
