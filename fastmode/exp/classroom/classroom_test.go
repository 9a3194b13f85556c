//go:build !js

package classroom

import (
	"testing"

	"bufferlab/fastmode/exp"
)

// A class of 20 students: no update lost, every answer counted, every
// summary key filled.
func TestClassroom(t *testing.T) {
	res, err := Run(20, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.LostUpdates != 0 || res.AnswersSent == 0 || res.AnswersCounted != res.AnswersSent {
		t.Fatalf("lost updates %d, answers %d counted of %d sent: want 0 lost, all counted", res.LostUpdates, res.AnswersCounted, res.AnswersSent)
	}
	e, _ := exp.Lookup("classroom")
	r, err := e.Run(exp.Options{Students: 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range e.SummaryKeys {
		if v, ok := r.Summary[k]; !ok || (k != "lost_updates" && !(v > 0)) {
			t.Errorf("summary %s = %v (present %v)", k, v, ok)
		}
	}
}
