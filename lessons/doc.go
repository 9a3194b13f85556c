// Package lessons embeds BufferLab's lesson material so that every program
// (the CLI, the desktop app, the browser build) carries it.
//
// scenarios/ holds scenario files (the language of engine/scenario) that
// the CLI's demo plays and that tests run headless; each must run without
// error, which TestScenariosRun checks. Markdown lessons (DESIGN §5) will
// live beside them.
package lessons

import "embed"

// Scenarios holds the files under scenarios/.
//
//go:embed scenarios/*.scn
var Scenarios embed.FS
