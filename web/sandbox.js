// The scenario sandbox: an editor for the scenario language over the
// canvas, with line numbers, cheap syntax highlighting, the parser's error
// shown at its line and column as one types, a gallery of the embedded
// scenarios to start from, the grammar at hand, Run, and what-if controls
// that re-run the same scenario with one config change.
//
// Everything the sandbox knows about the language comes from Go through
// window.bufferlab (cmd/wasm/sandbox_js.go): check (the parser's
// diagnostics), openScenario (run it and play it: its errors, if any),
// gallery, grammar (scenario.Reference), whatIf (scenario.WithConfig). The
// DOM is built here, not in index.html; styles are in sandbox.css (the
// Content-Security-Policy allows no inline style; setting element.style
// from a script is CSSOM, which it allows).
"use strict";
(function () {
  const api = window.bufferlab;
  const el = (tag, props = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "class") e.className = v;
      else if (k.startsWith("aria-") || k.startsWith("data-") || k === "role" || k === "for") e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const k of kids) e.append(k);
    return e;
  };

  // The editor panel.
  const text = el("textarea", {
    id: "sb-text", spellcheck: false, autocapitalize: "off", autocomplete: "off",
    "aria-label": "Scenario text", "aria-describedby": "sb-status", wrap: "off",
  });
  const gutter = el("div", { class: "sb-gutter", "aria-hidden": "true" });
  const paint = el("pre", { class: "sb-paint", "aria-hidden": "true" });
  const marker = el("div", { class: "sb-marker", id: "sb-marker", role: "note", hidden: true });
  const scroller = el("div", { class: "sb-scroll" }, paint, text, marker);
  const editor = el("div", { class: "sb-editor" }, gutter, scroller);
  const status = el("div", { id: "sb-status", class: "sb-status", role: "status", "aria-live": "polite" });
  const gallery = el("select", { id: "sb-gallery", "aria-label": "Start from an example" },
    el("option", { value: "", textContent: "Start from an example…" }));
  const run = el("button", { id: "sb-run", type: "button", textContent: "Run ▶", title: "Run the scenario and play it (Ctrl+Enter)" });
  const close = el("button", { id: "sb-close", type: "button", textContent: "Lessons", title: "Back to the lesson list" });
  const grammar = el("pre", { id: "sb-grammar", class: "sb-grammar" });
  const grammarBox = el("details", { class: "sb-ref" }, el("summary", { textContent: "The scenario language" }), grammar);

  // What-if: one config change, written into the text and run again.
  const whatIf = el("fieldset", { class: "sb-whatif" }, el("legend", { textContent: "What if…" }));
  const controls = [
    { key: "shared_buffers", label: "shared_buffers", values: ["", "128kB", "256kB", "1MB", "16MB", "128MB"] },
    { key: "schedule", label: "schedule", values: ["", "rr", "random"] },
    { key: "seed", label: "seed", input: "number" },
    { key: "pins", label: "pins", values: ["", "atomic", "spinlock", "atomic,spinlock"] },
    { key: "drop", label: "drop", values: ["", "scan", "lookup", "dlist", "scan,lookup,dlist"] },
    { key: "slru", label: "slru", values: ["", "single", "banks", "banks+hash", "single,banks,banks+hash"] },
    { key: "fsm", label: "fsm", values: ["", "always", "small-skip", "always,small-skip"] },
  ];
  for (const c of controls) {
    const id = "sb-w-" + c.key;
    let input;
    if (c.input) {
      input = el("input", { id, type: c.input, min: 0, step: 1, inputMode: "numeric", placeholder: "default" });
    } else {
      input = el("select", { id });
      for (const v of c.values) input.append(el("option", { value: v, textContent: v || "as written" }));
    }
    input.addEventListener("change", () => applyWhatIf(c.key, String(input.value).trim()));
    whatIf.append(el("label", { for: id }, c.label), input);
  }

  // A teacher's own file: picked here, or dropped anywhere on the page.
  const picker = el("input", { id: "sb-file", type: "file", accept: ".md,.scn,text/markdown,text/plain", class: "sb-hidden-input" });
  const pick = el("button", { id: "sb-open", type: "button", textContent: "Open a file…", title: "Open a lesson (.md) or a scenario (.scn) from this computer" });
  pick.addEventListener("click", () => picker.click());
  picker.addEventListener("change", () => { if (picker.files[0]) openFile(picker.files[0]); picker.value = ""; });

  const side = el("div", { class: "sb-side" }, whatIf, grammarBox);
  const head = el("div", { class: "sb-head" },
    el("h2", { textContent: "Scenario sandbox" }), gallery, pick, picker, run, close);
  const panel = el("section", { id: "sandbox", class: "sandbox", "aria-label": "Scenario sandbox", hidden: true },
    head, el("div", { class: "sb-body" }, editor, side), status);
  // While a sandbox scenario plays, the player's own Edit button (E)
  // brings its text back (viz/frame's top bar).
  // A lesson file's errors, positioned as `bufferlab lessons check` gives
  // them.
  const fileErrText = el("pre", { id: "sb-file-errors" });
  const fileErrClose = el("button", { type: "button", textContent: "Close" });
  const fileErr = el("div", { id: "sb-file-error", class: "sb-dialog", role: "alertdialog", "aria-modal": "true",
    "aria-labelledby": "sb-file-error-title", hidden: true },
  el("h2", { id: "sb-file-error-title", textContent: "This file does not open" }), fileErrText, fileErrClose);
  fileErrClose.addEventListener("click", () => { fileErr.hidden = true; });
  const dropHint = el("div", { id: "sb-drop", class: "sb-drop", hidden: true },
    el("p", { textContent: "Drop a lesson (.md) or a scenario (.scn) to open it" }));
  document.body.append(panel, fileErr, dropHint);

  // Highlighting: one pass over each line, HTML built from text nodes
  // only (never innerHTML from the text: it is anyone's input).
  const keywords = new Set(["config", "relation", "backend", "schedule", "run", "show", "expect"]);
  function paintLine(line, errCol) {
    const frag = document.createDocumentFragment();
    const hash = line.indexOf("#");
    const code = hash >= 0 ? line.slice(0, hash) : line;
    const re = /(\s+)|([A-Za-z_][\w+.-]*)(=)?|(\d[\w.]*)|(.)/g;
    let m, first = true, col = 1;
    while ((m = re.exec(code)) !== null) {
      const s = m[0];
      let cls = "";
      if (m[1]) cls = "";
      else if (m[2] && first && keywords.has(m[2])) cls = "kw";
      else if (m[2] && m[3]) cls = "key";
      else if (m[4]) cls = "num";
      if (!m[1]) first = false;
      const chars = [...s].length;
      const span = el("span", { class: cls, textContent: s });
      if (errCol && errCol >= col && errCol < col + chars && !m[1]) span.className += " err";
      frag.append(cls || span.className ? span : document.createTextNode(s));
      col += chars;
    }
    if (hash >= 0) frag.append(el("span", { class: "cm", textContent: line.slice(hash) }));
    if (errCol && errCol >= col && hash < 0) frag.append(el("span", { class: "err eol", textContent: " " }));
    return frag;
  }

  let diags = [];
  function repaint() {
    const lines = text.value.split("\n");
    const err = diags[0];
    paint.replaceChildren();
    gutter.replaceChildren();
    lines.forEach((line, i) => {
      const n = i + 1;
      const bad = err && err.line === n;
      paint.append(paintLine(line, bad ? err.col : 0), "\n");
      gutter.append(el("div", { class: bad ? "bad" : "", textContent: String(n) }));
    });
    placeMarker();
  }

  // The error's message sits under its line, from its column.
  function placeMarker() {
    const err = diags[0];
    if (!err) {
      marker.hidden = true;
      status.textContent = text.value.trim() ? "No errors. Run plays it." : "Type a scenario, or start from an example.";
      status.className = "sb-status ok";
      return;
    }
    const where = `Line ${err.line}, column ${err.col}: `;
    marker.textContent = where + err.message;
    marker.dataset.line = err.line;
    marker.dataset.col = err.col;
    const cs = getComputedStyle(text);
    const lh = parseFloat(cs.lineHeight) || 20;
    const ch = charWidth(cs);
    const padTop = parseFloat(cs.paddingTop) || 0, padLeft = parseFloat(cs.paddingLeft) || 0;
    marker.style.top = (padTop + err.line * lh) + "px";
    marker.style.left = Math.max(0, padLeft + (err.col - 1) * ch) + "px";
    marker.hidden = false;
    // Keep the message inside the editor: slide it left where the column
    // is near the right edge (a phone).
    const room = scroller.clientWidth - marker.offsetWidth - 4;
    if (marker.offsetLeft > room) marker.style.left = Math.max(0, room) + "px";
    status.textContent = (err.check ? "The scenario ran, but a check failed. " : "") + where + err.message;
    status.className = "sb-status bad";
  }

  // The width of a character of the editor's font, measured once per
  // font (presentation mode and a large screen change its size).
  let charW = 0, charFont = "";
  function charWidth(cs) {
    if (charW && charFont === cs.font) return charW;
    const c = document.createElement("canvas").getContext("2d");
    c.font = charFont = cs.font;
    charW = c.measureText("0000000000").width / 10 || 8;
    return charW;
  }
  // The type's size changes with the window (a large screen) and with
  // the app's presentation mode (boot.js's _look): the message moves with
  // its line.
  window.addEventListener("resize", () => { if (!panel.hidden) placeMarker(); });
  window.addEventListener("bufferlab:look", () => { if (!panel.hidden) placeMarker(); });

  let timer = 0;
  function check() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!text.value.trim()) {
        diags = []; // an empty editor is a start, not a mistake
        repaint();
        return;
      }
      try {
        diags = api.check(text.value) || [];
      } catch (e) {
        diags = [{ line: 1, col: 1, message: String(e && e.message || e) }];
      }
      repaint();
    }, 120);
  }
  text.addEventListener("input", () => { repaint(); check(); });
  text.addEventListener("scroll", () => {
    paint.style.transform = `translate(${-text.scrollLeft}px, ${-text.scrollTop}px)`;
    marker.style.transform = paint.style.transform;
    gutter.scrollTop = text.scrollTop;
  });
  text.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); runIt(); }
  });

  function setText(t) {
    text.value = t;
    diags = [];
    repaint();
    check();
  }

  function applyWhatIf(key, value) {
    try {
      setText(api.whatIf(text.value, key, value));
      runIt();
    } catch (e) {
      status.textContent = `What if ${key}=${value || "(default)"}: ${e && e.message || e}`;
      status.className = "sb-status bad";
    }
  }

  // runIt runs the text and plays it (the editor closes), or shows where
  // it fails. A long run shows its progress and Cancel over the page
  // (boot.js's #busy); Run waits for it.
  async function runIt() {
    if (run.disabled) return false;
    run.disabled = true;
    status.textContent = "Running…";
    status.className = "sb-status";
    let errs;
    try {
      errs = await api.openScenario(text.value) || [];
    } catch (e) {
      errs = [{ line: 1, col: 1, message: String(e && e.message || e) }];
    } finally {
      run.disabled = false;
    }
    if (errs.length) {
      diags = errs;
      repaint();
      text.focus();
      return false;
    }
    hide();
    return true;
  }
  run.addEventListener("click", runIt);
  close.addEventListener("click", () => { hide(); if (api.menu) api.menu(); });
  gallery.addEventListener("change", () => {
    const g = galleryItems.find((x) => x.name === gallery.value);
    if (g) setText(g.text);
    gallery.value = "";
  });

  let galleryItems = [];
  let filled = false;
  function fill() {
    if (filled) return;
    filled = true;
    try {
      galleryItems = api.gallery() || [];
      for (const g of galleryItems) gallery.append(el("option", { value: g.name, textContent: g.title || g.name }));
      grammar.textContent = api.grammar();
    } catch (e) {
      status.textContent = "The sandbox could not load its examples: " + (e && e.message || e);
    }
  }

  function show(t) {
    fill();
    if (typeof t === "string") setText(t);
    else repaint();
    panel.hidden = false;
    text.focus();
    // The game's canvas takes the focus when it starts (Ebitengine does):
    // give it back to the text once the app is up.
    if (api.ready) api.ready.then(() => { if (!panel.hidden) text.focus(); });
  }
  function hide() {
    panel.hidden = true;
  }

  // MaxFile bounds what is read from a file (permalink.MaxText, 1 MiB):
  // a lesson is tens of kilobytes.
  const maxFile = 1 << 20;
  function fileError(msg) {
    fileErrText.textContent = msg;
    fileErr.hidden = false;
    fileErrClose.focus();
  }
  // openFile opens a lesson (.md: played, or its errors shown) or a
  // scenario (anything else: into the editor, and run).
  async function openFile(f) {
    if (f.size > maxFile) {
      fileError(`${f.name}: ${f.size} bytes, more than the ${maxFile} BufferLab reads from a file.`);
      return;
    }
    let body;
    try {
      body = await f.text();
    } catch (e) {
      fileError(`${f.name}: could not be read (${e && e.message || e}).`);
      return;
    }
    if (/\.md$/i.test(f.name)) {
      let err;
      try {
        err = await api.openLessonText(f.name, body);
      } catch (e) {
        err = String(e && e.message || e);
      }
      if (err) {
        fileError(err);
        return;
      }
      panel.hidden = true;
      return;
    }
    show(body);
    runIt();
  }
  let dragDepth = 0;
  const hasFiles = (ev) => ev.dataTransfer && [...ev.dataTransfer.types].includes("Files");
  window.addEventListener("dragenter", (ev) => { if (hasFiles(ev)) { dragDepth++; dropHint.hidden = false; } });
  window.addEventListener("dragleave", () => { if (--dragDepth <= 0) { dragDepth = 0; dropHint.hidden = true; } });
  window.addEventListener("dragover", (ev) => { if (hasFiles(ev)) ev.preventDefault(); });
  window.addEventListener("drop", (ev) => {
    dragDepth = 0;
    dropHint.hidden = true;
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    const f = ev.dataTransfer.files[0];
    if (f) openFile(f);
  });

  // The Go side calls this: _sandbox(text) opens the editor (the menu's
  // card, S, the player's Edit button, #sandbox, a link whose scenario
  // does not run). It runs after the Go call returns (the app's lock is
  // held during it, and the editor calls Go).
  api._sandbox = (t) => setTimeout(() => show(t), 0);
  api.sandbox = {
    show, hide,
    text: () => text.value,
    setText,
    run: runIt,
    diagnostics: () => diags.slice(),
    openFile,
  };
})();
