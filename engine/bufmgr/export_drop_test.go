package bufmgr

import (
	"fmt"
	"strings"
)

// SetRelsBSearchThresholdForTest replaces RELS_BSEARCH_THRESHOLD, so that a
// test can run DropRelationsAllBuffers' full scan both ways on the same
// relations; it returns a function that restores it.
func SetRelsBSearchThresholdForTest(n int) (restore func()) {
	old := relsBSearchThreshold
	relsBSearchThreshold = n
	return func() { relsBSearchThreshold = old }
}

// DListForTest prints the dlist variant's state: every list head in
// creation order with its lock, length and members (head first), and every
// descriptor's links. Two runs that end in the same state print the same
// text; "no dlist" when the option is off.
func DListForTest(p *Pool) string {
	dl := p.dl
	if dl == nil {
		return "no dlist\n"
	}
	var b strings.Builder
	for k := range dl.lists {
		l := dl.lists[k]
		var ids []string
		for id := l.head; id != relListNone; id = dl.next[id] {
			ids = append(ids, fmt.Sprint(id))
		}
		fmt.Fprintf(&b, "list %d (rel %d): lock %+v n %d [%s]\n", k, l.rnode.RelNode, l.lock, l.n, strings.Join(ids, " "))
	}
	for i := range dl.owner {
		if dl.owner[i] != relListNone {
			fmt.Fprintf(&b, "buf %d: list %d prev %d next %d\n", i, dl.owner[i], dl.prev[i], dl.next[i])
		}
	}
	return b.String()
}
