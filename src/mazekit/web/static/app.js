// mazekit's page: generate, watch, solve and play mazes on every grid shape.
//
// The server sends a maze document, the generator's trace, the solver's walk and the grid's
// drawing geometry (see mazekit/web/geometry.py); this file replays them on a canvas, the
// way `mazekit play` does: walls stand where a cell's side is closed, cells take colour
// classes (current red, frontier amber, stack blue, explored and backtracked tints).
"use strict";
(() => {
  // The trace's event codes, each grid's default size and walking keys come from the server
  // (api/catalogue: mazekit.trace and the grid classes), so this page keeps no copy of them.
  let EV = null;
  // Colours by key, from the server (api/catalogue "colors": the `mazekit play` window's theme,
  // and the stack of `mazekit animate`), the theme as the address says (?theme=dark).
  const C = {};
  let THEME = "light";
  const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const facts = (grid) => S.catalogue.grid_facts[grid];
  const sizeOf = (grid) => facts(grid).size;
  const ARROWS = { arrowup: [0, -1], arrowdown: [0, 1], arrowleft: [-1, 0], arrowright: [1, 0],
    w: [0, -1], s: [0, 1], a: [-1, 0], d: [1, 0] };
  const ARROW_COS = 0.7;

  const $ = (id) => document.getElementById(id);
  const canvas = $("maze");
  const ctx = canvas.getContext("2d");
  const S = {
    catalogue: null, data: null, geo: null, request: 0, mode: "watch", phase: "idle", paused: false,
    speed: 0, heat: false, acc: 0,
  };

  // -- options and the address bar ---------------------------------------------------------
  function randomSeed() { return Math.floor(Math.random() * 1e9); }

  function readForm() {
    const grid = $("grid").value;
    const seedText = $("seed").value.trim();
    const braid = parseFloat($("braid").value);
    return {
      algorithm: $("algorithm").value, grid,
      size: $("size").value.trim() || sizeOf(grid),
      seed: seedText === "" ? null : Number(seedText),
      braid: braid > 0 ? braid : null,
      wrap: grid === "rect" && $("wrap").value ? $("wrap").value : null,
      ends: $("ends").value, solver: $("solver").value,
    };
  }

  function mazeQuery(o) {
    const q = new URLSearchParams();
    q.set("algorithm", o.algorithm); q.set("grid", o.grid); q.set("size", o.size);
    if (o.seed !== null) q.set("seed", String(o.seed));
    if (o.braid) q.set("braid", String(o.braid));
    if (o.wrap) q.set("wrap", o.wrap);
    if (o.ends && o.ends !== "corners") q.set("ends", o.ends);
    return q;
  }

  function pageQuery(o) {
    const q = mazeQuery(o);
    q.set("solver", o.solver);
    if (S.speed) q.set("speed", String(S.speed));
    if (S.mode === "play") q.set("mode", "play");
    if (S.heat) q.set("heatmap", "1");
    if (THEME !== "light") q.set("theme", THEME);
    if (S.palette) q.set("palette", S.palette);
    return q;
  }

  function applyUrl() {
    const q = new URLSearchParams(location.search);
    const grid = q.get("grid");
    if (grid && S.catalogue.grids.includes(grid)) $("grid").value = grid;
    const alg = q.get("algorithm");
    const solver = q.get("solver");
    $("size").value = q.get("size") || sizeOf($("grid").value);
    $("seed").value = q.get("seed") || String(randomSeed());
    $("braid").value = q.get("braid") || "0";
    $("braid-value").textContent = $("braid").value;
    setSelect("wrap", q.get("wrap") || "");
    setSelect("ends", q.get("ends") || "corners");
    fillChoices();
    if (alg) setSelect("algorithm", alg);
    if (solver) setSelect("solver", solver);
    // no speed asked for, and the reader asks for less motion: the animations run fast
    const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const speed = parseInt(q.get("speed") || (still ? "8" : "0"), 10);
    setSpeed(Number.isFinite(speed) ? speed : 0);
    S.heat = q.get("heatmap") === "1";
    $("heatmap").checked = S.heat;
    S.wantPlay = q.get("mode") === "play";
  }

  function setSelect(id, value) {
    const el = $(id);
    const opt = [...el.options].find((o) => o.value === value);
    if (opt && !opt.disabled) el.value = value;
  }

  function fillChoices() {
    const grid = $("grid").value;
    $("wrap-label").hidden = grid !== "rect";
    const wrapped = grid === "rect" && $("wrap").value !== "";
    for (const [id, list] of [["algorithm", S.catalogue.generators], ["solver", S.catalogue.solvers]]) {
      const el = $(id);
      const keep = el.value;
      el.textContent = "";
      for (const item of list) {
        const opt = document.createElement("option");
        opt.value = item.name;
        opt.textContent = item.name.replaceAll("_", " ");
        opt.title = item.summary;
        opt.disabled = !item.grids.includes(grid) || (wrapped && (item.rect_only || item.flat_only));
        el.appendChild(opt);
      }
      const fallback = id === "solver" ? "dfs" : "backtracker";
      const ok = (name) => [...el.options].some((o) => o.value === name && !o.disabled);
      el.value = ok(keep) ? keep : ok(fallback) ? fallback : [...el.options].find((o) => !o.disabled).value;
    }
    $("grid-keys").textContent = facts(grid).help.map((line) => line.replace("\tplay: ", ": ").replace("\t", ": ")).join("; ");
  }

  // -- talking to the server ---------------------------------------------------------------
  async function api(path, body) {
    return reply(await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(body) }));
  }

  // A file as it is (a picture, text art, .npz), for the server to read as mazekit solve does.
  async function readUpload(file) {
    return reply(await fetch(`api/read?name=${encodeURIComponent(file.name)}`, { method: "POST", body: file }));
  }

  async function reply(r) {
    let data = null;
    try { data = await r.json(); } catch (err) { data = { detail: `${r.status} ${r.statusText}` }; }
    if (!r.ok) throw new Error(typeof data.detail === "string" ? data.detail : `${r.status} ${r.statusText}`);
    return data;
  }

  // ?palette=path=orange,background=%23203040: colours by the keys every mazekit command
  // takes (`mazekit info colors`; "road" is "background"); the page draws those it has.
  function applyPalette(text) {
    if (!text) return "";
    const given = {};
    for (const pair of text.match(/(?:[^,(]|\([^)]*\))+/g) || []) { // commas, not inside rgb(...)
      const at = pair.indexOf("=");
      const key = at > 0 ? pair.slice(0, at).trim() : pair.trim();
      const value = at > 0 ? pair.slice(at + 1).trim() : "";
      const name = S.catalogue.color_aliases[key] || key;
      if (!S.catalogue.color_keys.includes(name) || !value || !CSS.supports("color", value)) {
        return `palette: ${pair} is not KEY=COLOUR with a key of: ${S.catalogue.color_keys.join(", ")}`;
      }
      given[name === "background" ? "road" : name] = value;
    }
    Object.assign(C, given); // all or nothing: a bad pair leaves the theme's colours
    S.palette = text;
    return "";
  }

  function showError(text) {
    const el = $("error");
    el.textContent = text || "";
    el.hidden = !text;
  }

  async function generate() {
    const o = readForm(); // the server checks the size, in the grid's own words
    if (o.seed === null || !Number.isInteger(o.seed) || o.seed < 0) {
      o.seed = randomSeed();
      $("seed").value = String(o.seed);
    }
    const id = ++S.request;
    showError("");
    const before = S.phase;
    setPhase("loading", "generating…");
    let data;
    const body = { algorithm: o.algorithm, grid: o.grid, size: o.size, seed: o.seed,
      braid: o.braid, wrap: o.wrap, ends: o.ends, trace: true, geometry: true, solver: o.solver };
    try {
      const { problem } = await api("api/check", body); // the server's own check, nothing made yet
      if (problem) throw new Error(problem);
      data = await api("api/generate", body);
    } catch (err) {
      if (id === S.request) { showError(err.message); setPhase(S.data ? before : "error", S.data ? null : "no maze"); }
      return;
    }
    if (id !== S.request) return; // a newer request is on its way
    S.options = o;
    load(data);
    history.replaceState(null, "", `?${pageQuery(o)}`);
    updateLinks();
    if (S.wantPlay) { S.wantPlay = false; enterPlay(); }
  }

  // A maze opened from a file has no options to put in a link: its downloads are drawn
  // from the document itself (POST /api/render) and saved from a blob.
  async function openFile(file) {
    if (!file) return;
    showError("");
    const limit = S.catalogue.limits.max_body_bytes;
    if (file.size > limit) {
      showError(`this server reads maze files of at most ${limit.toLocaleString("en")} bytes; ` +
        `${file.name} has ${file.size.toLocaleString("en")}`);
      return;
    }
    let doc = null;
    if (/\.json$/i.test(file.name)) {
      try { doc = JSON.parse(await file.text()); } catch (err) {
        showError(`${file.name} is not a maze file: save one with mazekit generate -o maze.json`);
        return;
      }
    }
    const id = ++S.request;
    const before = S.phase;
    setPhase("loading", doc ? "solving…" : "reading…");
    let data;
    try {
      if (!doc) { // a picture, text art or .npz: the server reads it as mazekit solve does
        doc = (await readUpload(file)).maze;
        if (id !== S.request) return;
        setPhase("loading", "solving…");
      }
      data = await api("api/solve", { maze: doc, solver: $("solver").value, geometry: true });
    } catch (err) {
      if (id === S.request) { showError(`${file.name}: ${err.message}`); setPhase(S.data ? before : "error"); }
      return;
    }
    if (id !== S.request) return;
    S.options = { uploaded: file.name, solver: $("solver").value, grid: data.maze.grid.type };
    load({ maze: data.maze, geometry: data.geometry, solution: data.solution, trace: [] });
    history.replaceState(null, "", location.pathname);
    updateLinks();
  }

  async function downloadUploaded(link) {
    const fmt = link.dataset.format, answer = link.dataset.answer === "1";
    const heat = S.heat && (fmt === "png" || fmt === "svg");
    try {
      const r = await fetch("api/render", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ maze: S.data.maze, format: fmt, solver: answer ? S.options.solver : null,
          heatmap: heat }) });
      if (!r.ok) {
        let detail = `${r.status} ${r.statusText}`;
        try { detail = (await r.json()).detail; } catch (err) { /* not JSON */ }
        showError(detail);
        return;
      }
      const url = URL.createObjectURL(await r.blob());
      const save = document.createElement("a");
      const stem = S.options.uploaded.replace(/\.[a-z0-9]+$/i, "");
      save.href = url;
      save.download = `${stem}${answer && fmt === "png" ? "-answer" : ""}.${fmt}`;
      document.body.appendChild(save);
      save.click();
      save.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30000);
    } catch (err) {
      showError(`download failed: ${err.message}`);
    }
  }

  function updateLinks() {
    const o = S.options;
    if (!o) return;
    if (o.uploaded) {
      for (const a of document.querySelectorAll("#downloads a")) a.href = "#";
      $("dl-gif").toggleAttribute("hidden", !(S.geo.size <= S.catalogue.limits.max_gif_cells));
      return;
    }
    const q = mazeQuery(o);
    const withSolver = new URLSearchParams(q); withSolver.set("solver", o.solver);
    const heat = S.heat ? "&heatmap=true" : "";
    $("dl-png").href = `api/maze.png?${q}${heat}`;
    $("dl-answer").href = `api/maze.png?${withSolver}${heat}`;
    $("dl-svg").href = `api/maze.svg?${q}${heat}`;
    $("dl-pdf").href = `api/maze.pdf?${withSolver}`;
    $("dl-json").href = `api/maze.json?${q}`;
    $("dl-gif").href = `api/maze.gif?${withSolver}`;
    const gifOk = S.geo && S.geo.size <= S.catalogue.limits.max_gif_cells;
    $("dl-gif").toggleAttribute("hidden", !gifOk);
  }

  // -- the maze in memory ------------------------------------------------------------------
  function decodePassages(doc, geo) {
    const digits = geo.n_slots > 4 ? 2 : 1;
    const out = new Uint8Array(geo.size);
    doc.passages.forEach((row, r) => {
      for (let c = 0; c < geo.cols; c++) out[r * geo.cols + c] = parseInt(row.substr(c * digits, digits), 16);
    });
    return out;
  }

  function load(data) {
    const g = data.geometry;
    S.data = data; S.geo = g;
    S.exists = g.exists ? Uint8Array.from(g.exists) : null;
    S.final = decodePassages(data.maze, g);
    S.trace = Int32Array.from(data.trace || []);
    S.genN = S.trace.length / 3;
    // a generator shows a stack when it backtracks from every cell once (a stack or active
    // list), as mazekit.replay.Replay.of_generation decides
    let backtracks = 0;
    for (let i = 1; i < S.trace.length; i += 3) if (S.trace[i] === EV.BACKTRACK) backtracks++;
    S.usesStack = backtracks >= (S.exists ? S.exists.reduce((a, b) => a + b, 0) : g.size);
    const sol = data.solution;
    S.solTrace = Int32Array.from(sol ? sol.trace : []);
    S.solN = S.solTrace.length / 3;
    S.path = sol && sol.found ? sol.path.map(([r, c]) => r * g.cols + c) : [];
    S.pathLines = sol && sol.found ? sol.lines : [];
    S.pathPoints = S.pathLines.reduce((n, pts) => n + pts.length / 2, 0);
    S.start = data.maze.start[0] * g.cols + data.maze.start[1];
    S.goal = data.maze.goal[0] * g.cols + data.maze.goal[1];
    S.regionPaths = packedPaths(g.regions, true);
    S.triPaths = packedPaths(g.tris, true);
    buildIndex();
    S.wallW = g.kind === "rect" ? 0.16 : 0.12;
    S.distStart = bfs(S.start);
    S.distGoal = bfs(S.goal);
    S.maxStart = S.distStart.reduce((a, b) => Math.max(a, b), 1);
    const m = data.maze;
    const found = sol && sol.found ? `${sol.solver}: path ${sol.length} steps, ${sol.explored} cells explored`
      : sol ? `${sol.solver} found no path` : "";
    const made = S.options.uploaded ? `${S.options.uploaded} · ${m.algorithm || "maze"} · ${g.kind} grid`
      : `${m.algorithm} · ${g.kind} ${S.options.size} · seed ${m.seed}` + (S.options.braid ? ` · braid ${S.options.braid}` : "");
    $("summary").textContent = made + (found ? ` · ${found}` : "");
    resize();
    restart();
  }

  // Shapes sent as one coordinate list and where each starts (geometry.packed).
  function packedPaths(shapes, close) {
    const out = [];
    const { xy, start } = shapes;
    for (let i = 0; i < start.length; i++) {
      const a = 2 * start[i], b = i + 1 < start.length ? 2 * start[i + 1] : xy.length;
      const p = new Path2D();
      p.moveTo(xy[a], xy[a + 1]);
      for (let j = a + 2; j < b; j += 2) p.lineTo(xy[j], xy[j + 1]);
      if (close) p.closePath();
      out.push(p);
    }
    return out;
  }

  function neighbour(c, slot) {
    const nb = S.geo.nb[c * S.geo.n_slots + slot];
    return nb >= 0 && (!S.exists || S.exists[nb]) ? nb : -1;
  }

  function bfs(from) {
    const g = S.geo;
    const dist = new Int32Array(g.size).fill(-1);
    const queue = new Int32Array(g.size);
    let head = 0, tail = 0;
    dist[from] = 0; queue[tail++] = from;
    while (head < tail) {
      const c = queue[head++];
      for (let s = 0; s < g.n_slots; s++) {
        if (!((S.final[c] >> s) & 1)) continue;
        const nb = neighbour(c, s);
        if (nb >= 0 && dist[nb] < 0) { dist[nb] = dist[c] + 1; queue[tail++] = nb; }
      }
    }
    return dist;
  }

  // -- the animation -----------------------------------------------------------------------
  function restart() {
    const g = S.geo;
    if (!g) return;
    const open = S.data.starts_open && S.data.open_room;
    S.passages = open ? Uint8Array.from(S.data.open_room) : new Uint8Array(g.size);
    S.level = new Uint8Array(g.size).fill(open ? 2 : 0);
    S.stack = new Uint8Array(g.size);
    S.explored = new Uint8Array(g.size);
    S.genPos = 0; S.solPos = 0; S.pathPos = 0; S.acc = 0;
    S.current = -1; S.head = -1;
    S.mode = "watch";
    $("mode").setAttribute("aria-pressed", "false");
    $("hint").disabled = true; $("give-up").disabled = true;
    $("message").textContent = "";
    $("timer").textContent = ""; $("moves").textContent = "";
    if (S.genN > 0) setPhase("generating");
    else finishGeneration();
    S.full = true;
  }

  function finishGeneration() {
    S.passages = Uint8Array.from(S.final);
    S.level.fill(2); S.stack.fill(0);
    S.genPos = S.genN; S.current = -1;
    if (S.solN > 0) setPhase("solving");
    else if (S.path.length) setPhase("path");
    else setPhase("done");
  }

  function enter(c) { S.level[c] = 2; if (S.usesStack) S.stack[c] = 1; }

  // One trace event, by the rules of mazekit.replay.transition (level 0 unvisited, 1 frontier,
  // 2 in the maze; stack marks the in-maze cells on a generator's stack).
  function applyGen(i) {
    const t = S.trace, c = t[3 * i], ev = t[3 * i + 1], slot = t[3 * i + 2];
    const p = S.passages;
    let nb = -1;
    if (slot >= 0) nb = neighbour(c, slot);
    const fresh = S.level[c] < 2;
    if (ev === EV.CARVE || ev === EV.OPEN || ev === EV.CLOSE) {
      if (nb >= 0) {
        const back = S.geo.back[c * S.geo.n_slots + slot];
        if (ev === EV.CLOSE) { p[c] &= ~(1 << slot); if (back >= 0) p[nb] &= ~(1 << back); }
        else { p[c] |= 1 << slot; if (back >= 0) p[nb] |= 1 << back; }
      }
      if (ev === EV.CLOSE && slot < 0) { S.level[c] = 0; S.stack[c] = 0; }
      if (ev !== EV.CLOSE) { if (fresh) enter(c); if (nb >= 0 && S.level[nb] < 2) enter(nb); }
    } else if (ev === EV.VISIT) { if (fresh) enter(c); }
    else if (ev === EV.BACKTRACK) { S.level[c] = 2; S.stack[c] = 0; }
    else if (ev === EV.FRONTIER && S.level[c] === 0) S.level[c] = 1;
    touch(S.current); touch(c); touch(nb);
    if (S.geo.tunnels && slot >= 4 && nb >= 0) touch(neighbour(c, slot - 4)); // the cell it passes under
    S.current = c;
  }

  function applySolve(i) {
    const t = S.solTrace, c = t[3 * i], ev = t[3 * i + 1];
    if (c < 0 || c >= S.geo.size) return;
    if (ev === EV.VISIT) S.explored[c] = 1; // as mazekit.replay.transition: explored again
    else if (ev === EV.BACKTRACK) S.explored[c] = 2;
    touch(S.head); touch(c);
    S.head = c;
  }

  function rate() {
    const n = S.phase === "generating" ? S.genN : S.phase === "solving" ? S.solN : S.path.length * 4;
    return Math.max(1, n / 240) * 2 ** S.speed;
  }

  function advance(count) {
    let left = count;
    while (left > 0) {
      if (S.phase === "generating") {
        const end = Math.min(S.genN, S.genPos + left);
        for (let i = S.genPos; i < end; i++) applyGen(i);
        left -= end - S.genPos; S.genPos = end;
        if (S.genPos >= S.genN) finishGeneration();
      } else if (S.phase === "solving") {
        const end = Math.min(S.solN, S.solPos + left);
        for (let i = S.solPos; i < end; i++) applySolve(i);
        left -= end - S.solPos; S.solPos = end;
        if (S.solPos >= S.solN) { S.head = -1; setPhase(S.path.length ? "path" : "done"); }
      } else if (S.phase === "path") {
        const end = Math.min(S.path.length, S.pathPos + left);
        left -= end - S.pathPos; S.pathPos = end;
        if (S.pathPos >= S.path.length) setPhase("done");
      } else break;
    }
  }

  function frame(now) {
    if (!S.paused && ["generating", "solving", "path"].includes(S.phase)) {
      S.acc += rate();
      const k = Math.floor(S.acc);
      S.acc -= k;
      if (k > 0) advance(k);
    }
    if (S.mode === "play" && S.t0 !== null && S.phase === "playing") showTimer(now);
    draw();
    requestAnimationFrame(frame);
  }

  const PHASE_TEXT = {
    loading: "generating…", generating: "carving", solving: "solving", path: "drawing the path",
    playing: "your turn: walk to the blue cell", won: "solved by you", "gave-up": "the answer", error: "error",
  };

  function setPhase(phase, text) {
    S.phase = phase;
    const el = $("status");
    el.dataset.phase = phase;
    let words = text || PHASE_TEXT[phase] || phase;
    if (phase === "done") {
      const sol = S.data && S.data.solution;
      words = sol && sol.found ? `solved: ${sol.solver} found a path of ${sol.length} steps after exploring ${sol.explored} cells`
        : sol ? `${sol.solver} found no path` : "done";
    }
    $("phase").textContent = words;
    S.full = true;
    $("pause").textContent = S.paused ? "Play" : "Pause";
  }

  // -- drawing -----------------------------------------------------------------------------
  function resize() {
    const g = S.geo;
    if (!g) return;
    const stage = $("stage");
    const availW = Math.max(200, stage.clientWidth);
    const availH = Math.max(240, window.innerHeight * 0.72);
    const w = g.width + S.wallW, h = g.height + S.wallW;
    const k = Math.max(2, Math.min(availW / w, availH / h, 60));
    const cssW = Math.floor(w * k), cssH = Math.floor(h * k);
    const dpr = window.devicePixelRatio || 1;
    canvas.style.width = `${cssW}px`; canvas.style.height = `${cssH}px`;
    canvas.width = Math.round(cssW * dpr); canvas.height = Math.round(cssH * dpr);
    S.kCss = k; S.padCss = (S.wallW / 2) * k;
    S.k = k * dpr; S.pad = S.padCss * dpr;
    S.full = true;
  }

  function sideBits(c) {
    const p = S.passages[c];
    return S.geo.tunnels ? (p | (p >> 4)) & 15 : p;
  }

  function heatColor(c) {
    const d = S.distStart[c];
    if (d < 0) return C.unvisited;
    const t = (d / S.maxStart) * (VIRIDIS.length - 1);
    const i = Math.min(VIRIDIS.length - 2, Math.floor(t)), f = t - i;
    const a = VIRIDIS[i], b = VIRIDIS[i + 1];
    return `rgb(${Math.round(a[0] + (b[0] - a[0]) * f)},${Math.round(a[1] + (b[1] - a[1]) * f)},${Math.round(a[2] + (b[2] - a[2]) * f)})`;
  }

  function fillOf(c) {
    if (S.phase === "generating" || S.phase === "loading") {
      if (c === S.current) return C.current;
      if (S.level[c] === 0) return C.unvisited;
      if (S.level[c] === 1) return C.frontier;
      return S.stack[c] ? C.stack : C.road;
    }
    if (c === S.start) return C.start;
    if (c === S.goal) return C.goal;
    if (S.final[c] === 0) return C.wall; // rock: a cell no passage reaches
    if (S.mode === "play") {
      if (c === S.hint) return C.hint;
      if (S.heat) return heatColor(c);
      return S.trail[c] ? C.trail : C.road;
    }
    if (S.heat) return heatColor(c);
    if (S.explored[c] === 2) return C.backtracked;
    if (S.explored[c] === 1) return C.explored;
    return C.road;
  }

  function stands(kind, c, slot, other) {
    const K = S.geo.item_kinds;
    const bits = S.passages;
    if (kind === K.always) return true;
    if (kind === K.opening) return S.phase === "generating";
    if (kind === K.closed) return !((sideBits(c) >> slot) & 1);
    if (kind === K.corridor) {
      if ((sideBits(c) >> slot) & 1) return true;
      return other >= 0 && ((bits[other] >> (5 + (slot % 2 === 0 ? 1 : 0))) & 1) === 1;
    }
    const up = (bits[c] >> 4) & 1, down = (bits[c] >> 5) & 1;
    if (kind === K.up) return up === 1 && down === 0;
    if (kind === K.down) return up === 0 && down === 1;
    return up === 1 && down === 1; // up_both, down_both
  }

  function center(c) { return [S.geo.centers[2 * c], S.geo.centers[2 * c + 1]]; }

  // -- what a repaint of one cell has to draw: a bucket grid over the drawing --------------
  // Redrawing every cell and wall each frame costs a tenth of a second on a big maze in a
  // software-rendered browser, so a frame repaints only the boxes of the cells that changed,
  // clipped, with the regions, walls and stairs that reach into them.
  function bboxes(shapes) {
    const { xy, start } = shapes, n = start.length, out = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      const a = 2 * start[i], b = i + 1 < n ? 2 * start[i + 1] : xy.length;
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let j = a; j < b; j += 2) {
        x0 = Math.min(x0, xy[j]); x1 = Math.max(x1, xy[j]); y0 = Math.min(y0, xy[j + 1]); y1 = Math.max(y1, xy[j + 1]);
      }
      out.set([x0, y0, x1, y1], 4 * i);
    }
    return out;
  }

  function buildIndex() {
    const g = S.geo;
    S.bw = Math.max(1, Math.ceil(g.width) + 1); S.bh = Math.max(1, Math.ceil(g.height) + 1);
    const buckets = Array.from({ length: S.bw * S.bh }, () => ({ r: [], l: [], t: [] }));
    const add = (boxes, key) => {
      for (let i = 0; i < boxes.length / 4; i++) {
        const [bx0, by0, bx1, by1] = cover(boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3]);
        for (let y = by0; y <= by1; y++) for (let x = bx0; x <= bx1; x++) buckets[y * S.bw + x][key].push(i);
      }
    };
    const regionBoxes = bboxes(g.regions);
    add(regionBoxes, "r"); add(bboxes(g.lines), "l"); add(bboxes(g.tris), "t");
    S.buckets = buckets;
    S.cellBox = new Float64Array(4 * g.size).fill(NaN);
    for (let i = 0; i < g.region_cell.length; i++) {
      const c = g.region_cell[i], b = S.cellBox;
      if (Number.isNaN(b[4 * c])) b.set(regionBoxes.subarray(4 * i, 4 * i + 4), 4 * c);
      else {
        b[4 * c] = Math.min(b[4 * c], regionBoxes[4 * i]); b[4 * c + 1] = Math.min(b[4 * c + 1], regionBoxes[4 * i + 1]);
        b[4 * c + 2] = Math.max(b[4 * c + 2], regionBoxes[4 * i + 2]); b[4 * c + 3] = Math.max(b[4 * c + 3], regionBoxes[4 * i + 3]);
      }
    }
    S.stampR = new Uint32Array(g.regions.start.length);
    S.stampL = new Uint32Array(g.lines.start.length);
    S.stampT = new Uint32Array(g.tris.start.length);
    S.stamp = 0;
    S.dirtyList = []; S.dirtyMark = new Uint8Array(g.size);
  }

  function cover(x0, y0, x1, y1) {
    const m = 0.5;
    return [Math.max(0, Math.floor(x0 - m)), Math.max(0, Math.floor(y0 - m)),
      Math.min(S.bw - 1, Math.floor(x1 + m)), Math.min(S.bh - 1, Math.floor(y1 + m))];
  }

  function touch(c) {
    if (c === undefined || c < 0 || !S.dirtyMark || S.dirtyMark[c]) return;
    S.dirtyMark[c] = 1;
    S.dirtyList.push(c);
  }

  function draw() {
    if (!S.geo) return;
    if (S.full || S.dirtyList.length > S.geo.size / 3) drawAll();
    else if (S.dirtyList.length) {
      ctx.setTransform(S.k, 0, 0, S.k, S.pad, S.pad);
      for (const c of S.dirtyList) repaint(c);
      drawOverlays(true);
    } else if (S.phase === "path") drawOverlays(true);
    for (const c of S.dirtyList) S.dirtyMark[c] = 0;
    S.dirtyList = [];
    S.full = false;
  }

  function drawAll() {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = C.road;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(S.k, 0, 0, S.k, S.pad, S.pad);
    const g = S.geo;
    const all = (n) => Array.from({ length: n }, (_, i) => i);
    paintRegions(all(S.regionPaths.length));
    paintWalls(all(g.lines.start.length), all(S.triPaths.length));
    S.pathDrawn = 0;
    drawOverlays(false);
  }

  function repaint(c) {
    const b = S.cellBox;
    if (Number.isNaN(b[4 * c])) return;
    const m = S.wallW + 2 / S.k;
    // the box on whole device pixels: a clip edge through a pixel would blend it twice
    const snap = (v, round) => (round((v * S.k + S.pad)) - S.pad) / S.k;
    const x0 = snap(b[4 * c] - m, Math.floor), y0 = snap(b[4 * c + 1] - m, Math.floor);
    const x1 = snap(b[4 * c + 2] + m, Math.ceil), y1 = snap(b[4 * c + 3] + m, Math.ceil);
    const [bx0, by0, bx1, by1] = cover(x0, y0, x1, y1);
    const stamp = ++S.stamp;
    const regions = [], lines = [], tris = [];
    for (let y = by0; y <= by1; y++) {
      for (let x = bx0; x <= bx1; x++) {
        const bucket = S.buckets[y * S.bw + x];
        for (const i of bucket.r) if (S.stampR[i] !== stamp) { S.stampR[i] = stamp; regions.push(i); }
        for (const i of bucket.l) if (S.stampL[i] !== stamp) { S.stampL[i] = stamp; lines.push(i); }
        for (const i of bucket.t) if (S.stampT[i] !== stamp) { S.stampT[i] = stamp; tris.push(i); }
      }
    }
    ctx.save();
    ctx.beginPath();
    ctx.rect(x0, y0, x1 - x0, y1 - y0);
    ctx.clip();
    ctx.fillStyle = C.road;
    ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
    regions.sort((a, b2) => a - b2);
    paintRegions(regions);
    paintWalls(lines, tris);
    ctx.restore();
  }

  function paintRegions(list) {
    const g = S.geo;
    ctx.lineJoin = "round"; ctx.lineCap = "round";
    ctx.lineWidth = 1.2 / S.k; // hides the seams between cells of one colour
    for (const i of list) {
      const c = g.region_cell[i], side = g.region_side[i];
      if (side >= 0 && !((sideBits(c) >> side) & 1)) continue;
      const color = fillOf(c);
      ctx.fillStyle = color; ctx.strokeStyle = color;
      ctx.fill(S.regionPaths[i]); ctx.stroke(S.regionPaths[i]);
    }
  }

  function paintWalls(lines, tris) {
    const g = S.geo, it = g.items, { xy, start } = g.lines;
    ctx.beginPath();
    for (const i of lines) {
      if (!stands(it[4 * i], it[4 * i + 1], it[4 * i + 2], it[4 * i + 3])) continue;
      const a = 2 * start[i], b = i + 1 < start.length ? 2 * start[i + 1] : xy.length;
      ctx.moveTo(xy[a], xy[a + 1]);
      for (let j = a + 2; j < b; j += 2) ctx.lineTo(xy[j], xy[j + 1]);
    }
    ctx.lineJoin = "round"; ctx.lineCap = "round";
    ctx.strokeStyle = C.wall; ctx.lineWidth = Math.max(S.wallW, 1.5 / S.k);
    ctx.stroke();
    ctx.fillStyle = C.wall;
    const ti = g.tri_items;
    for (const i of tris) {
      if (stands(ti[4 * i], ti[4 * i + 1], ti[4 * i + 2], ti[4 * i + 3])) ctx.fill(S.triPaths[i]);
    }
  }

  function drawOverlays(incremental) {
    const showPath = S.mode === "watch" ? ["path", "done"].includes(S.phase) : S.phase === "gave-up";
    if (showPath) {
      const upto = S.mode === "watch" ? S.pathPos : S.path.length;
      const shown = S.path.length ? Math.round((S.pathPoints * Math.min(upto, S.path.length)) / S.path.length) : 0;
      // a repaint may have wiped part of the line: draw it all again, else only what is new
      const from = incremental && !S.dirtyList.length ? S.pathDrawn : 0;
      if (shown > from) drawPathPoints(from, shown);
      S.pathDrawn = shown;
    }
    if (S.mode === "watch" && S.phase === "solving" && S.head >= 0) dot(S.head, C.head, 0.28);
    if (S.mode === "play") dot(S.player, C.player, 0.3);
  }

  // Points ``from`` to ``to`` of the server's path line (through the openings, over wraps,
  // under crossings), counted over its pieces; starts one point early to join on.
  function drawPathPoints(from, to) {
    ctx.beginPath();
    let seen = 0;
    for (const pts of S.pathLines) {
      const n = pts.length / 2;
      const a = Math.max(from - 1, seen), b = Math.min(to, seen + n);
      if (b - a >= 2) {
        const j0 = a - seen;
        ctx.moveTo(pts[2 * j0], pts[2 * j0 + 1]);
        for (let j = j0 + 1; j < b - seen; j++) ctx.lineTo(pts[2 * j], pts[2 * j + 1]);
      }
      seen += n;
      if (seen >= to) break;
    }
    ctx.lineJoin = "round"; ctx.lineCap = "round";
    ctx.strokeStyle = C.path;
    ctx.lineWidth = S.geo.kind === "rect" ? 0.36 : 0.3;
    ctx.stroke();
  }

  function dot(c, color, r) {
    if (c < 0) return;
    const [x, y] = center(c);
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = color;
    ctx.fill();
  }

  // -- play mode ---------------------------------------------------------------------------
  function enterPlay() {
    if (!S.geo) return;
    S.passages = Uint8Array.from(S.final);
    S.level.fill(2); S.current = -1; S.head = -1;
    S.mode = "play";
    S.player = S.start; S.moves = 0; S.t0 = null; S.hint = -1;
    S.trail = new Uint8Array(S.geo.size); S.trail[S.start] = 1;
    $("mode").setAttribute("aria-pressed", "true");
    $("hint").disabled = false; $("give-up").disabled = false;
    $("message").textContent = "";
    $("timer").textContent = "0.0 s"; $("moves").textContent = "0 moves";
    setPhase("playing");
    if (S.player === S.goal) win();
    syncUrl();
    S.full = true;
  }

  function leavePlay() {
    S.mode = "watch";
    $("mode").setAttribute("aria-pressed", "false");
    $("hint").disabled = true; $("give-up").disabled = true;
    $("message").textContent = "";
    S.pathPos = S.path.length; S.solPos = S.solN; S.head = -1;
    setPhase("done");
    syncUrl();
    S.full = true;
  }

  function showTimer(now) {
    const t = ((S.t1 || now) - S.t0) / 1000;
    $("timer").textContent = `${t.toFixed(1)} s`;
  }

  function walkSlot(slot) {
    if (S.mode !== "play" || S.phase !== "playing") return false;
    if (!((S.passages[S.player] >> slot) & 1)) return false;
    const nb = neighbour(S.player, slot);
    if (nb < 0) return false;
    if (S.t0 === null) { S.t0 = performance.now(); S.t1 = null; }
    touch(S.player); touch(nb); touch(S.hint);
    S.player = nb; S.moves += 1; S.trail[nb] = 1; S.hint = -1;
    $("moves").textContent = `${S.moves} move${S.moves === 1 ? "" : "s"}`;
    if (nb === S.goal) win();
    return true;
  }

  function walkTowards(dx, dy) {
    const g = S.geo, c = S.player;
    let best = -1, bestCos = -2;
    for (let s = 0; s < g.n_slots; s++) {
      const x = g.dirs[2 * (c * g.n_slots + s)], y = g.dirs[2 * (c * g.n_slots + s) + 1];
      if (x === null || !((S.passages[c] >> s) & 1)) continue;
      const cos = x * dx + y * dy;
      if (cos > bestCos) { bestCos = cos; best = s; }
    }
    if (best >= 0 && bestCos > ARROW_COS) walkSlot(best);
  }

  function walkNames(names) {
    for (const name of names) {
      const s = S.geo.slot_names.indexOf(name);
      if (s >= 0 && (S.passages[S.player] >> s) & 1) { walkSlot(s); return; }
    }
  }

  function win() {
    $("hint").disabled = true; $("give-up").disabled = true;
    S.t1 = performance.now();
    if (S.t0 === null) S.t0 = S.t1;
    showTimer(S.t1);
    setPhase("won");
    const best = S.distStart[S.goal];
    const extra = S.moves === best ? "the shortest way!" : `the shortest way is ${best}`;
    $("message").textContent = `You made it! ${S.moves} moves in ${((S.t1 - S.t0) / 1000).toFixed(1)} s — ${extra}`;
  }

  function giveUp() {
    if (S.mode !== "play" || S.phase !== "playing") return;
    setPhase("gave-up");
    const sol = S.data.solution;
    $("message").textContent = sol && sol.found ? `The way (${sol.solver}): ${sol.length} steps` : "No way to the goal";
    $("hint").disabled = true; $("give-up").disabled = true;
  }

  function hint() {
    if (S.mode !== "play" || S.phase !== "playing") return;
    const g = S.geo, c = S.player, d = S.distGoal;
    for (let s = 0; s < g.n_slots; s++) {
      const nb = neighbour(c, s);
      if (nb >= 0 && (S.passages[c] >> s) & 1 && d[nb] === d[c] - 1) { touch(S.hint); S.hint = nb; touch(nb); break; }
    }
  }

  function tapAt(clientX, clientY) {
    if (S.mode !== "play" || S.phase !== "playing") return;
    const rect = canvas.getBoundingClientRect();
    const x = (clientX - rect.left - S.padCss) / S.kCss, y = (clientY - rect.top - S.padCss) / S.kCss;
    const g = S.geo, c = S.player;
    const [cx, cy] = center(c);
    let best = -1, bestD = Math.hypot(x - cx, y - cy);
    for (let s = 0; s < g.n_slots; s++) {
      const nb = neighbour(c, s);
      if (nb < 0 || !((S.passages[c] >> s) & 1)) continue;
      const [nx, ny] = center(nb);
      const d = Math.hypot(x - nx, y - ny);
      if (d < bestD && d < 1.2) { bestD = d; best = s; }
    }
    if (best >= 0) walkSlot(best);
  }

  // -- controls ----------------------------------------------------------------------------
  function togglePause() {
    S.paused = !S.paused;
    $("pause").textContent = S.paused ? "Play" : "Pause";
    $("pause").setAttribute("aria-pressed", String(S.paused));
  }

  function step() {
    if (!S.paused) togglePause();
    if (S.mode === "watch") advance(1);
  }

  function setSpeed(v) {
    S.speed = Math.max(-4, Math.min(8, v));
    $("speed").value = String(S.speed);
    $("speed-value").textContent = S.speed >= 0 ? `${2 ** S.speed}×` : `1/${2 ** -S.speed}×`;
    syncUrl();
  }

  function syncUrl() {
    if (S.options) history.replaceState(null, "", `?${pageQuery(S.options)}`);
  }

  function toggleHeat(on) {
    S.heat = on;
    $("heatmap").checked = on;
    updateLinks();
    syncUrl();
    S.full = true;
  }

  async function copyLink() {
    const url = location.href;
    try {
      await navigator.clipboard.writeText(url);
      $("message").textContent = "Link copied";
    } catch (err) {
      window.prompt("Copy this link:", url);
      return;
    }
    setTimeout(() => { if ($("message").textContent === "Link copied") $("message").textContent = ""; }, 1500);
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const key = e.key.toLowerCase();
    const clicking = (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") && (key === " " || key === "enter");
    if (clicking) return;
    if (S.mode === "play" && S.phase === "playing") {
      const table = S.geo.walk_keys; // keys that walk named slots (mazekit.game.keys.walk_keys)
      if (table && table[key]) { walkNames(table[key]); e.preventDefault(); return; }
      if (ARROWS[key]) { walkTowards(...ARROWS[key]); e.preventDefault(); return; }
    }
    const actions = {
      " ": togglePause, ".": step, r: restart, p: () => (S.mode === "play" ? leavePlay() : enterPlay()),
      h: hint, g: giveUp, m: () => toggleHeat(!S.heat), n: newMaze, "+": () => setSpeed(S.speed + 1),
      "=": () => setSpeed(S.speed + 1), "-": () => setSpeed(S.speed - 1),
    };
    if (actions[key]) { actions[key](); e.preventDefault(); }
    else if (ARROWS[key] && key.startsWith("arrow") && S.mode === "play") e.preventDefault();
  }

  function newMaze() {
    $("seed").value = String(randomSeed());
    generate();
  }

  function wire() {
    $("controls").addEventListener("submit", (e) => { e.preventDefault(); generate(); });
    $("new-seed").addEventListener("click", newMaze);
    $("grid").addEventListener("change", () => {
      $("size").value = sizeOf($("grid").value);
      fillChoices();
      generate();
    });
    for (const id of ["algorithm", "solver", "ends"]) $(id).addEventListener("change", generate);
    $("wrap").addEventListener("change", () => { fillChoices(); generate(); });
    $("braid").addEventListener("input", () => { $("braid-value").textContent = $("braid").value; });
    $("braid").addEventListener("change", generate);
    $("pause").addEventListener("click", togglePause);
    $("step").addEventListener("click", step);
    $("restart").addEventListener("click", restart);
    $("speed").addEventListener("input", () => setSpeed(parseInt($("speed").value, 10)));
    $("mode").addEventListener("click", () => {
      if (S.mode === "play") leavePlay(); else enterPlay();
      canvas.focus();
    });
    $("hint").addEventListener("click", () => { hint(); canvas.focus(); });
    $("give-up").addEventListener("click", () => { giveUp(); canvas.focus(); });
    $("open").addEventListener("change", () => { openFile($("open").files[0]); $("open").value = ""; });
    $("downloads").addEventListener("click", (e) => {
      const link = e.target.closest("a");
      if (!link || !S.options || !S.options.uploaded) return;
      e.preventDefault();
      downloadUploaded(link);
    });
    $("heatmap").addEventListener("change", () => toggleHeat($("heatmap").checked));
    $("share").addEventListener("click", copyLink);
    document.addEventListener("keydown", onKey);
    let touch = null;
    canvas.addEventListener("pointerdown", (e) => { touch = { x: e.clientX, y: e.clientY }; });
    canvas.addEventListener("pointerup", (e) => {
      if (!touch) return;
      const dx = e.clientX - touch.x, dy = e.clientY - touch.y, len = Math.hypot(dx, dy);
      touch = null;
      if (len > 24) walkTowards(dx / len, dy / len);
      else tapAt(e.clientX, e.clientY);
    });
    window.addEventListener("resize", resize);
  }

  async function start() {
    wire();
    if (window.innerWidth < 600) $("options").open = false; // a phone: the maze first
    requestAnimationFrame(frame);
    try {
      const r = await fetch("api/catalogue");
      S.catalogue = await r.json();
      EV = S.catalogue.events;
      const asked = new URLSearchParams(location.search).get("theme");
      if (asked && asked in S.catalogue.colors) THEME = asked;
      Object.assign(C, S.catalogue.colors[THEME]);
    } catch (err) {
      showError("cannot reach the mazekit server");
      return;
    }
    const badColour = applyPalette(new URLSearchParams(location.search).get("palette"));
    for (const [id, names] of [["grid", S.catalogue.grids], ["ends", S.catalogue.ends]]) {
      for (const name of names) {
        const opt = document.createElement("option");
        opt.value = name; opt.textContent = name;
        $(id).appendChild(opt);
      }
    }
    applyUrl();
    await generate();
    if (badColour) showError(badColour);
  }

  // Read-only view for tests and the curious: the maze document and where the page is.
  window.mazekitPage = {
    get maze() { return S.data ? S.data.maze : null; },
    get solution() { return S.data ? S.data.solution : null; },
    get phase() { return S.phase; },
    get player() { return S.player; },
    get solveProgress() { return S.solN ? S.solPos / S.solN : 0; },
  };

  start();
})();
