// Package assets holds the player's embedded files: the four Go fonts
// (regular, bold, mono, italic) by Bigelow & Holmes, from
// golang.org/x/image/font/gofont, with their hinting removed
// (internal/ttfstrip). BufferLab renders text unhinted, so the hinting
// was bytes every page load downloaded and nothing read: 631 KB of fonts
// become 331 KB, and the browser build 68 KB smaller as served.
// fonts/LICENSE is the fonts' licence, which their redistribution
// requires.
//
// The files are generated, never edited: `go test ./assets -update`
// writes them from golang.org/x/image's fonts (the version go.mod pins),
// and TestFontsAreStrippedGoFonts fails when a committed file is not
// what Strip makes of the pinned original, or when a stripped font
// differs from its original in any glyph's outline or advance, in its
// character map or in its metrics.
package assets
