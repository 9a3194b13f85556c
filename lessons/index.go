package lessons

// Entry is what a menu shows of a lesson before the lesson is parsed: its
// name, title and summary, and how many steps and questions it has.
type Entry struct {
	Name, Title, Summary string
	Steps, Questions     int
}

// Entry is l's menu entry.
func (l *Lesson) Entry() Entry {
	return Entry{Name: l.Name, Title: l.Title, Summary: l.Summary, Steps: len(l.Steps), Questions: l.Questions()}
}

// Entries are the entries of ls, in order.
func Entries(ls []*Lesson) []Entry {
	out := make([]Entry, len(ls))
	for i, l := range ls {
		out[i] = l.Entry()
	}
	return out
}

// Index is the embedded lessons' entries in All's order, without parsing
// them: the browser's first frame is the menu, and parsing the eight
// lessons there costs about 0.25 s of start-up (goldmark and the
// scenario parser, run for the first time). index_gen.go holds them;
// TestIndexMatchesLessons fails when it is not what All gives, and `go
// test ./lessons -run TestIndex -update-index` writes it again.
func Index() []Entry { return append([]Entry(nil), index...) }
