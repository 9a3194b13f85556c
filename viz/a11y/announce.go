package a11y

import "strings"

// The live region's pace, in ticks (60 a second).
const (
	// EveryTicks is the least time between two captions said while the
	// player plays: 1.5 s. At 64 events a frame that is one caption in
	// about 5 700 events; a key moment among them is said in preference.
	EveryTicks = 90
	// SettleTicks is the least time between two captions said while the
	// student steps (a held arrow key repeats every 3 ticks): 0.2 s. A
	// single step is said at once; a run of them says the latest.
	SettleTicks = 12
)

// Now is what the app shows at one tick, as the announcer needs it.
type Now struct {
	// Scope names what is open: the lesson and its step ("pinning/2"),
	// "menu" or "fast". A new scope is announced by its Heading.
	Scope, Heading string
	// Pos is the player's position; Playing whether it plays.
	Pos     int
	Playing bool
	// Caption is the caption of the event just applied (CaptionText of
	// the panes'), asked only when it is to be said.
	Caption func() string
	// Moment is the caption of the latest key moment applied since the
	// last tick ("" for none): while the player plays, a moment is said
	// in preference to whatever event is current when the caption is due.
	Moment string
	// Feedback is the open question's verdict (Question.Verdict), said
	// once when it changes to a new text.
	Feedback string
	// Flash is the app's short message ("Answer the question first…"),
	// said when it appears.
	Flash string
}

// Announcer decides what the live region says. The policy:
//
//   - a new scope (a step opened, the menu, the fast panel) says its
//     heading at once, and the caption of the event before it is not news;
//   - an answer's verdict and the app's flash line are said at once;
//   - while the player plays, a caption is said at most every Every
//     ticks: the latest key moment's since the last caption said, else
//     the current event's if it is not the one said last;
//   - when the player stops (a pause, the end of a step, a key moment it
//     stops at), the caption of the event it stopped at, at once, unless
//     it was just said;
//   - a step or a seek while the player is still says the caption of the
//     event stepped to, at once when the last thing said is Settle ticks
//     old, else as soon as it is (the latest of a run of steps), even if
//     it repeats the last: the student asked for it.
//
// The zero Announcer uses EveryTicks and SettleTicks.
type Announcer struct {
	Every, Settle int

	started  bool
	scope    string
	pos      int
	playing  bool
	since    int    // ticks since something was said
	said     string // the last caption said
	moment   string // the latest key moment not yet said
	pending  bool   // a step's caption is due
	feedback string
	flash    string
}

// Tick takes one tick of the app and returns what to say now ("" for
// nothing).
func (an *Announcer) Tick(now Now) string {
	every, settle := an.Every, an.Settle
	if every <= 0 {
		every = EveryTicks
	}
	if settle <= 0 {
		settle = SettleTicks
	}
	an.since++
	caption := func() string {
		if now.Caption == nil {
			return ""
		}
		return now.Caption()
	}
	var out []string
	if !an.started || now.Scope != an.scope {
		an.started, an.scope = true, now.Scope
		an.pos, an.playing, an.pending, an.moment = now.Pos, now.Playing, false, ""
		an.said, an.feedback, an.flash = caption(), now.Feedback, now.Flash
		return an.say(now.Heading)
	}
	if now.Feedback != an.feedback {
		an.feedback = now.Feedback
		out = append(out, now.Feedback)
	}
	if now.Flash != an.flash {
		an.flash = now.Flash
		out = append(out, now.Flash)
	}
	if now.Moment != "" {
		an.moment = now.Moment
	}
	moved, stopped := now.Pos != an.pos, an.playing && !now.Playing
	an.pos, an.playing = now.Pos, now.Playing
	switch {
	case now.Playing:
		an.pending = false
		if an.since >= every {
			c := an.moment
			if c == "" {
				if c = caption(); c == an.said {
					c = ""
				}
			}
			if c != "" {
				an.said, an.moment = c, ""
				out = append(out, c)
			}
		}
	case stopped:
		an.pending, an.moment = false, ""
		if c := caption(); c != an.said {
			an.said = c
			out = append(out, c)
		}
	case moved:
		an.pending, an.moment = true, ""
	}
	if an.pending && an.since >= settle {
		an.pending = false
		an.said = caption()
		out = append(out, an.said)
	}
	return an.say(out...)
}

// say joins what is to be said, restarting the count when it is not
// empty.
func (an *Announcer) say(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	an.since = 0
	return strings.Join(keep, " ")
}
