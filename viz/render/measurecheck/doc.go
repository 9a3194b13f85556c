// Package measurecheck holds the render tests that need a display, built
// only with the xvfb tag because Ebitengine needs a display to start:
// that layout's pure text measurement (golang.org/x/image faces of the Go fonts)
// gives the widths and line heights that render paints with, and that the
// painter draws dashed outlines and hatching where layout's pattern
// geometry says (within a solid outline's pixels, within the hatched
// rect). cmd/desktop/e2e runs them under Xvfb.
package measurecheck
