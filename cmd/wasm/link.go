package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// linkLesson is what resolveLink needs of a lesson: its name and how many
// steps it has.
type linkLesson struct {
	name  string
	steps int
}

// resolveLink reads a permalink, the page address's fragment without '#':
// lesson=NAME&step=N (steps count from 0; no step: the first). It returns
// the lesson to open (empty: the menu) and its step, and a notice when the
// link asked for something else: a step past the last opens the last, a
// step that is negative or not a number the first, a lesson that does not
// exist the menu. A link is shared and outlives lessons, so none of this is
// an error: the app goes on.
func resolveLink(hash string, all []linkLesson) (name string, step int, notice string) {
	q, err := url.ParseQuery(hash)
	if err != nil {
		return "", 0, fmt.Sprintf("The link #%s is not of the form #lesson=NAME&step=N (%v): choose a lesson from the list.", hash, err)
	}
	name = q.Get("lesson")
	if name == "" {
		return "", 0, fmt.Sprintf("The link #%s names no lesson (expected #lesson=NAME&step=N): choose one from the list.", hash)
	}
	var l *linkLesson
	var names []string
	for i := range all {
		names = append(names, all[i].name)
		if all[i].name == name {
			l = &all[i]
		}
	}
	if l == nil {
		return "", 0, fmt.Sprintf("The link asked for lesson %q, which does not exist: choose one from the list (%s).", name, strings.Join(names, ", "))
	}
	s, given := q.Get("step"), q.Has("step")
	if !given {
		return name, 0, ""
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return name, 0, fmt.Sprintf("The link asked for step %q of lesson %s, which is not a step number (0 to %d): showing the first step.", s, name, l.steps-1)
	case n < 0:
		return name, 0, fmt.Sprintf("The link asked for step %d of lesson %s; steps count from 0: showing the first step.", n, name)
	case n >= l.steps:
		return name, l.steps - 1, fmt.Sprintf("The link asked for step %d, but lesson %s has %d steps (0 to %d): showing the last one.", n, name, l.steps, l.steps-1)
	}
	return name, n, ""
}
