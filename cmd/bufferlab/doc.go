// Command bufferlab is BufferLab's command-line program.
//
//	bufferlab run [--json] [--summary] [--no-events] FILE|-
//	    Run a scenario headless: print every event, the output of its show
//	    statements and the final picture of the pool (or all of it as JSON).
//	bufferlab run --narrate FILE|-
//	    Run a scenario and print only a plain-English caption of each event
//	    (scenario.Caption, the text the player's Caption gives), one line each
//	    after its sequence number: "00044 C's CAS fails: B changed buffer
//	    0's state word first (refcount 0 → 1). C retries with the new word."
//	    When the config names several variants, each runs in turn and each
//	    line starts with its pane ("[pins=atomic] 00044 …"). It cannot be
//	    combined with --json, --summary or --no-events (exit status 2).
//	bufferlab demo [--step] [--events] [NAME]
//	    Play an embedded scenario (default clock-sweep) with its narration.
//	bufferlab list
//	    List the embedded scenarios.
//	bufferlab lessons [check [DIR] | show NAME|FILE]
//	    List the lessons, check them headless, or print one as text.
//	bufferlab serve [--addr 127.0.0.1:8080] [--dir web] [--frame-ancestors SOURCES]
//	    Serve the browser build (web/ after `make wasm`), compressed with
//	    brotli or gzip, with a Content-Security-Policy and an ETag per
//	    file, and print its URL (`serve --help` says more). Dot-paths and
//	    symbolic links leading out of --dir are not served.
//
// Exit status: 0 on success, 1 when an expect statement fails, 2 on bad
// input (a scenario error names file:line:col) or a bad command line.
package main
