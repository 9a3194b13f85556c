package classroom

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
)

// WriteCSV writes the class's results (docs/classroom.md, --save): for
// every question the class went to, in lesson order then step order, one
// row per round and choice, `lesson,step,question,round,choice,count,right`
// (step 0-based, as in the protocol; question the prompt; choice 1-based;
// right 1 on the right choice's row, else 0). With names (--save-names,
// chosen at start) a blank line and a second table follow,
// `lesson,step,question,round,name,choice,right`, one row per student's
// answer, students in the order they joined. Cost: O(questions × rounds ×
// choices), plus O(students × questions × rounds) with names.
func (r *Room) WriteCSV(w io.Writer, names bool) error {
	cw := csv.NewWriter(w)
	keys := r.asked()
	cw.Write([]string{"lesson", "step", "question", "round", "choice", "count", "right"})
	for _, k := range keys {
		q := r.qs[k]
		for ri, counts := range q.counts {
			for ci, n := range counts {
				cw.Write([]string{k.lesson, strconv.Itoa(k.step), q.q.Prompt, strconv.Itoa(ri + 1), strconv.Itoa(ci + 1), strconv.Itoa(n), right(q, ci+1)})
			}
		}
	}
	if names {
		cw.Flush()
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		cw.Write([]string{"lesson", "step", "question", "round", "name", "choice", "right"})
		for _, k := range keys {
			q := r.qs[k]
			for round := 1; round <= q.round; round++ {
				for _, st := range r.joined {
					if c := st.answers[akey{k.lesson, k.step, round}]; c != 0 {
						cw.Write([]string{k.lesson, strconv.Itoa(k.step), q.q.Prompt, strconv.Itoa(round), st.name, strconv.Itoa(c), right(q, c)})
					}
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func right(q *question, choice int) string {
	if choice == q.q.Answer+1 {
		return "1"
	}
	return "0"
}

// asked is the questions the class went to, in lesson order then step
// order.
func (r *Room) asked() []qkey {
	rank := map[string]int{}
	for i, n := range r.order {
		rank[n] = i
	}
	var keys []qkey
	for k := range r.qs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b qkey) int {
		if d := rank[a.lesson] - rank[b.lesson]; d != 0 {
			return d
		}
		return a.step - b.step
	})
	return keys
}
