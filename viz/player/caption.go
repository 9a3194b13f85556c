package player

import (
	"fmt"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/viz/timeline"
)

// Names names the relations and backends of the player's run, as its
// scenario does, for captions.
func (p *Player) Names() scenario.Names {
	return scenario.Names{
		Rel: func(rel uint32) string {
			if n, ok := p.rels[rel]; ok {
				return n
			}
			return fmt.Sprint(rel)
		},
		Actor: p.ActorName,
	}
}

// paneEvents is pane i's padded events (the main pane for an i out of
// range).
func (p *Player) paneEvents(i int) trace.Events { return p.paneTimeline(i).Events() }

// CaptionAt is the caption of event pos of pane i ("" for idle padding or
// a position out of range): scenario.Caption with the player's names.
//
// The last caption of each pane is kept: a frame asks for the current
// one several times (the caption line, the screen-reader mirror), and
// over a run's log (not a padded copy) each asks copies the 4096 events
// a caption may look back through.
func (p *Player) CaptionAt(pane, pos int) string {
	for len(p.captions) <= pane {
		p.captions = append(p.captions, lastCaption{pos: -1})
	}
	if c := &p.captions[pane]; c.pos != pos || c.of != p.paneTimeline(pane) {
		c.pos, c.of, c.text = pos, p.paneTimeline(pane), scenario.Caption(p.paneEvents(pane), pos, p.Names())
	}
	return p.captions[pane].text
}

// lastCaption is a pane's last caption: of event pos of the timeline of
// (pacing replaces a pane's timeline and its events with it).
type lastCaption struct {
	pos  int
	of   *timeline.Timeline
	text string
}

// paneTimeline is pane i's timeline (the main pane's for an i out of
// range), as paneEvents.
func (p *Player) paneTimeline(i int) *timeline.Timeline {
	if i > 0 && i <= len(p.Alts) {
		return p.Alts[i-1].TL
	}
	return p.TL
}

// Caption is the caption of the event pane i applied last: the one the
// screen shows as current ("" at the start of the run or on padding).
func (p *Player) Caption(pane int) string { return p.CaptionAt(pane, p.TL.Pos()-1) }

// MomentAt is the lesson moment of event pos of pane i (trace.MomentNone
// for most events, for padding and out of range).
func (p *Player) MomentAt(pane, pos int) trace.Moment {
	evs := p.paneEvents(pane)
	if pos < 0 || pos >= evs.Len() {
		return trace.MomentNone
	}
	return scenario.MomentOf(evs.At(pos))
}

// momentTitles say what each key moment is, in a few words, for the
// heading of a stop ("Next: a compare-and-swap fails").
var momentTitles = [trace.NumMoments]string{
	trace.MomentCASFail:     "a compare-and-swap fails",
	trace.MomentSpin:        "a backend spins on a locked header",
	trace.MomentVictim:      "a buffer is chosen as victim",
	trace.MomentDirtyEvict:  "a dirty victim is written out",
	trace.MomentRingReuse:   "a scan's ring reuses a buffer",
	trace.MomentLookupMiss:  "the lookup finds no buffer",
	trace.MomentDrop:        "a dropped relation's buffer is emptied",
	trace.MomentSLRUMatch:   "the search reaches the page's slot",
	trace.MomentSLRUVictim:  "an SLRU slot is chosen as victim",
	trace.MomentFSMSkip:     "the FSM read finds no fork",
	trace.MomentFSMCreate:   "the FSM fork is created",
	trace.MomentError:       "an ERROR",
	trace.MomentLookupHit:   "the lookup finds the page",
	trace.MomentSLRULookup:  "a search of the SLRU begins",
	trace.MomentReadV:       "one read call brings in several blocks",
	trace.MomentAIOComplete: "an I/O worker completes a read",
}

// MomentTitle says what moment m is in a few words ("a compare-and-swap
// fails"); its name for a moment without a title.
func MomentTitle(m trace.Moment) string {
	if int(m) < len(momentTitles) && momentTitles[m] != "" {
		return momentTitles[m]
	}
	return m.String()
}
