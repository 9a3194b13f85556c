package exp

import (
	"fmt"
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

// Row returns the row called name at shared_buffers size, or the zero Row
// when r has none: for a table, which then prints zeros where a
// measurement is missing (Find tells the two apart).
func (r *Report) Row(name, size string) Row {
	row, _ := Find(r, name, size)
	return row
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

// QuantileTable prints one line per row: its name, median, p10 and p90
// (in head's units) and one more column, last's value for the row, under
// its heading lastHead.
func QuantileTable(w io.Writer, rows []Row, head, lastHead string, last func(Row) string) {
	tw := NewTable(w)
	fmt.Fprintf(tw, "\tmedian%s\tp10%s\tp90%s\t%s\t\n", head, head, head, lastHead)
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", row.Name, Num(row.Median), Num(row.P10), Num(row.P90), last(row))
	}
	tw.Flush()
}
