package trace

import (
	"fmt"
	"strings"
)

// Site is a line of pseudo-code in a modelled PostgreSQL function. Site 0 is
// "no site".
type Site uint16

// Func is one modelled PostgreSQL function: its name, where it lives, the
// versions whose behaviour it follows, and its pseudo-code, one line per entry.
type Func struct {
	// Name is the PostgreSQL function's name, e.g. "BufferAlloc", with
	// " (PG N)" after it where another version's pseudo-code of the same
	// function is defined too ("BufferAlloc (PG 16)"): names are unique.
	Name    string
	File    string   // source file in the postgres tree, e.g. "storage/buffer/bufmgr.c"
	Version string   // e.g. "PG 15", "PG 16–18", "PG 18 (pg=18, io_method=worker)"
	Lines   []string // pseudo-code lines, markers removed
}

// BaseName is Name without its version in parentheses (" (PG 16)",
// " (9.5)"): the function's name in PostgreSQL, for a title that states
// the version beside it. A variant's name (" (dlist)") stays.
func (f *Func) BaseName() string {
	i := strings.LastIndex(f.Name, " (")
	if i <= 0 || !strings.HasSuffix(f.Name, ")") {
		return f.Name
	}
	if v := f.Name[i+2:]; strings.HasPrefix(v, "PG ") || v[0] >= '0' && v[0] <= '9' {
		return f.Name[:i]
	}
	return f.Name
}

// ShortVersion is a "PG …" Version up to its first note in parentheses
// or after a colon: "PG 18 (pg=18, io_method=worker)" is "PG 18", "PG
// 13–16: XactSLRULock (slru=single)" is "PG 13–16". Any other Version (a
// patch that was never released) is whole.
func (f *Func) ShortVersion() string {
	v := f.Version
	if !strings.HasPrefix(v, "PG ") {
		return v
	}
	if i := strings.IndexAny(v, "(:"); i > 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// SiteInfo describes a site.
type SiteInfo struct {
	Name string // unique marker name, e.g. "alloc.lookup"
	Func *Func
	Line int // index into Func.Lines
}

var (
	sites     = []SiteInfo{{Name: "-"}}
	siteIndex = map[string]Site{}
	funcs     []*Func
)

// DefineFunc registers a modelled function. Each pseudo-code line that ends
// in "@name" defines the site "name" at that line; the marker is stripped
// from the text. Leading and trailing blank lines are dropped; indentation is
// kept. It panics on a duplicate site name (a programming error found by any
// test, since registration happens at package initialisation).
func DefineFunc(name, file, version, pseudo string) *Func {
	f := &Func{Name: name, File: file, Version: version}
	raw := strings.Split(strings.Trim(pseudo, "\n"), "\n")
	for _, line := range raw {
		text := strings.TrimRight(line, " \t")
		if i := strings.LastIndex(text, "@"); i >= 0 && !strings.ContainsAny(text[i+1:], " \t") && i+1 < len(text) {
			site := text[i+1:]
			text = strings.TrimRight(text[:i], " \t")
			if _, dup := siteIndex[site]; dup {
				panic(fmt.Sprintf("trace: site %q defined twice", site))
			}
			siteIndex[site] = Site(len(sites))
			sites = append(sites, SiteInfo{Name: site, Func: f, Line: len(f.Lines)})
		}
		f.Lines = append(f.Lines, text)
	}
	funcs = append(funcs, f)
	return f
}

// SiteOf returns the site registered under name; it panics if there is none,
// which makes a misspelt site a failure at package initialisation.
func SiteOf(name string) Site {
	s, ok := siteIndex[name]
	if !ok {
		panic(fmt.Sprintf("trace: no site %q", name))
	}
	return s
}

// LookupSite returns the site registered under name, if any.
func LookupSite(name string) (Site, bool) {
	s, ok := siteIndex[name]
	return s, ok
}

// Info describes s. An unknown site returns the "-" entry.
func (s Site) Info() SiteInfo {
	if int(s) < len(sites) {
		return sites[s]
	}
	return sites[0]
}

// String is the site's name ("-" for none).
func (s Site) String() string { return s.Info().Name }

// Funcs returns every registered function in registration order.
func Funcs() []*Func { return append([]*Func(nil), funcs...) }

// Sites returns the number of registered sites, including site 0.
func Sites() int { return len(sites) }
