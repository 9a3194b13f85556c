// Package render is the only code in BufferLab that draws. It holds the
// theme (a colour-blind-safe palette: the Okabe–Ito colours and a
// single-hue ramp for usage counts), the embedded Go fonts, and small
// drawing helpers over Ebitengine v2.8 (filled and stroked rectangles,
// text with alignment and wrapping, buttons with hit testing).
//
// State is never shown by colour alone: helpers that draw a state also
// draw its label or shape (see Theme.Usage and the badge helpers).
//
// Lines and triangles are anti-aliased by a fringe (viz/layout's
// LineMesh and TriangleMesh), never by Ebitengine's AntiAlias option,
// whose offscreen images cost the desktop app a second and 210 MB at
// start-up (TestNoEbitengineAntiAliasing in viz/layout keeps it out).
//
// Scenes and panels call these helpers from Ebitengine's Draw; nothing here
// keeps animation state or reads input.
package render
