// This browser's localStorage, where the app keeps its mode, session tokens and API key. Storage
// can be switched off or full: reads then find nothing and writes are dropped, never thrown.

export function get(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function set(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // full or switched off: the value is just not remembered
  }
}

export function remove(key) {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // switched off: nothing was kept anyway
  }
}
