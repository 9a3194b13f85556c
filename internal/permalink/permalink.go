package permalink

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
)

// Link is what a link says.
type Link struct {
	// What to open: at most one of Lesson (an embedded lesson's name),
	// Markdown (a lesson's source) and Scenario (a scenario's text).
	Lesson   string
	Markdown string
	Scenario string
	// Step is the step to open, counted from 1 (0: not given, the first).
	Step int
	// Event is how many events into the step (0: its start).
	Event int
	// Sandbox opens the scenario editor (with Scenario in it, if given).
	Sandbox bool
	// Embed shows the lesson or scenario alone, for an iframe.
	Embed bool
}

// Limits.
const (
	// Anywhere is the longest link that survives chat apps, mail and old
	// browsers.
	Anywhere = 2000
	// Browsers is the longest link that modern browsers keep and display
	// whole (Chromium's kMaxURLDisplayChars).
	Browsers = 32 * 1024
	// MaxText bounds a text carried in a link once inflated, and the
	// fragment read: a link is input from anyone (a compressed bomb of a
	// few kilobytes must not take the tab's memory).
	MaxText = 1 << 20
)

// Fit says where a link of n characters can be shared.
type Fit int

// Fits.
const (
	FitAnywhere Fit = iota // ≤ Anywhere
	FitBrowsers            // ≤ Browsers: paste it in a browser; chat apps may cut it
	FitTooLong             // share the file instead
)

// FitOf classifies a link of n characters.
func FitOf(n int) Fit {
	switch {
	case n <= Anywhere:
		return FitAnywhere
	case n <= Browsers:
		return FitBrowsers
	}
	return FitTooLong
}

// Advice says, for a link of n characters, what a person sharing it should
// know ("" when it fits anywhere).
func Advice(n int) string {
	switch FitOf(n) {
	case FitBrowsers:
		return fmt.Sprintf("This link is %d characters long: browsers open it, but chat and mail programs may cut links over %d characters. Sharing the file is safer.", n, Anywhere)
	case FitTooLong:
		return fmt.Sprintf("This link would be %d characters long, over the %d that browsers show whole: share the file instead.", n, Browsers)
	}
	return ""
}

// Encode writes a link's fragment (without '#'). Keys come in a fixed
// order, so equal links are equal strings. Cost: one DEFLATE of the text
// carried, O(its size).
func Encode(l Link) string {
	var parts []string
	if l.Embed {
		parts = append(parts, "embed")
	}
	if l.Sandbox {
		parts = append(parts, "sandbox")
	}
	switch {
	case l.Lesson != "":
		parts = append(parts, "lesson="+url.QueryEscape(l.Lesson))
	case l.Markdown != "":
		parts = append(parts, "md="+Compress(l.Markdown))
	case l.Scenario != "":
		parts = append(parts, "scenario="+Compress(l.Scenario))
	}
	if l.Step > 0 {
		parts = append(parts, "step="+strconv.Itoa(l.Step))
	}
	if l.Event > 0 {
		parts = append(parts, "event="+strconv.Itoa(l.Event))
	}
	return strings.Join(parts, "&")
}

// Compress writes text as raw DEFLATE in unpadded base64url.
func Compress(text string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression) // the level is valid: no error
	w.Write([]byte(text))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// ErrTooLarge is the error of a text that inflates past MaxText.
var ErrTooLarge = fmt.Errorf("the text inflates to more than %d bytes", MaxText)

// Decompress reads what Compress wrote. It fails on a text that is not
// base64url, not DEFLATE, cut short, or larger than MaxText inflated.
func Decompress(z string) (string, error) {
	if len(z) > MaxText {
		return "", fmt.Errorf("%d characters of compressed text, more than %d", len(z), MaxText)
	}
	raw, err := base64.RawURLEncoding.DecodeString(z)
	if err != nil {
		return "", fmt.Errorf("not base64url: %v", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, MaxText+1))
	switch {
	case err != nil && errors.Is(err, io.ErrUnexpectedEOF):
		return "", errors.New("the compressed text is cut short (was the link copied whole?)")
	case err != nil:
		return "", fmt.Errorf("not compressed text: %v", err)
	case len(out) > MaxText:
		return "", ErrTooLarge
	}
	return string(out), nil
}

// Decode reads a fragment (with or without its '#'). What it cannot use
// becomes a notice, in the order found, and the rest of the link still
// counts: an unknown key, a step or event that is not a positive number,
// two things to open (the first is kept), a carried text that does not
// decompress (dropped). An empty fragment is the zero Link. Decode does
// not know the lessons: the app resolves Lesson and clamps Step (Clamp).
func Decode(fragment string) (l Link, notices []string) {
	fragment = strings.TrimPrefix(fragment, "#")
	if fragment == "" {
		return Link{}, nil
	}
	if len(fragment) > MaxText {
		return Link{}, []string{fmt.Sprintf("The link is %d characters long, more than the %d BufferLab reads: it was ignored.", len(fragment), MaxText)}
	}
	note := func(format string, args ...any) { notices = append(notices, fmt.Sprintf(format, args...)) }
	opened := ""
	open := func(key string) bool {
		if opened != "" {
			note("The link names both %s and %s; BufferLab opens the %s.", opened, key, opened)
			return false
		}
		opened = key
		return true
	}
	for _, part := range strings.Split(fragment, "&") {
		if part == "" {
			continue
		}
		key, val, hasVal := strings.Cut(part, "=")
		switch key {
		case "embed", "sandbox":
			if hasVal && val != "" && val != "1" {
				note("The link's %q takes no value (found %q); it counts as given.", key, val)
			}
			if key == "embed" {
				l.Embed = true
			} else {
				l.Sandbox = true
			}
		case "lesson":
			name, err := url.QueryUnescape(val)
			if err != nil || name == "" {
				note("The link's lesson %q is not a lesson name.", val)
				continue
			}
			if open("lesson") {
				l.Lesson = name
			}
		case "md", "scenario":
			what := map[string]string{"md": "lesson", "scenario": "scenario"}[key]
			text, err := Decompress(val)
			if err != nil {
				note("The %s carried in the link could not be read (%v).", what, err)
				continue
			}
			if !open(what + " text") {
				continue
			}
			if key == "md" {
				l.Markdown = text
			} else {
				l.Scenario = text
			}
		case "step", "event":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || (key == "step" && n == 0) {
				from := map[string]string{"step": "steps count from 1", "event": "events count from 0"}[key]
				note("The link's %s %q is not a %s number (%s): it was ignored.", key, val, key, from)
				continue
			}
			if key == "step" {
				l.Step = n
			} else {
				l.Event = n
			}
		default:
			note("The link has %q, which BufferLab does not know (expected lesson, md, scenario, step, event, sandbox or embed): it was ignored.", key)
		}
	}
	return l, notices
}

// Clamp fits a link's step and event into what was opened: steps is the
// number of steps, eventsIn(s) the number of events of step s (1-based).
// A step past the last opens the last, an event past the step's end the
// step's end; each with a notice.
func Clamp(l Link, steps int, eventsIn func(step int) int) (Link, []string) {
	var notices []string
	if steps < 1 {
		return l, nil
	}
	if l.Step > steps {
		notices = append(notices, fmt.Sprintf("The link asked for step %d, but there are %d steps: showing the last one.", l.Step, steps))
		l.Step = steps
	}
	s := max(l.Step, 1)
	if n := eventsIn(s); l.Event > n {
		notices = append(notices, fmt.Sprintf("The link asked for event %d of step %d, which has %d events: showing its end.", l.Event, s, n))
		l.Event = n
	}
	return l, notices
}
