// @ts-check
// The page is drawn anew after every change, so the focus would fall back to the page's body each time. The
// element focused before a redraw is focused again, found by its `data-key`; when it is gone or disabled (the
// button of the move just sent, a card just played), the focus stays in the action panel, where the next move
// is, rather than drop to the top of the page. The key A (for "actions") brings the focus to the panel's first
// move from anywhere on the table but a text field, so a move does not mean tabbing through the whole hand.

const PANEL = '.actions';
/** The panel's first move that can be made now (the primary one first), else the panel itself. @param {ParentNode} el */
const panelTarget = (el) =>
  /** @type {HTMLElement | null} */ (
    el.querySelector(`${PANEL} button.primary:not(:disabled)`) ??
      el.querySelector(`${PANEL} button:not(:disabled)`) ??
      el.querySelector(PANEL)
  );

/**
 * Keeps the focus across the redraws of `el`: `before()` notes where it is, `after()` puts it back.
 * @param {HTMLElement} el
 */
export function focusKeeper(el) {
  /** @type {{key: string | null, panel: boolean} | null} where the focus was, when it was in the page */
  let kept = null;
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.key !== 'a' && e.key !== 'A') return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target?.closest('input, textarea, select, [contenteditable]')) return;
    const to = panelTarget(el);
    if (!to) return;
    e.preventDefault();
    to.focus();
  };
  // A pointer chooses its own place: what the pointer lands on is noted at the next redraw, if it takes the focus.
  const onPointer = () => {
    kept = null;
  };
  document.addEventListener('keydown', onKey);
  document.addEventListener('pointerdown', onPointer);
  return {
    before() {
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      if (active && active !== document.body && el.contains(active)) {
        kept = { key: active.dataset.key ?? null, panel: active.closest(PANEL) != null };
      } else if (active && active !== document.body) {
        kept = null; // the reader is elsewhere (the top bar): leave them there
      }
      // On the body: the focus fell there with a redraw (a button disabled while its move is on its way); the
      // last place noted still holds.
    },
    after() {
      if (!kept) return;
      const again = kept.key
        ? /** @type {HTMLButtonElement | null} */ (el.querySelector(`[data-key="${kept.key}"]`))
        : null;
      if (again && !again.disabled) {
        again.focus({ preventScroll: true });
        return;
      }
      if (!kept.panel && kept.key == null) return;
      const section = /** @type {HTMLElement | null} */ (el.querySelector(PANEL));
      if (!section) return;
      section.tabIndex = -1;
      section.focus({ preventScroll: true });
      kept = { key: null, panel: true };
    },
    stop() {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    },
  };
}
