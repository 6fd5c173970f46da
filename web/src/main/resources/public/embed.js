/*! codeinterp embed helper v1 — docs/embed.md. A classic script, no dependencies:
 *    <script src="https://your-server/embed.js"></script>
 *    const w = await CodeInterp.mount(element, {language: 'python', code: 'print(1)'});
 *    const result = await w.run('1 + 1');   // the REST one-shot shape
 *  The widget's frame checks this page's origin against the server's CODEINTERP_EMBED_ORIGINS and
 *  says `hello` only then; we answer with a MessagePort, and every later message goes over it. */
(function () {
  'use strict';
  const VERSION = 1;
  const scriptOrigin = document.currentScript ? new URL(document.currentScript.src, location.href).origin : location.origin;

  function b64url(text) {
    const bytes = new TextEncoder().encode(text);
    let s = '';
    for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  /** The host page's theme: its `data-theme`, else its color-scheme, else the user's preference. */
  function hostTheme() {
    const el = document.documentElement;
    const named = el.getAttribute('data-theme') || (document.body && document.body.getAttribute('data-theme'));
    if (named === 'dark' || named === 'light') return named;
    const scheme = getComputedStyle(el).colorScheme || '';
    if (scheme.indexOf('dark') >= 0 && scheme.indexOf('light') < 0) return 'dark';
    if (scheme.indexOf('light') >= 0 && scheme.indexOf('dark') < 0) return 'light';
    return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  function fragment(o) {
    const p = [];
    function add(k, v) { if (v !== undefined && v !== null && v !== '') p.push(k + '=' + encodeURIComponent(String(v))); }
    if (o.code) add('code', b64url(o.code));
    if (o.prerun) add('prerun', b64url(o.prerun));
    if (o.files) add('files', new URL(String(o.files), location.href).href);
    add('language', o.language);
    add('runtime', o.runtime);
    add('autorun', o.autorun === true ? '1' : o.autorun === false ? '0' : o.autorun);
    if (o.readonly) add('readonly', '1');
    add('ui', o.ui);
    add('theme', o.theme === 'auto' || !o.theme ? 'auto' : o.theme);
    add('maxHeight', o.maxHeight);
    return p.join('&');
  }

  /**
   * Mounts a widget into `element`. Resolves once the widget's frame has checked this page's origin
   * and connected; rejects if it does not within `timeoutMs` (default 20 s; e.g. this origin may
   * not embed it).
   */
  function mount(element, options) {
    const o = Object.assign({ runtime: 'auto', language: 'python', theme: 'auto', height: 'auto' }, options || {});
    const origin = new URL(o.server || scriptOrigin, location.href).origin;
    const frame = document.createElement('iframe');
    frame.src = origin + '/embed#' + fragment(o);
    frame.title = o.title || 'Code interpreter';
    frame.setAttribute('allow', 'clipboard-write');
    frame.style.cssText = 'display:block;width:100%;border:0;color-scheme:normal;';
    frame.style.height = o.height === 'auto' ? '120px' : (parseInt(o.height, 10) || 300) + 'px';

    const listeners = {};
    let pending = {};
    let nextId = 1;
    let port = null;
    let readyInfo = null;
    let capabilities = []; // what the widget's hello says it understands
    let destroyed = false;
    let stopThemeWatch = null;

    function emit(type, detail) {
      (listeners[type] || []).slice().forEach(function (fn) {
        try { fn(detail); } catch (e) { setTimeout(function () { throw e; }); }
      });
    }

    function request(message, bytes) {
      if (destroyed) return Promise.reject(new Error('the widget was destroyed'));
      const id = String(nextId++);
      message.id = id;
      if (bytes) message.bytes = bytes;
      return new Promise(function (resolve, reject) {
        pending[id] = { resolve: resolve, reject: reject };
        port.postMessage(message, bytes ? [bytes] : []);
      });
    }

    function onPortMessage(e) {
      const m = e.data;
      if (!m || typeof m.type !== 'string') return;
      if (m.type === 'reply' || m.type === 'error' || m.type === 'files' || m.type === 'fileContent') {
        const p = pending[m.id];
        if (!p) return;
        delete pending[m.id];
        if (m.type === 'reply') p.resolve(m.result !== undefined ? m.result : m.code);
        else if (m.type === 'files') p.resolve(m.files);
        else if (m.type === 'fileContent') p.resolve(new Blob([m.bytes], { type: m.mime }));
        else p.reject(new Error(m.message || 'the widget refused the request'));
        return;
      }
      if (m.type === 'resize' && o.height === 'auto' && typeof m.height === 'number' && isFinite(m.height)) {
        let h = Math.max(40, Math.ceil(m.height));
        if (o.maxHeight) h = Math.min(h, o.maxHeight);
        frame.style.height = h + 'px';
      }
      if (m.type === 'ready') readyInfo = { runtime: m.runtime, description: m.description };
      emit(m.type, m);
    }

    function watchTheme() {
      const send = function () { if (port) request({ type: 'setTheme', theme: hostTheme() }).catch(function () {}); };
      const mq = matchMedia('(prefers-color-scheme: dark)');
      const mo = new MutationObserver(send);
      mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] });
      mq.addEventListener('change', send);
      send();
      return function () { mo.disconnect(); mq.removeEventListener('change', send); };
    }

    const widget = {
      element: frame,
      version: VERSION,
      run: function (code, opts) {
        return request({ type: 'run', code: String(code), language: (opts && opts.language) || o.language || 'python' });
      },
      on: function (type, fn) {
        (listeners[type] = listeners[type] || []).push(fn);
        if (type === 'ready' && readyInfo) fn(Object.assign({ type: 'ready' }, readyInfo));
        return widget;
      },
      off: function (type, fn) {
        listeners[type] = (listeners[type] || []).filter(function (f) { return f !== fn; });
        return widget;
      },
      setCode: function (code) { return request({ type: 'setCode', code: String(code) }); },
      getCode: function () { return request({ type: 'getCode' }); },
      setTheme: function (theme) {
        if (stopThemeWatch) { stopThemeWatch(); stopThemeWatch = null; }
        if (theme === 'auto') { stopThemeWatch = watchTheme(); return Promise.resolve(); }
        return request({ type: 'setTheme', theme: theme === 'dark' ? 'dark' : 'light' });
      },
      setOptions: function (opts) {
        const m = { type: 'setOptions' };
        if (opts.readonly !== undefined) m.readonly = !!opts.readonly;
        if (opts.ui) m.ui = opts.ui;
        if (opts.maxHeight !== undefined) {
          m.maxHeight = opts.maxHeight | 0;
          o.maxHeight = opts.maxHeight | 0;
          if (o.maxHeight && o.height === 'auto' && frame.getBoundingClientRect().height > o.maxHeight) {
            frame.style.height = o.maxHeight + 'px';
          }
        }
        return request(m);
      },
      /**
       * Restart and clear: a fresh interpreter (variables gone, workspace kept) and none of the
       * widget's outputs, the running cell's included; the height shrinks with them. A widget too
       * old to clear only restarts.
       */
      reset: function () {
        return request(capabilities.indexOf('clear') >= 0 ? { type: 'clear', restart: true } : { type: 'reset' });
      },
      /** Clears the outputs of the cells that ended; the interpreter and its variables stay. */
      clear: function () {
        if (capabilities.indexOf('clear') < 0) return Promise.reject(new Error('this widget cannot clear its outputs (its server is older than this helper)'));
        return request({ type: 'clear', restart: false });
      },
      /** Places a file (a Blob or an ArrayBuffer) in the widget's workspace; code reads it by name. */
      putFile: function (name, content) {
        const bytes = content instanceof ArrayBuffer ? Promise.resolve(content.slice(0)) : new Blob([content]).arrayBuffer();
        return bytes.then(function (b) { return request({ type: 'putFile', name: String(name) }, b); });
      },
      /** The workspace's files: [{name, size, modified, mime}]. */
      listFiles: function () { return request({ type: 'listFiles' }); },
      /** One file's content as a Blob. */
      getFile: function (name) { return request({ type: 'getFile', name: String(name) }); },
      destroy: function () {
        if (destroyed) return;
        destroyed = true;
        if (stopThemeWatch) stopThemeWatch();
        window.removeEventListener('message', onWindowMessage);
        Object.keys(pending).forEach(function (id) { pending[id].reject(new Error('the widget was destroyed')); });
        pending = {};
        if (port) port.close();
        frame.remove();
      },
    };

    let connected, failed;
    const mounted = new Promise(function (resolve, reject) { connected = resolve; failed = reject; });

    function onWindowMessage(e) {
      if (e.source !== frame.contentWindow || e.origin !== origin || port !== null) return;
      const m = e.data;
      if (!m || m.type !== 'hello' || m.version !== VERSION) return;
      capabilities = Array.isArray(m.capabilities) ? m.capabilities : [];
      const channel = new MessageChannel();
      port = channel.port1;
      port.onmessage = onPortMessage;
      frame.contentWindow.postMessage({ type: 'connect', version: VERSION, key: o.key || null }, origin, [channel.port2]);
      if (o.theme === 'auto') stopThemeWatch = watchTheme();
      connected(widget);
    }

    window.addEventListener('message', onWindowMessage);
    frame.addEventListener('load', function () {
      // for browsers without location.ancestorOrigins: our first message tells the frame who we are
      if (port === null && frame.contentWindow) frame.contentWindow.postMessage({ type: 'ping' }, origin);
    });
    element.appendChild(frame);
    const timer = setTimeout(function () {
      if (port === null) {
        // the frame stays, showing whatever the browser or the widget says about the refusal
        window.removeEventListener('message', onWindowMessage);
        destroyed = true;
        failed(new Error('the widget did not connect (is this page\'s origin in the server\'s CODEINTERP_EMBED_ORIGINS?)'));
      }
    }, o.timeoutMs || 20000);
    return mounted.then(function (w) { clearTimeout(timer); return w; });
  }

  window.CodeInterp = { version: VERSION, mount: mount };
})();
