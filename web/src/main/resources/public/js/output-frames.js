// The app's side of the sandboxed frames (/frame.html) that show HTML outputs: the HTML goes in
// (or a Plotly figure's JSON) once the frame has loaded, with the page's theme (light or dark, so the
// frame's colour scheme is the page's), and only numbers (their heights) come back.
import { current } from './theme.js';

/** Sends `html` to the frame each time it loads. */
export function sendWhenLoaded(frame, html) {
  frame.addEventListener('load', () => frame.contentWindow.postMessage({ html, theme: current() }, '*'));
}

/** Sends a Plotly figure (`figureJson`, its JSON text) to the frame each time it loads. */
export function sendPlotWhenLoaded(frame, figureJson) {
  frame.addEventListener('load', () => frame.contentWindow.postMessage({ plotly: figureJson, theme: current() }, '*'));
}

/** Calls `callback(sourceWindow, height)` for every height report; anything but a finite number is ignored. */
export function onFrameHeight(callback) {
  window.addEventListener('message', (e) => {
    if (e.data && typeof e.data.frameHeight === 'number' && Number.isFinite(e.data.frameHeight)) {
      callback(e.source, e.data.frameHeight);
    }
  });
}
