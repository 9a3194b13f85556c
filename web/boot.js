// Boots the WebAssembly build of BufferLab: downloads bufferlab.wasm with a
// progress bar, runs it, and shows any failure in the error panel (never a
// blank page). The Go side fills in window.bufferlab (see cmd/wasm) and
// resolves window.bufferlab.ready once the first lesson frame is drawn.
"use strict";
(function () {
  const loader = document.getElementById("loader");
  const bar = document.getElementById("progress");
  const barText = document.getElementById("progress-text");
  const errorBox = document.getElementById("error");
  const errorText = document.getElementById("error-text");

  // The page's colours follow the app's theme (style.css, sandbox.css):
  // the system's choice until the app says which it uses (_look).
  const root = document.documentElement;
  root.classList.toggle("dark", !!(window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches));

  let resolveReady, rejectReady;
  const api = {
    ready: new Promise((res, rej) => { resolveReady = res; rejectReady = rej; }),
    // Milliseconds since navigation at each stage of start-up.
    timings: { script: performance.now() },
  };
  api._mark = (name) => { api.timings[name] = performance.now(); };
  api.ready.catch(() => {});
  window.bufferlab = api;

  // Called by Go.
  api._ready = () => {
    api.firstFrameMs = performance.now();
    api.timings.firstFrame = api.firstFrameMs;
    loader.hidden = true;
    resolveReady(api);
  };
  api._fail = (msg) => showError(String(msg));
  // A notice (a permalink past the last step, fullscreen refused, a lesson
  // that does not play): shown above the canvas, and the app goes on.
  api._notice = (msg) => showNotice(String(msg));
  // The app's look: its theme, and presentation mode (large type for a
  // projector: the sandbox and notices grow with the canvas's text).
  api._look = (theme, presentation) => {
    root.classList.toggle("dark", theme === "dark");
    root.classList.toggle("presentation", !!presentation);
    window.dispatchEvent(new Event("bufferlab:look")); // sandbox.js re-places its marker
  };
  // F asks for fullscreen (cmd/wasm, once document.fullscreenEnabled says a
  // frame allows it); a refusal is a notice, not an unhandled rejection.
  api._fullscreen = () => {
    const refused = (e) => showNotice("Fullscreen was refused: " + (e && e.message || e));
    try {
      if (document.fullscreenElement || document.webkitFullscreenElement) {
        const exit = document.exitFullscreen || document.webkitExitFullscreen;
        Promise.resolve(exit.call(document)).catch(refused);
        return;
      }
      const el = document.querySelector("canvas") || document.documentElement;
      const request = el.requestFullscreen || el.webkitRequestFullscreen;
      Promise.resolve(request.call(el)).catch(refused);
    } catch (e) {
      refused(e);
    }
  };
  // The Go half of the API: each function returns {value} or {error}.
  api._install = (g) => {
    const call = (name) => (...args) => {
      const r = g[name](...args);
      if (r.error !== undefined) throw new Error(r.error);
      return r.value;
    };
    for (const name of ["lessons", "state", "menu", "open", "goto", "step", "seek", "answer", "fast", "pace", "layout", "targets", "presentation", "progress", "resetProgress", "theme", "continue", "autoslow",
      "mirror", "motion", "reducedMotion",
      "check", "scenario", "gallery", "grammar", "whatIf", "link", "cancelRun",
      "play", "classHold", "classReveal", "classReask"]) {
      api[name] = call(name);
    }
    // The calls that run a scenario return a Promise: the run gives the
    // page its turns (cmd/wasm's busy_js.go).
    for (const name of ["openScenario", "openLessonText"]) {
      api[name] = (...args) => g[name](...args).then((r) => {
        if (r.error !== undefined) throw new Error(r.error);
        return r.value;
      });
    }
  };
  // A run from text that takes a while: its progress, and Cancel (the
  // button, or Escape). text "" hides the bar. It shows only once a run
  // has gone on for a moment: Go calls it at its first turn of the page.
  const busy = document.getElementById("busy");
  const busyBar = document.getElementById("busy-bar");
  api._busy = (text, events, max) => {
    if (!text) {
      busy.hidden = true;
      return;
    }
    document.getElementById("busy-text").textContent = text;
    busyBar.max = max;
    busyBar.value = events;
    busy.hidden = false;
  };
  // The page's turn during a run: call back once the next frame is
  // painted (a requestAnimationFrame, then a task after it), or after
  // 50 ms where no frame comes (a hidden tab), whichever is first.
  api._turn = (cb) => {
    let done = false;
    const go = () => { if (!done) { done = true; cb(); } };
    requestAnimationFrame(() => setTimeout(go, 0));
    setTimeout(go, 50);
  };
  const cancelRun = () => { if (api.cancelRun) api.cancelRun(); };
  document.getElementById("busy-cancel").addEventListener("click", cancelRun);
  window.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !busy.hidden) { ev.preventDefault(); ev.stopPropagation(); cancelRun(); }
  }, true);

  function showError(msg, fatal = true) {
    errorText.textContent = msg;
    errorBox.hidden = false;
    loader.hidden = true;
    if (fatal) rejectReady(new Error(msg));
  }
  api.showError = showError;
  const noticeBox = document.getElementById("notice");
  function showNotice(msg) {
    document.getElementById("notice-text").textContent = msg;
    noticeBox.hidden = false;
  }
  document.getElementById("notice-close").addEventListener("click", () => { noticeBox.hidden = true; });
  let replaceTimer = 0, replaceFrag = "", replaceFrom = ""; // see _follow
  // A new address: the last link's notice no longer applies (cmd/wasm's
  // own listener, added later, may show a new one). A navigation (Back,
  // Forward, a pasted link) is noted: the app's move that follows it
  // replaces the history entry instead of pushing a new one.
  window.addEventListener("hashchange", () => {
    noticeBox.hidden = true;
    // A navigation supersedes a replacement still waiting (below).
    clearTimeout(replaceTimer);
    replaceTimer = 0;
  });
  // The app's next move is the result of a navigation (cmd/wasm's
  // openFromHash says so): it replaces the history entry, never pushes.
  let navigating = false;
  api._navigated = () => { navigating = true; };

  // Events for the host page: on(name, fn) for "step" ({lesson, scenario,
  // step, event, link}), "move" (a new position within a step, paused)
  // and "answer" ({lesson, step, choice, right}); it returns a function
  // that removes the listener. In an iframe, each event is also posted to
  // the parent page ({source: "bufferlab", type, detail}), whatever its
  // origin: a host on another site (a course page, an LMS) listens with
  // window.addEventListener("message", …). Listeners run after the Go
  // call that emits them returns (the app's lock is held during it).
  const listeners = {};
  const eventNames = ["step", "move", "answer"];
  api.on = (name, fn) => {
    if (!eventNames.includes(name)) throw new Error(`on: expected one of ${eventNames.join(", ")}, found ${JSON.stringify(name)}`);
    if (typeof fn !== "function") throw new Error("on: expected a function");
    (listeners[name] = listeners[name] || []).push(fn);
    return () => { listeners[name] = listeners[name].filter((f) => f !== fn); };
  };
  api._emit = (name, detail) => {
    setTimeout(() => {
      for (const fn of listeners[name] || []) {
        try { fn(detail); } catch (e) { console.error("bufferlab.on(" + name + "):", e); }
      }
      if (window.parent !== window) window.parent.postMessage({ source: "bufferlab", type: name, detail }, "*");
    }, 0);
  };

  // The address follows the student: a new step pushes a history entry
  // (Back goes to the previous step), a move within a step replaces the
  // entry, at most four times a second (browsers refuse floods of
  // history calls). The fragment is what internal/permalink writes.
  api._follow = (frag, newStep, detail) => {
    const hash = "#" + frag;
    detail.link = location.href.split("#")[0] + hash;
    api._emit(newStep ? "step" : "move", detail);
    const fromNavigation = navigating;
    navigating = false;
    if (location.hash === hash) return;
    if (newStep && !fromNavigation) {
      clearTimeout(replaceTimer);
      replaceTimer = 0;
      history.pushState(null, "", hash);
      return;
    }
    replaceFrag = hash;
    if (!replaceTimer) {
      // The entry to replace is the one shown now: if a navigation
      // (Back, Forward, a link) moves to another before the timer fires,
      // the replacement is dropped (popstate comes before hashchange, and
      // a late timer can fire between them).
      replaceFrom = location.hash;
      replaceTimer = setTimeout(() => {
        replaceTimer = 0;
        if (location.hash === replaceFrom && location.hash !== replaceFrag) history.replaceState(null, "", replaceFrag);
      }, 250);
    }
  };
  // Back and Forward between entries pushState made change the fragment:
  // the hashchange above and cmd/wasm's listener open the step.

  // The Link button and C: copy the address of where the student is. The
  // clipboard needs a secure page (https, or localhost); elsewhere, or if
  // it refuses, the link is shown selected, to copy by hand. advice says
  // where a link that long can be shared ("" when anywhere).
  api._copyLink = (frag, advice) => {
    const url = location.href.split("#")[0] + "#" + frag;
    const done = () => showNotice("Link copied: " + url.length + " characters." + (advice ? " " + advice : ""));
    // By hand: the link alone in a field, focused and selected, so that
    // Ctrl+C (or a long press) copies the link and nothing else.
    const byHand = () => {
      showNotice((advice ? advice + " " : "") + "Copy this link: ");
      const field = document.createElement("input");
      field.id = "notice-link";
      field.readOnly = true;
      field.value = url;
      field.setAttribute("aria-label", "The link, selected: copy it");
      document.getElementById("notice-text").append(field);
      field.focus();
      field.select();
    };
    setTimeout(() => {
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, byHand);
      else byHand();
    }, 0);
  };

  // A host page may drive an embedded app by message, as it would by the
  // API if it were on the same site: {bufferlab: CALL, args: [...], id}
  // from the parent page only; the reply is {source: "bufferlab", type:
  // "reply", id, value} or {…, error}. Only the calls below, which change
  // nothing outside this page.
  const hostCalls = ["state", "lessons", "open", "goto", "step", "seek", "answer", "continue", "link", "scenario", "openScenario", "layout"];
  window.addEventListener("message", (ev) => {
    if (window.parent === window || ev.source !== window.parent) return;
    const m = ev.data;
    if (!m || typeof m.bufferlab !== "string") return;
    const reply = (r) => ev.source.postMessage(Object.assign({ source: "bufferlab", type: "reply", id: m.id }, r), ev.origin === "null" ? "*" : ev.origin);
    if (!hostCalls.includes(m.bufferlab) || typeof api[m.bufferlab] !== "function") {
      reply({ error: `unknown call ${JSON.stringify(m.bufferlab)}: expected one of ${hostCalls.join(", ")}` });
      return;
    }
    api.ready.then(() => {
      try {
        Promise.resolve(api[m.bufferlab](...(Array.isArray(m.args) ? m.args : [])))
          .then((value) => reply({ value }), (e) => reply({ error: String(e && e.message || e) }));
      } catch (e) {
        reply({ error: String(e && e.message || e) });
      }
    });
  });
  document.getElementById("error-back").addEventListener("click", (ev) => {
    ev.preventDefault();
    errorBox.hidden = true;
    history.replaceState(null, "", location.pathname);
    if (api.menu) api.menu();
  });
  // The keyboard between the canvas and the screen-reader mirror
  // (index.html's #mirror). Ebitengine takes every key pressed on its
  // canvas (and prevents its default), so Tab would never leave it: a Tab
  // on the canvas is stopped here, before the canvas hears it, and moves
  // the focus as usual (the canvas is first in the Tab order, then the
  // mirror's controls). Every other key still goes to the canvas. Escape
  // in the mirror gives the focus back to the canvas.
  window.addEventListener("keydown", (ev) => {
    if (ev.key === "Tab" && ev.target instanceof HTMLCanvasElement) ev.stopImmediatePropagation();
  }, true);
  const mirror = document.getElementById("mirror");
  mirror.addEventListener("keydown", (ev) => {
    const canvas = document.querySelector("canvas");
    if (ev.key === "Escape" && canvas) {
      ev.preventDefault();
      canvas.focus();
    }
  });
  // The mirror's panel hides its overflow (style.css says why): the wheel
  // scrolls it.
  mirror.addEventListener("wheel", (ev) => {
    mirror.scrollTop += ev.deltaMode === 1 ? ev.deltaY * 20 : ev.deltaY;
    ev.preventDefault();
  }, { passive: false });
  window.addEventListener("error", (ev) => showError("JavaScript error: " + (ev.message || ev.error)));
  window.addEventListener("unhandledrejection", (ev) => showError("Unhandled error: " + (ev.reason && ev.reason.message || ev.reason)));

  function fmtMB(n) { return (n / 1048576).toFixed(1) + " MB"; }

  async function fetchWithProgress(url) {
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(url + ": HTTP " + resp.status + " " + resp.statusText);
    // The server sends the uncompressed size, since the body is gzipped.
    const total = Number(resp.headers.get("X-Uncompressed-Length") || resp.headers.get("Content-Length") || 0);
    if (!resp.body || !total) return new Uint8Array(await resp.arrayBuffer());
    const reader = resp.body.getReader();
    const buf = new Uint8Array(total);
    let got = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (got + value.length > buf.length) throw new Error(url + ": more bytes than announced");
      buf.set(value, got);
      got += value.length;
      bar.value = got / total;
      barText.textContent = fmtMB(got) + " of " + fmtMB(total);
    }
    return buf.subarray(0, got);
  }

  async function boot() {
    if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly support");
    if (typeof Go !== "function") throw new Error("wasm_exec.js did not load");
    const bytes = await fetchWithProgress("bufferlab.wasm");
    api._mark("fetched");
    document.getElementById("loader-text").textContent = "Starting…";
    const go = new Go();
    const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
    api._mark("compiled");
    go.run(instance).then(() => showError("The simulator stopped."), (e) => showError(String(e)));
  }
  boot().catch((e) => showError(String(e && e.message || e)));
})();
