// Command cvdsim writes a copy of a PNG as a viewer with protanopia or
// deuteranopia sees it (colorcheck.SimulateImage: Machado et al. 2009 at
// severity 1.0, in linear RGB), to look at a screenshot the way the theme
// tests judge its colours:
//
//	go run ./internal/colorcheck/cvdsim -vision deuteranopia in.png out.png
//
// It is a development tool: nothing builds or ships it.
package main
