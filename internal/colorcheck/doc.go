// Package colorcheck is the colour arithmetic that BufferLab's theme tests
// use to judge what a screen shows, and nothing else: it draws nothing.
//
//   - WCAG 2.x contrast (Contrast): the ratio of the relative luminances
//     of two sRGB colours, (L1 + 0.05) / (L2 + 0.05), from 1 to 21. Body
//     text needs at least 4.5:1 (success criterion 1.4.3, level AA).
//   - Colour-vision deficiency (Simulate, SimulateImage): the matrices of
//     Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model
//     for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), at
//     severity 1.0 (protanopia, deuteranopia), applied to linear RGB (the
//     sRGB transfer function is undone first and redone after, with the
//     result clipped to the gamut).
//   - CIELAB (D65, 2° observer) and the colour differences ΔE76 (the
//     Euclidean distance in L*a*b*) and CIEDE2000 (Sharma, Wu & Dalal
//     2005's formulation, checked against their test data).
//
// All of it is pure Go over image/color, so the layout tests that use it
// run with no display (viz/layout, viz/scene), and cvdsim applies the
// same simulation to a screenshot to look at.
package colorcheck
