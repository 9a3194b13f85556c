package exp

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
