// Package measurecheck holds one test, built only with the xvfb tag
// because Ebitengine needs a display to start: that layout's pure text
// measurement (go-text shaping of the Go fonts) gives the widths and line
// heights that render paints with. cmd/desktop/e2e runs it under Xvfb.
package measurecheck
