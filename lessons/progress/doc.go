// Package progress keeps what a student has done in each lesson, across
// runs of the app: the answers given to the predict questions, the
// furthest step reached, and whether (and when) the lesson was completed.
//
// The model is Progress: a format version and one Lesson record per
// lesson name. A record's Answers are every answer given, in order; the
// first answer to a step's question is the one that counts (Score), and
// later ones (a replay, a re-answer through the JavaScript API) are kept
// beside it, so that a teacher reading the file sees every attempt. Score
// is first-try right answers out of the lesson's questions: a question
// skipped (Enter) or never reached counts as not right.
//
// Steps count from 0 (the screen, the desktop's --step and the
// #lesson=NAME&step=N permalinks call step k step k+1); choices count
// from 1, as they are shown, as the lesson files write "answer: 1" and as
// window.bufferlab.answer(c) takes them.
//
// # The file format
//
// Progress is JSON (Encode, Decode), version 1:
//
//	{
//	  "version": 1,
//	  "lessons": {
//	    "pinning": {
//	      "furthestStep": 6,
//	      "completed": true,
//	      "completedAt": "2026-03-01T10:15:00Z",
//	      "updatedAt": "2026-03-01T10:15:00Z",
//	      "answers": [
//	        {"step": 0, "choice": 2, "right": false, "at": "2026-03-01T10:01:00Z"},
//	        {"step": 0, "choice": 1, "right": true, "at": "2026-03-01T10:20:00Z"}
//	      ]
//	    }
//	  }
//	}
//
// Decode checks what it reads and never panics: text that is not JSON
// (file:line:col), a missing or unknown version, a field it does not know,
// a negative step or a choice below 1 are errors that name the file and say
// what was expected. Whether the records still fit the lessons is a
// separate question (Prune): a lesson that no longer exists, a step past
// a lesson's end or an answer to a step that no longer asks one is dropped
// with a note, since lessons change between releases and a student's file
// outlives them.
//
// # Stores
//
// A Store loads, saves and resets one Progress. FileStore keeps it in a
// file, by default DefaultPath (os.UserConfigDir()/bufferlab/progress.json):
// the directory is created 0700, and a save writes a temporary file beside
// the old one and renames it over it, so a failed or interrupted save
// leaves the old file whole. A file that cannot be read as progress is
// moved aside to PATH.corrupt, not overwritten, and the error says so.
// MemoryStore keeps it for the life of the process (tests; a browser whose
// localStorage refuses). The browser's localStorage store lives in
// cmd/wasm, which alone may use syscall/js.
//
// The package imports no Ebitengine: it runs anywhere, headless.
package progress
