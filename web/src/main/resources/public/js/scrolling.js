// Keeping what was just run in view. The composer is fixed over the page's bottom: its height is the
// page's scroll-padding-bottom (so scrollIntoView stops above it) and the --composer-height the page
// pads its end with, so the last turn can always scroll clear of it.

/** Follows `composer`'s height while it is fixed at the bottom (the embed widget's is not). */
export function reserve(composer) {
  const measure = () => {
    const fixed = window.getComputedStyle(composer).position === 'fixed';
    const height = fixed ? Math.ceil(composer.getBoundingClientRect().height) : 0;
    const root = document.documentElement;
    root.style.setProperty('--composer-height', height + 'px');
    root.style.scrollPaddingBottom = fixed ? (height + 8) + 'px' : '';
    const header = document.querySelector('.topbar');
    root.style.scrollPaddingTop = header ? Math.ceil(header.getBoundingClientRect().height) + 'px' : '';
  };
  measure();
  if (window.ResizeObserver) new ResizeObserver(measure).observe(composer);
  window.addEventListener('resize', measure);
}

/** Whether the page is scrolled to (within a few lines of) its end. */
export function atEnd() {
  const root = document.documentElement;
  return window.innerHeight + window.scrollY >= root.scrollHeight - 48;
}

/** Scrolls to the page's end (what streams last is there, just above the composer). */
export function toEnd() {
  window.scrollTo(0, document.documentElement.scrollHeight);
}

/** Scrolls so `element`'s end is just above the composer, its top staying in view where it fits. */
export function reveal(element) {
  element.scrollIntoView({ block: 'end' });
  const header = document.querySelector('.topbar');
  const top = header ? header.getBoundingClientRect().bottom : 0;
  const box = element.getBoundingClientRect();
  if (box.top < top) window.scrollBy(0, box.top - top - 4);
}

/** Calls `callback` on every scroll of the page (passive). */
export function onScroll(callback) {
  window.addEventListener('scroll', () => callback(), { passive: true });
}
