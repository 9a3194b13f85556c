// Package ttfstrip removes the hinting from a TrueType font: the
// instructions in each glyph and the tables that serve the hinting
// interpreter (fpgm, prep, cvt, hdmx, LTSH, VDMX). BufferLab draws and
// measures text unhinted (golang.org/x/image/font/sfnt reads outlines,
// advances and kerning and never runs instructions), so in the Go fonts
// more than half of the bytes are never read: the four fonts the player
// embeds are 631 KB as golang.org/x/image ships them and 331 KB
// stripped (assets/fonts, made by `go test ./assets -update`).
//
// Strip keeps every other byte: the outlines' points and flags, the
// metrics, the character map and the kerning. assets' tests check that
// the stripped fonts give the original's glyphs, advances, character map
// and metrics for every glyph and every rune of the Basic Multilingual
// Plane.
package ttfstrip
