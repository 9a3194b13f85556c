// Package scenedraw paints BufferLab's scenes with Ebitengine: the thin
// paint step of each scene whose layout step lives in package scene.
//
// Every function here has the same shape: lay the scene out into a
// *layout.List with scene's pure Layout function for the same arguments,
// then paint the list (render.Paint, through the one helper paint, or a
// scene's own render.Painter when it keeps a texture between frames, as
// the pool's heat map does). A
// wrapper decides nothing: what is drawn, where, and which text did not fit
// are the layout's, and scene's golden tests check them without a display.
//
// The wrappers keep the names and signatures the app called before the
// split (DrawLanes, DrawCode, Panel, ...); the two stateful ones are types
// that embed scene's: PoolScene (zoom and hit testing are scene's, the
// heat map's texture is this package's) and Prose.
//
// Importing this package imports Ebitengine, which needs a display at
// init; only the app and the screenshot commands import it.
package scenedraw
