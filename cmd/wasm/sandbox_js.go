//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"bufferlab/engine/scenario"
	"bufferlab/internal/permalink"
	"bufferlab/viz/app"
)

// registerSandbox adds the scenario sandbox's calls to window.bufferlab
// (web/sandbox.js is their user):
//
//	check(text)               the parser's diagnostics: [{line, col, message}], [] when none
//	openScenario(text)        run it and play it: a Promise of its diagnostics ([] when it plays)
//	cancelRun()               stop the run going on (true), if one is (false when none)
//	scenario()                the text of the scenario playing, or null
//	gallery()                 the embedded scenarios: [{name, title, text}]
//	grammar()                 the scenario language on one card
//	whatIf(text, key, value)  text with config key=value (value "": removed)
//	link()                    the fragment of a link to where the app is
//	openLessonText(name, md)  play a lesson from its Markdown: a Promise of its errors ("" when it plays)
//
// The two that run (openScenario, openLessonText) run through the gate
// (busy_js.go): one at a time, with a progress bar and Cancel.
func registerSandbox(goAPI js.Value, a *app.App, wrap func(func([]js.Value) (any, string)) js.Func) {
	str := func(args []js.Value, i int) (string, bool) {
		if len(args) <= i || args[i].Type() != js.TypeString {
			return "", false
		}
		return args[i].String(), true
	}
	goAPI.Set("check", wrap(func(args []js.Value) (any, string) {
		text, ok := str(args, 0)
		if !ok {
			return nil, "check: expected the scenario's text"
		}
		return orEmpty(diagnose(text)), ""
	}))
	goAPI.Set("openScenario", openAsync(func(args []js.Value) (any, string) {
		text, ok := str(args, 0)
		if !ok {
			return nil, "openScenario: expected the scenario's text"
		}
		if d := diagnose(text); d != nil {
			return d, ""
		}
		if err := gated(func() error { return a.OpenScenario(sandboxFile, text, 0) }); err != nil {
			return diagsOf(text, err), ""
		}
		return []diag{}, ""
	}))
	goAPI.Set("cancelRun", wrap(func([]js.Value) (any, string) { return gate.stop(), "" }))
	goAPI.Set("scenario", wrap(func([]js.Value) (any, string) {
		if s := a.ScenarioSource(); s != "" {
			return s, ""
		}
		return nil, ""
	}))
	goAPI.Set("gallery", wrap(func([]js.Value) (any, string) {
		g, err := gallery()
		if err != nil {
			return nil, err.Error()
		}
		return g, ""
	}))
	goAPI.Set("grammar", wrap(func([]js.Value) (any, string) { return scenario.Reference(), "" }))
	goAPI.Set("whatIf", wrap(func(args []js.Value) (any, string) {
		text, ok1 := str(args, 0)
		key, ok2 := str(args, 1)
		value, ok3 := str(args, 2)
		if !ok1 || !ok2 || !ok3 {
			return nil, "whatIf: expected the scenario's text, a config key and a value (\"\": the default)"
		}
		out, err := scenario.WithConfig(sandboxFile, text, key, value)
		if err != nil {
			return nil, err.Error()
		}
		return out, ""
	}))
	goAPI.Set("openLessonText", openAsync(func(args []js.Value) (any, string) {
		name, ok1 := str(args, 0)
		md, ok2 := str(args, 1)
		if !ok1 || !ok2 {
			return nil, "openLessonText: expected a file name and the lesson's Markdown"
		}
		if len(md) > permalink.MaxText {
			return fmt.Sprintf("%s: %d bytes, more than the %d a lesson may have", name, len(md), permalink.MaxText), ""
		}
		if err := gated(func() error { return a.OpenLessonSource(name, []byte(md), 0) }); err != nil {
			return err.Error(), ""
		}
		return "", ""
	}))
	goAPI.Set("link", wrap(func([]js.Value) (any, string) { return permalink.Encode(a.Link()), "" }))
}

// orEmpty makes a nil list an empty one, so JavaScript gets [] not null.
func orEmpty(d []diag) []diag {
	if d == nil {
		return []diag{}
	}
	return d
}
