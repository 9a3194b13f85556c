// Package chart draws an experiment's report as a PNG or SVG chart with
// gonum.org/v1/plot (`bufferlab bench --plot FILE`). It is kept apart from
// package exp so that the browser build, which runs experiments but draws
// its own chart, does not carry the plotting library.
package chart
