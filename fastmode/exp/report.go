package exp

import (
	"io"
	"text/tabwriter"
)

// DescBytes is the size of PostgreSQL's padded BufferDesc: one cache line.
const DescBytes = 64

// Find returns the row called name at shared_buffers size.
func Find(r *Report, name, size string) (Row, bool) {
	for _, row := range r.Rows {
		if row.Name == name && row.SharedBuffers == size {
			return row, true
		}
	}
	return Row{}, false
}

// Sizes lists, in order, one row for each distinct shared_buffers size of
// a report.
func Sizes(r *Report) []Row {
	var out []Row
	seen := map[string]bool{}
	for _, row := range r.Rows {
		if row.SharedBuffers != "" && !seen[row.SharedBuffers] {
			seen[row.SharedBuffers] = true
			out = append(out, row)
		}
	}
	return out
}

// NewTable is the tabwriter every experiment's text tables go through:
// cells right-aligned, two spaces apart; each row ends with a tab. Flush
// it when the table is done.
func NewTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}
