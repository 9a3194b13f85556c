// Package layout is the pure half of drawing: geometry (Rect), the theme's
// colours and type sizes, text measurement with the embedded Go fonts, and
// the display list that a scene's layout step returns and a thin paint
// step (render.Paint) draws.
//
// There are two themes, Light (the default) and Dark (NewTheme by name,
// ThemeNames lists them). A theme holds every colour a layout uses, the
// scenes' own tints included (Theme.SLRU, Theme.FSM), so that switching
// theme changes the whole frame.
//
// A scene is two functions. Layout takes a view, a rectangle and a theme
// and returns a *List: filled and stroked boxes, text runs with their font
// and the box each must fit, lines and triangles (marks), each named by a
// role ("cell 3", "counter hits"). Paint draws a List with Ebitengine and
// decides nothing. Layout imports no Ebitengine, so its golden tests run in
// `go test -short ./viz/...` on a machine with no display.
//
// Text is measured with golang.org/x/image's OpenType faces over the Go
// fonts (assets: without their hinting, which nothing here runs): the
// glyphs' advances and the font's kerning in 26.6 fixed point. NewFace
// makes the face, and render paints with Ebitengine's GoXFace over that
// same face, so a width computed here is the width painted there
// (TestMeasureMatchesEbiten, run under Xvfb by cmd/desktop/e2e, compares
// them). HarfBuzz shaping (Ebitengine's GoTextFace) was given up for this
// in issue 20: Latin text in the Go fonts needs no shaping, and the
// shaper was 0.44 MB of the browser download (docs/wasm-size.md).
//
// Invariants:
//   - A text run that does not fit its box is recorded in List.Overflows
//     (its role, text, and the width or height it needed and had); it is
//     never silently cut. A run may be shortened with "…" (FitText), and
//     then the overflow is still recorded, with the shortened text drawn.
//   - A layout may record hit regions (List.AddHit: what is drawn where,
//     by kind and number) so that the app can say what is under the
//     pointer from the last layout (List.HitAt); they are not drawn and
//     not part of the golden form.
//   - Layout is deterministic: the same view, rectangle and theme give the
//     same List, byte for byte in its String form (the goldens).
package layout
