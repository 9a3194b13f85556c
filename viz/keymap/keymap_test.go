package keymap

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// appDir is viz/app, whose source the tests read (not import: it needs a
// display).
const appDir = "../app"

// handlerWhere is where the keys a function of input.go handles apply.
var handlerWhere = map[string]Where{
	"handleInput": Anywhere,
	"menuKeys":    Menu,
	"playerKeys":  Player,
}

// isCode reports whether name (a selector of package ebiten) is an input
// the table documents (ebiten.Key alone is the type).
func isCode(name string) bool {
	return strings.HasPrefix(name, "Key") && name != "Key" || strings.HasPrefix(name, "MouseButton") || name == "Wheel" || name == "TouchPosition"
}

// codes lists the ebiten.X inputs in n.
func codes(n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok && id.Name == "ebiten" && isCode(s.Sel.Name) {
				out = append(out, s.Sel.Name)
			}
		}
		return true
	})
	return out
}

func parseApp(t *testing.T, name string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(appDir, name), nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Every key, mouse button and wheel that viz/app/input.go reads is in the
// table; the keys of each case of its switches are in one binding that
// applies where that switch runs (the global keys anywhere, menuKeys in
// the menu, playerKeys where a lesson plays); and every code in the table
// is read there, so no entry documents a key that does nothing.
func TestEveryHandledKeyIsInTheTable(t *testing.T) {
	f := parseApp(t, "input.go")
	inTable := map[string]bool{}
	for _, b := range Bindings {
		for _, c := range b.Codes {
			inTable[c] = true
		}
	}
	handled := map[string]bool{}
	for _, c := range codes(f) {
		handled[c] = true
		if !inTable[c] {
			t.Errorf("input.go reads ebiten.%s: no binding of keymap.Bindings has it", c)
		}
	}
	for c := range inTable {
		if !handled[c] {
			t.Errorf("keymap.Bindings documents %s, which input.go never reads", c)
		}
	}
	cases := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		where, known := handlerWhere[fd.Name.Name]
		ast.Inspect(fd, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok {
				return true
			}
			var cs []string
			for _, e := range cc.List {
				cs = append(cs, codes(e)...)
			}
			if len(cs) == 0 {
				return true
			}
			cases++
			if !known {
				t.Errorf("%s handles %v: the test does not know where %s applies (handlerWhere)", fd.Name.Name, cs, fd.Name.Name)
				return true
			}
			for _, b := range Bindings {
				all := true
				for _, c := range cs {
					all = all && slices.Contains(b.Codes, c)
				}
				if all && b.Where != 0 && b.Where&^where == 0 {
					return true
				}
			}
			t.Errorf("%s: the case of %v has no binding with all of them that applies within %s", fd.Name.Name, cs, where)
			return true
		})
	}
	if cases < 20 {
		t.Fatalf("found %d key cases in input.go; has it been restructured?", cases)
	}
}

// The help's sections hold every binding and button once, and the
// sections that apply where the app is come first.
func TestSectionsHoldTheTable(t *testing.T) {
	n, m := 0, 0
	for _, s := range Sections() {
		n += len(s.Bindings)
		m += len(s.Buttons)
		if s.Title == "" {
			t.Errorf("a section without a title: %+v", s)
		}
	}
	if n != len(Bindings) || m != len(Buttons) {
		t.Errorf("sections hold %d bindings and %d buttons, the table %d and %d", n, m, len(Bindings), len(Buttons))
	}
	rows := helpRows(Menu)
	if !rows[0].title || rows[0].does != "Everywhere" || rows[0].muted {
		t.Errorf("in the menu the help starts with %+v", rows[0])
	}
	seen := false
	for _, r := range rows {
		if r.title && r.does == Player.String() {
			seen = true
			if !r.muted {
				t.Errorf("in the menu, the lesson keys are not muted")
			}
		}
	}
	if !seen {
		t.Error("no section for the lesson keys")
	}
}
