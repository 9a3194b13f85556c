package lessons

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// IsLessonFile reports whether a file name in a lesson directory is a
// lesson: it ends in ".md" and is not README.md (any case).
func IsLessonFile(name string) bool {
	return strings.HasSuffix(name, ".md") && !strings.EqualFold(name, "README.md")
}

// LessonFiles returns the paths (in fsys) of the lesson files in dir,
// sorted by name.
func LessonFiles(fsys fs.FS, dir string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && IsLessonFile(e.Name()) {
			out = append(out, path.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// LoadDir parses every lesson file in dir (see IsLessonFile) and returns
// the lessons sorted by Order, then Name. A lesson's File is its path in
// fsys. It stops at the first malformed lesson; two files giving the same
// lesson name are an error.
func LoadDir(fsys fs.FS, dir string) ([]*Lesson, error) {
	return loadDir(fsys, dir, "")
}

// EmbeddedDir is the directory, relative to the repository root, of the
// embedded lessons; All names their files with it ("lessons/01-….md").
const EmbeddedDir = "lessons"

// All parses the embedded lessons (Files), sorted like LoadDir's.
func All() ([]*Lesson, error) {
	return loadDir(Files, ".", EmbeddedDir)
}

// Named is the embedded lesson called name (one of All's). When none is
// called that, the error names those there are.
func Named(name string) (*Lesson, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range all {
		if l.Name == name {
			return l, nil
		}
		names = append(names, l.Name)
	}
	return nil, fmt.Errorf("no embedded lesson %q: expected one of %s", name, strings.Join(names, ", "))
}

func loadDir(fsys fs.FS, dir, shownDir string) ([]*Lesson, error) {
	files, err := LessonFiles(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []*Lesson
	byName := map[string]*Lesson{}
	for _, f := range files {
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		shown := f
		if shownDir != "" {
			shown = path.Join(shownDir, f)
		}
		l, err := Parse(shown, src)
		if err != nil {
			return nil, err
		}
		if other, dup := byName[l.Name]; dup {
			return nil, errorf(shown, 1, 1, "lesson name %q is also the name of %s: expected each lesson file to give a different name", l.Name, other.File)
		}
		byName[l.Name] = l
		out = append(out, l)
	}
	SortLessons(out)
	return out, nil
}

// SortLessons sorts lessons by Order, then Name.
func SortLessons(ls []*Lesson) {
	sort.SliceStable(ls, func(i, j int) bool {
		if ls[i].Order != ls[j].Order {
			return ls[i].Order < ls[j].Order
		}
		return ls[i].Name < ls[j].Name
	})
}
