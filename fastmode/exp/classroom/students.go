package classroom

// DefaultStudents is the class size without --students; MaxStudents the
// largest the bench takes (each student is two sockets in this process).
// They build everywhere (cmd/bufferlab's flags name them); the
// experiment itself is native only.
const (
	DefaultStudents = 200
	MaxStudents     = 5000
)
