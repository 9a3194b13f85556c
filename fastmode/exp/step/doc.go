// Package step is `bufferlab bench step`: what step mode costs at scale
// (issue 20), each figure measured in one run on this machine:
//
//   - step_event_ns: a traced, scheduled run's cost per event (the pool
//     experiment's step scenario, event text off as the player runs it);
//   - bytes_per_event: the heap a `bufferlab run --summary` of the
//     100k-row insert (2.9M events) keeps at its end, per event (its
//     events compact and spilled to a temporary file,
//     scenario.QuietStorage);
//   - run_ms: that run's time;
//   - touch_1m_ms: a million blocks read into a 1GB pool in step mode,
//     with the same storage;
//   - open_ms: the 100k-row insert opened in the player (viz/player: its
//     run and its timelines, keyframes made as they are first passed);
//   - seek_ms: random seeks in that player (pool and FSM views), after a
//     first seek to the end that made every keyframe;
//   - heatmap_frame_ms_128mb, heatmap_frame_ms_1gb: the pool scene's
//     layout of a zoomed-out pool (the heat map, every texel recomputed),
//     advancing 64 events a frame as `desktop --measure` does; the GPU's
//     texture upload and draw are not in it (desktop --measure times
//     those under Xvfb);
//   - wasm_br_bytes: web/bufferlab.wasm's size as `bufferlab serve` sends
//     it to a browser that takes brotli (internal/wasmsize; 0 when `make
//     wasm` has not built it). docs/wasm-size.md says where its bytes go.
//
// Medians over the harness's samples (step_event_ns) or over 3 runs (1
// with --quick); single measurements where one run is the point
// (touch_1m_ms, bytes_per_event). It is linked into `bufferlab` only, not
// into the browser build or the app's fast mode: it writes a temporary
// file and times runs of seconds.
package step
