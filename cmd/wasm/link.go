package main

import (
	"fmt"
	"strings"

	"bufferlab/internal/permalink"
)

// linkLesson is what planLink needs of a lesson: its name and how many
// steps it has.
type linkLesson struct {
	name  string
	steps int
}

// linkPlan is what the app does for a link: open a lesson (by name; or
// from Markdown the link carries), a scenario, or the sandbox, or show
// the menu (none of them), at a step counted from 0 and an event into it,
// with the notices to show. Embed hides the menu.
type linkPlan struct {
	Lesson   string
	Markdown string
	Scenario string
	Sandbox  bool
	Embed    bool
	Step     int // from 0
	Event    int // events into the step
	Notices  []string
}

// planLink reads a page address's fragment (without '#'; see
// internal/permalink for its forms) against the embedded lessons. A link
// is shared and outlives lessons, so nothing in it is an error: what it
// asks for and cannot have opens the nearest thing with a notice (a step
// past the last opens the last, an unknown lesson the menu). Steps count
// from 1 in the link, as on screen.
func planLink(hash string, all []linkLesson) linkPlan {
	l, notices := permalink.Decode(hash)
	plan := linkPlan{Markdown: l.Markdown, Scenario: l.Scenario, Sandbox: l.Sandbox, Embed: l.Embed,
		Step: max(l.Step-1, 0), Event: l.Event, Notices: notices}
	if l.Lesson == "" {
		switch {
		case hash == "" || l.Markdown != "" || l.Scenario != "" || l.Sandbox || len(notices) > 0:
		case l.Embed:
			// An embed's page author wrote this address: say what it lacks.
			plan.Notices = append(plan.Notices, fmt.Sprintf("This embed names nothing to show (expected #embed&lesson=NAME, with NAME one of %s, or #embed& in front of a lesson's or scenario's link): showing the lesson list.", strings.Join(lessonNames(all), ", ")))
		default:
			plan.Notices = append(plan.Notices, fmt.Sprintf("The link #%s names nothing to open (expected #lesson=NAME&step=N): choose a lesson from the list.", hash))
		}
		return plan
	}
	for _, x := range all {
		if x.name != l.Lesson {
			continue
		}
		plan.Lesson = x.name
		if l.Step > x.steps {
			plan.Step = x.steps - 1
			plan.Event = 0
			plan.Notices = append(plan.Notices, fmt.Sprintf("The link asked for step %d, but lesson %s has %d steps: showing the last one.", l.Step, x.name, x.steps))
		}
		return plan
	}
	plan.Step, plan.Event = 0, 0
	plan.Notices = append(plan.Notices, fmt.Sprintf("The link asked for lesson %q, which does not exist: choose one from the list (%s).", l.Lesson, strings.Join(lessonNames(all), ", ")))
	return plan
}

func lessonNames(all []linkLesson) []string {
	var names []string
	for _, x := range all {
		names = append(names, x.name)
	}
	return names
}
