// The classroom's browser half (docs/classroom.md; the server is
// internal/classroom, run by `bufferlab serve --classroom`). A page opened
// at #teach=TOKEN is the teacher's: it drives the class from where its own
// player is and shows, on the projector, the join link, its QR code, how
// many have answered and, once revealed, the distribution of answers. A
// page opened at #join=CODE is a student's: it follows the teacher's
// lesson, step and position, holds its answers for the teacher's reveal
// (window.bufferlab.classHold), and may roam (step back, replay) and snap
// back. The role survives a reload (sessionStorage): the address changes
// as the player moves (boot.js's _follow), and a teacher who reloads keeps
// the room. Everything is built here with DOM calls, styled by
// classroom.css (the Content-Security-Policy allows no inline style).
"use strict";
(function () {
  const api = window.bufferlab;
  const store = window.sessionStorage;
  const key = "bufferlab.class";
  let me = null; // {role, token | room, name, id}
  const m = /^#(teach|join)=([A-Za-z0-9]{1,64})$/.exec(location.hash);
  if (m) {
    me = m[1] === "teach" ? { role: "teacher", token: m[2] } : { role: "student", room: m[2].toUpperCase() };
    history.replaceState(null, "", location.pathname); // the token leaves the address bar
  } else {
    try { me = JSON.parse(store.getItem(key) || "null"); } catch (e) { me = null; }
  }
  if (!me || (me.role !== "teacher" && me.role !== "student")) return;
  const save = () => { try { store.setItem(key, JSON.stringify(me)); } catch (e) { /* private window: no resume */ } };
  save();
  api.classRole = me.role;

  const el = (tag, props = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "class") e.className = v;
      else if (k.startsWith("aria-") || k.startsWith("data-") || k === "role") e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const k of kids) e.append(k);
    return e;
  };

  // The panel: the teacher's on the projector (top right), a student's a
  // bar at the top. Both say the class's state in words, politely, to a
  // screen reader too.
  const line = el("div", { id: "class-line", class: "class-line", role: "status", "aria-live": "polite" });
  const panel = el("aside", { id: "class", class: "class " + me.role, "aria-label": me.role === "teacher" ? "Class controls" : "Class" }, line);
  document.body.append(panel);
  const say = (t) => { line.textContent = t; };

  // ---- the connection ----------------------------------------------
  let ws = null, last = null, retry = 0, closedForGood = false;
  const send = (msg) => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); };
  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/class/ws";
    ws = new WebSocket(url);
    ws.onopen = () => {
      retry = 0;
      const hello = { t: "hello", role: me.role };
      if (me.role === "teacher") hello.token = me.token;
      else { hello.room = me.room; if (me.name) hello.name = me.name; }
      if (me.id) hello.id = me.id;
      send(hello);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.t === "welcome") { me.id = msg.id; save(); return; }
      if (msg.t === "error") {
        say(msg.reason);
        if (msg.fatal) closedForGood = true;
        return;
      }
      if (msg.t === "state" && (!last || msg.v > last.v)) {
        last = msg;
        (me.role === "teacher" ? teacherState : studentState)(msg);
      }
    };
    ws.onclose = (ev) => {
      ws = null;
      if (closedForGood || (last && last.ended)) return;
      // Back in a moment: the server keeps the class, and the id resumes
      // this page's answers.
      retry = Math.min(retry + 1, 5);
      say(`Connection lost${ev.reason ? " (" + ev.reason + ")" : ""}: reconnecting…`);
      setTimeout(connect, 1000 * retry);
    };
  }

  // ---- the teacher -------------------------------------------------
  const counts = el("div", { id: "class-counts", class: "class-counts" });
  const bars = el("div", { id: "class-bars", class: "class-bars" });
  function button(id, label, title, f) {
    const b = el("button", { id, type: "button", textContent: label, title });
    b.addEventListener("click", f);
    return b;
  }
  function teacherSetup() {
    const qr = el("img", { id: "class-qr", class: "class-qr", alt: "QR code of the join link", src: "/class/qr.png" });
    const join = el("div", { id: "class-join", class: "class-join" });
    fetch("/class/info").then((r) => r.json()).then((info) => {
      join.replaceChildren(el("span", { textContent: "Join the class: scan the code, or open" }),
        el("div", { class: "class-url", textContent: info.join }),
        el("span", { textContent: "Room" }), el("strong", { id: "class-code", textContent: info.room }));
    }).catch(() => { join.textContent = "The join link is printed where the server runs."; });
    const controls = el("div", { class: "class-controls" },
      button("class-lock", "Lock", "Stop taking answers (Shift+L)", () => send({ t: last && last.q && last.q.locked ? "unlock" : "lock" })),
      button("class-reveal", "Reveal", "Show the answers and the right one (Shift+R; PageDown at a question)", reveal),
      button("class-reask", "Re-ask", "Ask again after discussion: a new round (Shift+A)", reask),
      button("class-hide", "Hide join", "Show or hide the join link and QR code (Shift+J)", () => showJoin(joinHidden)),
      button("class-end", "End class", "End the class (Shift+E)", () => { if (confirm("End the class for everyone?")) send({ t: "end" }); }));
    // The most used first: the line, the controls, the count or the
    // distribution; the join link and its QR code last, shown while the
    // class gathers and hidden once it starts (Shift+J brings them back).
    const joinBox = el("div", { class: "class-joinbox" }, join, qr);
    panel.append(controls, counts, bars, joinBox);
    say("Class starting…");
    // Where the teacher's player is, the class is: sent on every change,
    // at most four times a second while playing.
    let sent = "", firstStep = null;
    setInterval(() => {
      let s;
      try { s = api.state(); } catch (e) { return; }
      if (s.mode !== "lesson" || !s.lesson) return;
      const where = { t: "goto", lesson: s.lesson, step: s.step, pos: s.event, playing: !!s.playing };
      const k = JSON.stringify(where);
      if (k !== sent) {
        // The class starts when the teacher first plays or changes step:
        // the join link makes room for the lesson (Shift+J brings it back).
        if (firstStep === null) firstStep = s.step;
        else if (s.step !== firstStep || s.playing) hideJoin();
        sent = k;
        send(where);
      }
    }, 250);
    // A presentation clicker sends PageDown and PageUp: PageDown plays
    // the step, reveals the question at its stop, goes on, and opens the
    // next step; PageUp goes back a step.
    window.addEventListener("keydown", (ev) => {
      if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
      const k = ev.key;
      let done = true;
      if (k === "PageDown") next();
      else if (k === "PageUp") { const s = api.state(); if (s.step > 0) api.goto(s.step - 1); }
      else if (ev.shiftKey && k === "R") reveal();
      else if (ev.shiftKey && k === "A") reask();
      else if (ev.shiftKey && k === "L") document.getElementById("class-lock").click();
      else if (ev.shiftKey && k === "J") showJoin(joinHidden);
      else if (ev.shiftKey && k === "E") document.getElementById("class-end").click();
      else done = false;
      if (done) { ev.preventDefault(); ev.stopPropagation(); }
    }, true);
  }
  let joinHidden = false;
  function showJoin(on) {
    joinHidden = !on;
    panel.classList.toggle("nojoin", joinHidden);
    const b = document.getElementById("class-hide");
    if (b) b.textContent = joinHidden ? "Show join" : "Hide join";
  }
  function hideJoin() { if (!joinHidden) showJoin(false); }
  function reveal() {
    if (!last || !last.q) return;
    send({ t: "reveal" });
    try { api.classReveal(); } catch (e) { /* not at the question's step */ }
  }
  function reask() {
    if (!last || !last.q) return;
    send({ t: "reask" });
    try { api.classReask(); } catch (e) { /* not at the question's step */ }
  }
  function next() {
    hideJoin();
    const s = api.state();
    if (s.gated && last && last.q && !last.q.revealed) { reveal(); return; }
    if (s.stop) { try { api.continue(); } catch (e) { /* gated */ } return; }
    if (s.playing) { api.play(false); return; }
    if (s.event < s.stepEnd) { try { api.play(true); } catch (e) { /* a question waits */ } return; }
    if (s.step + 1 < s.steps) api.goto(s.step + 1);
  }
  function teacherState(st) {
    if (st.ended) { say("The class has ended."); panel.classList.add("ended"); return; }
    let t = `${st.students} student${st.students === 1 ? "" : "s"}`;
    counts.replaceChildren();
    bars.replaceChildren();
    if (st.q) {
      t += ` · ${st.q.answered} answered` + (st.q.round > 1 ? ` (round ${st.q.round})` : "") + (st.q.locked ? " · locked" : "");
      counts.textContent = `${st.q.answered} of ${st.students} answered`;
      document.getElementById("class-lock").textContent = st.q.locked ? "Unlock" : "Lock";
      document.getElementById("class-lock").disabled = st.q.revealed; // re-ask instead
      document.getElementById("class-reveal").disabled = st.q.revealed;
      if (st.q.revealed) { counts.textContent = ""; drawBars(st.q); }
    }
    panel.classList.toggle("noq", !st.q);
    say(t);
  }
  // The distribution, beside the right answer: one bar per choice, its
  // count and share, the right one marked in words (never by colour
  // alone); earlier rounds beside the current one.
  function drawBars(q) {
    const rounds = (q.rounds || []).concat([q.counts]);
    rounds.forEach((cs, r) => {
      const total = cs.reduce((a, b) => a + b, 0);
      const col = el("div", { class: "class-round" },
        el("div", { class: "class-round-title", textContent: rounds.length > 1 ? `Round ${r + 1}` : "Answers" }));
      cs.forEach((n, i) => {
        const share = total ? n / total : 0;
        const bar = el("div", { class: "class-bar" + (i + 1 === q.right ? " right" : "") });
        bar.style.width = Math.round(share * 100) + "%";
        col.append(el("div", { class: "class-row", "data-choice": String(i + 1) },
          el("span", { class: "class-choice", textContent: String(i + 1) }),
          el("span", { class: "class-track" }, bar),
          el("span", { class: "class-n", textContent: `${n} (${Math.round(share * 100)}%)` + (i + 1 === q.right ? " ✓ right" : "") })));
      });
      bars.append(col);
    });
  }

  // ---- a student ---------------------------------------------------
  let roaming = false, applied = null;
  const back = button("class-back", "Back to class", "Follow the teacher again (B)", () => { roaming = false; panel.classList.remove("roaming"); if (last) follow(last); });
  function studentSetup() {
    api.classHold(true);
    panel.append(back);
    // The nickname is optional; asked once, kept for a reload.
    if (me.name === undefined) {
      const name = el("input", { id: "class-name", type: "text", maxLength: 32, placeholder: "Nickname (optional)", "aria-label": "Nickname (optional)" });
      const go = button("class-join-go", "Join the class", "", () => { me.name = name.value.trim(); save(); ask.remove(); connect(); });
      name.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go.click(); });
      const ask = el("div", { id: "class-ask", class: "class-ask", role: "dialog", "aria-label": "Join the class" },
        el("p", { textContent: `Class ${me.room}: you follow the teacher's screen and answer its questions on this device. Nobody sees who answered what.` }),
        name, go);
      document.body.append(ask);
      name.focus();
    } else {
      connect();
    }
    api.on("answer", (d) => {
      if (!last || !last.q) return;
      send({ t: "answer", step: d.step - 1, round: last.q.round, choice: d.choice });
    });
    window.addEventListener("keydown", (ev) => {
      if (roaming && (ev.key === "b" || ev.key === "B") && !(ev.target && /^(INPUT|TEXTAREA)$/.test(ev.target.tagName))) { ev.preventDefault(); back.click(); }
    }, true);
    // Moving away from where the class is (a step back, a replay) is
    // roaming: the page stops following until Back to class.
    setInterval(() => { if (!roaming && last && !last.ended && movedOnOwn()) roam(); }, 400);
    say(`Joining class ${me.room}…`);
  }
  // movedOnOwn says whether the student's player is no longer where the
  // class last put it: the student moved (only follow moves it else).
  function movedOnOwn() {
    if (!applied) return false;
    let s;
    try { s = api.state(); } catch (e) { return false; }
    return s.lesson !== applied.lesson || s.step !== applied.step || s.event !== applied.pos;
  }
  function roam() {
    roaming = true;
    panel.classList.add("roaming");
    say("You are exploring on your own. Back to class (B) follows the teacher again.");
  }
  let seenRound = {}; // step → the round last applied, and whether revealed
  function follow(st) {
    let s = api.state();
    if (s.lesson !== st.lesson) { api.open(st.lesson, st.step); s = api.state(); }
    if (s.step !== st.step) api.goto(st.step);
    api.seek(st.pos);
    s = api.state();
    applied = { lesson: s.lesson, step: s.step, pos: s.event };
    if (st.q) {
      const was = seenRound[st.q.step] || { round: 1, revealed: false };
      if (st.q.round > was.round) { try { api.classReask(); } catch (e) { /* elsewhere */ } }
      if (st.q.revealed && !(was.round === st.q.round && was.revealed)) { try { api.classReveal(); } catch (e) { /* elsewhere */ } }
      seenRound[st.q.step] = { round: st.q.round, revealed: st.q.revealed };
    }
  }
  function studentState(st) {
    if (st.ended) {
      say("The class has ended: the lesson is yours to explore.");
      panel.classList.add("ended");
      api.classHold(false);
      return;
    }
    // A move of the student's own since the class last placed the player
    // is roaming, even if the class's next message comes before the
    // check above sees it.
    if (!roaming && !st.ended && movedOnOwn()) roam();
    if (!roaming && st.lesson) follow(st);
    let t = roaming ? "You are exploring on your own. Back to class (B) follows the teacher again." : `Class ${me.room}: following the teacher`;
    if (st.q && !roaming) {
      if (st.q.revealed) t += " · the answers are revealed";
      else if (st.q.locked) t += " · answers are closed";
      else t += st.mine ? ` · your answer ${st.mine} is in` : " · answer the question";
    }
    say(t);
  }

  api.ready.then(() => {
    if (me.role === "teacher") { teacherSetup(); connect(); } else studentSetup();
  });
})();
