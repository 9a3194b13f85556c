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
      "check", "openScenario", "scenario", "gallery", "grammar", "whatIf", "link", "openLessonText"]) {
      api[name] = call(name);
    }
  };

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
  // A new address: the last link's notice no longer applies (cmd/wasm's
  // own listener, added later, may show a new one).
  window.addEventListener("hashchange", () => { noticeBox.hidden = true; });
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
